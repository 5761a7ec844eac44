/**
 * Parser: Ohm grammar (grammar/babycuda.ohm) → AST. The concrete syntax tree is
 * walked by hand so that each function returns one typed AST category.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as ohm from 'ohm-js';
import type { Node } from 'ohm-js';
import type {
  ArithOp,
  ArrayDecl,
  Axis,
  BExpr,
  BuiltinName,
  CmpOp,
  Dim3,
  Expr,
  Kernel,
  Launch,
  Name,
  Program,
  Stmt,
} from '../../core/ast.js';
import { sourceFile, type SourceFile, type Span } from '../../core/source.js';
import { DiagnosticError, error, type Diagnostic, type RelatedSpan } from '../../diagnostics/diagnostic.js';
import { shownChar } from '../../diagnostics/shown.js';
import { closerOf, openBrackets, scanned, type Scanned } from './scan.js';
import { kernelExcess, MAX_DEPTH, MAX_INLINED_SIZE, type Excess } from '../../core/limits.js';
import { assertNever } from '../../util/assert.js';

const grammarPath = fileURLToPath(new URL('../../../grammar/babycuda.ohm', import.meta.url));
let cachedGrammar: ohm.Grammar | undefined;

function grammar(): ohm.Grammar {
  cachedGrammar ??= ohm.grammar(readFileSync(grammarPath, 'utf8'));
  return cachedGrammar;
}

export function parseProgram(path: string, text: string): Program {
  const file = sourceFile(path, text);
  const scan = scanned(file);
  const match = grammar().match(scan.code);
  if (match.failed()) throw new DiagnosticError([syntaxError(file, scan, match)]);
  const walk: Walk = { span: (node) => ({ start: scan.fileOffset(node.source.startIdx), end: scan.fileOffset(node.source.endIdx) }) };
  const kernels = semanticsRoot(match).child(0).children.map((k) => kernel(walk, k));
  const excesses = kernels.flatMap((k) => {
    const excess = kernelExcess(k);
    return excess === null ? [] : [excessError(file, excess)];
  });
  if (excesses.length > 0) throw new DiagnosticError(excesses);
  return { file, kernels };
}

function excessError(file: SourceFile, excess: Excess): Diagnostic {
  switch (excess.kind) {
    case 'depth':
      return error('E0004', file, excess.span, `nested too deep: ${excess.depth} levels (limit ${MAX_DEPTH})`, {
        label: `level ${excess.depth}`,
        hints: [
          'each statement in a `let`, `if` or `for` is a level deeper, each operand a level deeper than its operator, and a name bound by `let` stands for its value',
          'split a long chain of operators with `let`, or the kernel into several',
        ],
      });
    case 'size':
      return error('E0005', file, excess.span, `the kernel's expressions have more than ${MAX_INLINED_SIZE.toLocaleString('en-US')} operators and operands with the names bound by \`let\` replaced by their values`, {
        label: 'the limit is passed here',
        hints: ['a name used several times in the value of the next `let` doubles its size at each step: bind such values with fewer uses'],
      });
    default:
      return assertNever(excess);
  }
}

let cachedSemantics: ohm.Semantics | undefined;

/** Ohm exposes the CST only through a semantics; an identity operation hands us the root node. */
function semanticsRoot(match: ohm.MatchResult): Node {
  cachedSemantics ??= grammar()
    .createSemantics()
    .addOperation<Node>('node', {
      _nonterminal(this: Node) {
        return this;
      },
    });
  return cachedSemantics(match)['node']() as Node;
}

function syntaxError(file: SourceFile, scan: Scanned, match: ohm.FailedMatchResult): Diagnostic {
  let at = match.getRightmostFailurePosition();
  if (scan.code[at] === ' ') at++;
  const offset = scan.fileOffset(at);
  const found = foundToken(scan.code, at);
  const items = expectedItems(triedAt(match));
  const expected = items.length <= 1 ? (items[0] ?? 'nothing') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)!}`;
  const unclosed = unclosedBracket(scan, at, items, found);
  return error('E0001', file, { start: offset, end: Math.min(file.text.length, offset + Math.max(1, found.length)) },
    `syntax error: expected ${expected}, found ${found === '' ? 'end of file' : `'${[...found].map(shownChar).join('')}'`}`, {
      label: `expected ${expected}`,
      related: unclosed === null ? [] : [unclosed],
      hints: syntaxHints(scan.code, at, found, items),
    });
}

/** Ohm's failures at the rightmost position (a method its type declarations leave out). */
interface OhmFailure {
  getText(): string;
  getType(): string;
  isFluffy(): boolean;
}

/** What Ohm tried where it stopped, in the order tried: `'tok'` or a rule's description. */
function triedAt(match: ohm.FailedMatchResult): string[] {
  const failures = (match as ohm.FailedMatchResult & { getRightmostFailures(): OhmFailure[] }).getRightmostFailures();
  return failures
    .filter((f) => !f.isFluffy())
    .map((f) => (f.getType() === 'string' ? `'${f.getText()}'` : f.getText()))
    .reverse();
}

/** The token at an offset of the scanned text: a word, a number or one character. */
function foundToken(code: string, at: number): string {
  if (at >= code.length) return '';
  const word = /^(?:[A-Za-z_][A-Za-z0-9_]*|\d+)/.exec(code.slice(at, at + 200));
  return word ? word[0] : String.fromCodePoint(code.codePointAt(at)!);
}

const OPERATORS = ['|', '^', '&', '<<', '>>', '+', '-', '*', '/', '%', '||', '&&'].map((t) => `'${t}'`);
const COMPARISONS = ['==', '!=', '<=', '>=', '<', '>', '='].map((t) => `'${t}'`);
const EXPRESSION = ['(', 'tid', 'threadIdx', 'blockIdx', 'blockDim', 'gridDim'].map((t) => `'${t}'`).concat(['a name', 'a number']);
// `!` and `let` start iterations, whose failures Ohm leaves out of its list
const CONDITION = EXPRESSION.concat(["'true'", "'false'"]);
const STATEMENT = ['skip', 'if', 'for', 'sync', 'assume'].map((t) => `'${t}'`).concat(['a name']);
const DECLARATION = ["'shared'", "'global'"];

/**
 * What Ohm says it tried, as the constructs a reader knows: the tokens that
 * start an expression, a condition, a statement or a declaration are named
 * as such; operators that could continue what precedes are left out.
 */
function expectedItems(tried: readonly string[]): string[] {
  let items = [...new Set(tried)].map((t) => (t === 'end of input' ? 'end of file' : t));
  const group = (members: readonly string[], construct: string): void => {
    if (!members.every((m) => items.includes(m))) return;
    const first = items.findIndex((t) => members.includes(t));
    items = items.flatMap((t, i) => (i === first ? [construct] : members.includes(t) ? [] : [t]));
  };
  group(CONDITION, 'a condition');
  group(EXPRESSION, 'an expression');
  group(DECLARATION, 'an array declaration');
  group(STATEMENT, 'a statement');
  group(COMPARISONS, 'a comparison operator');
  const rest = items.filter((t) => !OPERATORS.includes(t));
  return rest.length > 0 ? rest : ['an operator'];
}

/**
 * The innermost bracket open where parsing stopped, when its closer is what
 * was expected and the text gave the end of the file, another closer, a `{`
 * or the next kernel instead: the likelier mistake is that bracket.
 */
function unclosedBracket(scan: Scanned, at: number, expected: readonly string[], found: string): RelatedSpan | null {
  const innermost = openBrackets(scan.code, at).at(-1);
  if (innermost === undefined || !expected.includes(`'${closerOf(innermost.bracket)}'`)) return null;
  if (!(found === '' || /^[)\]}{]$/.test(found) || found === 'kernel')) return null;
  const start = scan.fileOffset(innermost.at);
  return { span: { start, end: start + 1 }, message: `unclosed '${innermost.bracket}' opened here` };
}

/** Hints for frequent slips, read from the scanned text near the failure. */
function syntaxHints(code: string, at: number, found: string, expected: readonly string[]): string[] {
  const before = code.slice(Math.max(0, at - 200), at).trimEnd();
  const after = code.slice(at, at + 200);
  const hints: string[] = [];
  if (/\[[^\]]*\]$/.test(before) && /^=[^=]/.test(after)) {
    hints.push('a write is written `A[i] := e`');
  }
  if (/\}$/.test(before) && /^[A-Za-z_]/.test(after)) {
    hints.push('statements are separated by `;`');
  }
  if (/^\[/.test(after) && /(:=|[-+*/%&|^<>(=!\[,]|\bif|\brequires|\bassume) ?[A-Za-z_]\w*$/.test(before)) {
    hints.push('expressions cannot read arrays: bind the value first with `let x = A[i] in …`');
  }
  if (/^[)\]}]$/.test(found) && openBrackets(code, at).length === 0) hints.push(`this '${found}' closes nothing`);
  if (found === '}' && expected.includes('a statement')) hints.push('a body needs a statement: `skip` does nothing');
  if (/^[\p{Z}\p{Cf}]$/u.test(found)) hints.push(`'${shownChar(found)}' is an invisible character: only spaces, tabs and line breaks separate tokens`);
  return hints;
}

/** How the walk turns a node's interval of the scanned text into a span of the file. */
interface Walk {
  readonly span: (node: Node) => Span;
}

function name(w: Walk, node: Node): Name {
  return { text: node.sourceString, span: w.span(node) };
}

function kernel(w: Walk, node: Node): Kernel {
  // kw ident "(" ListOf ")" Launch? Requires* "{" Decl* Body "}"
  const [, id, , params, , launchOpt, requires, , decls, body] = node.children as [
    Node, Node, Node, Node, Node, Node, Node, Node, Node, Node,
  ];
  const launchNode = launchOpt.children[0];
  return {
    name: name(w, id),
    params: params.asIteration().children.map((p) => name(w, p)),
    launch: launchNode ? launch(w, launchNode) : null,
    requires: requires.children.map((r) => bexp(w, r.child(1))),
    arrays: decls.children.flatMap((d) => declaration(w, d)),
    body: block(w, body),
    span: w.span(node),
  };
}

function launch(w: Walk, node: Node): Launch {
  return { grid: dim(w, node.child(1)), block: dim(w, node.child(3)), span: w.span(node) };
}

function dim(w: Walk, node: Node): Dim3 {
  const alt = node.child(0);
  if (alt.ctorName === 'Dim_scalar') return { x: exp(w, alt.child(0)), y: null, z: null, span: w.span(node) };
  const zNode = alt.child(5).children[0];
  return { x: exp(w, alt.child(1)), y: exp(w, alt.child(3)), z: zNode ? exp(w, zNode) : null, span: w.span(node) };
}

function declaration(w: Walk, node: Node): ArrayDecl[] {
  const scope = node.child(0).sourceString === 'shared' ? 'shared' : 'global';
  return node.child(1).asIteration().children.map((a) => ({
    name: name(w, a.child(0)),
    scope,
    sizes: indices(w, a.child(1)),
    span: w.span(a),
  }));
}

/** `Stmt (";" Stmt)* ";"?` */
function block(w: Walk, body: Node): Stmt[] {
  const [first, , rest] = body.children as [Node, Node, Node];
  return [first, ...rest.children].map((s) => stmt(w, s));
}

function indices(w: Walk, iter: Node): Expr[] {
  return iter.children.map((ix) => exp(w, ix.child(1)));
}

/** `let … in` bindings, then the statement they scope over: the lets nest, innermost last. */
function stmt(w: Walk, node: Node): Stmt {
  const [bindings, innerNode] = node.children as [Node, Node];
  const end = w.span(node).end;
  let tree = inner(w, innerNode);
  for (const b of [...bindings.children].reverse()) {
    const alt = b.child(0);
    const s = { start: w.span(b).start, end };
    const local = name(w, alt.child(1));
    if (alt.ctorName === 'Binding_read') {
      const access = alt.child(3);
      tree = { kind: 'read', local, array: name(w, access.child(0)), index: indices(w, access.child(1)), source: w.span(access), body: tree, span: s };
    } else {
      tree = { kind: 'let', local, value: exp(w, alt.child(3)), body: tree, span: s };
    }
  }
  return tree;
}

function inner(w: Walk, node: Node): Stmt {
  const alt = node.child(0);
  const s = w.span(node);
  const c = (i: number): Node => alt.child(i);
  switch (alt.ctorName) {
    case 'Inner_skip':
      return { kind: 'skip', span: s };
    case 'Inner_write':
      return {
        kind: 'write',
        array: name(w, c(0)),
        index: indices(w, c(1)),
        value: exp(w, c(3)),
        target: { start: w.span(c(0)).start, end: w.span(c(1)).end },
        span: s,
      };
    case 'Inner_if': {
      // kw BExp "{" Body "}" (kw "{" Body "}")?: the optional part is one iteration node per element
      const elseBody = c(7).children[0];
      return { kind: 'if', cond: bexp(w, c(1)), then: block(w, c(3)), else: elseBody ? block(w, elseBody) : null, span: s };
    }
    case 'Inner_up':
    case 'Inner_down': {
      const stepNode = c(6).children[0];
      const step = stepNode
        ? { op: stepNode.child(1).sourceString as '+' | '*' | '-' | '/', amount: exp(w, stepNode.child(2)) }
        : null;
      return {
        kind: 'for',
        var: name(w, c(1)),
        from: exp(w, c(3)),
        to: exp(w, c(5)),
        direction: alt.ctorName === 'Inner_up' ? 'up' : 'down',
        step,
        body: block(w, c(8)),
        span: s,
      };
    }
    case 'Inner_sync':
      return { kind: 'sync', span: s };
    case 'Inner_assume':
      return { kind: 'assume', cond: bexp(w, c(1)), span: s };
    default:
      throw new Error(`parser: unexpected statement node ${alt.ctorName}`);
  }
}

function bexp(w: Walk, node: Node): BExpr {
  const s = w.span(node);
  switch (node.ctorName) {
    case 'BExp':
      return grouped(w, node, bexp, BOOLEAN_PRECEDENCE, (left, op, right, at) => ({ kind: op === '&&' ? 'and' : 'or', left, right, span: at }));
    case 'BNot': {
      // `!!c`: each `!` spans from itself to the end of the condition
      const [bangs, atom] = node.children as [Node, Node];
      let tree = bexp(w, atom);
      for (const bang of [...bangs.children].reverse()) tree = { kind: 'not', operand: tree, span: { start: w.span(bang).start, end: s.end } };
      return tree;
    }
    case 'BAtom':
      return bexp(w, node.child(0));
    case 'BAtom_cmp': {
      const op = node.child(1).sourceString;
      return { kind: 'cmp', op: (op === '=' ? '==' : op) as CmpOp, left: exp(w, node.child(0)), right: exp(w, node.child(2)), span: s };
    }
    case 'BAtom_paren':
      return bexp(w, node.child(1));
    case 'BAtom_true':
      return { kind: 'bool', value: true, span: s };
    case 'BAtom_false':
      return { kind: 'bool', value: false, span: s };
    default:
      throw new Error(`parser: unexpected condition node ${node.ctorName}`);
  }
}

/** C's precedence, higher binds tighter. */
const ARITHMETIC_PRECEDENCE: Readonly<Record<string, number>> = { '|': 1, '^': 2, '&': 3, '<<': 4, '>>': 4, '+': 5, '-': 5, '*': 6, '/': 6, '%': 6 };
const BOOLEAN_PRECEDENCE: Readonly<Record<string, number>> = { '||': 1, '&&': 2 };

/**
 * `First (Op Next)*` grouped by precedence, each level to the left as in C,
 * with a stack rather than recursion (a sum of thousands of terms is one
 * list). Each node spans from its left operand to its right one, parentheses
 * around them included; an operand's own tree leaves its parentheses out.
 */
function grouped<T>(w: Walk, node: Node, operand: (w: Walk, n: Node) => T, precedence: Readonly<Record<string, number>>, combine: (left: T, op: string, right: T, at: Span) => T): T {
  const [first, ops, rest] = node.children as [Node, Node, Node];
  const operands: { tree: T; span: Span }[] = [{ tree: operand(w, first), span: w.span(first) }];
  const pending: string[] = [];
  const reduce = (): void => {
    const right = operands.pop()!;
    const left = operands.pop()!;
    const at = { start: left.span.start, end: right.span.end };
    operands.push({ tree: combine(left.tree, pending.pop()!, right.tree, at), span: at });
  };
  ops.children.forEach((opNode, i) => {
    const op = opNode.sourceString;
    while (pending.length > 0 && precedence[pending.at(-1)!]! >= precedence[op]!) reduce();
    pending.push(op);
    const right = rest.child(i);
    operands.push({ tree: operand(w, right), span: w.span(right) });
  });
  while (pending.length > 0) reduce();
  return operands[0]!.tree;
}

function exp(w: Walk, node: Node): Expr {
  const s = w.span(node);
  switch (node.ctorName) {
    case 'Exp':
      return grouped(w, node, exp, ARITHMETIC_PRECEDENCE, (left, op, right, at) => ({ kind: 'binary', op: op as ArithOp, left, right, span: at }));
    case 'Prim':
      return exp(w, node.child(0));
    case 'Prim_paren':
      return exp(w, node.child(1));
    case 'builtin':
      return exp(w, node.child(0));
    case 'builtin_tid':
      return { kind: 'builtin', name: 'threadIdx', axis: 'x', span: s };
    case 'builtin_dim':
      return { kind: 'builtin', name: node.child(0).sourceString as BuiltinName, axis: node.child(2).sourceString as Axis, span: s };
    case 'nat':
      return { kind: 'nat', value: BigInt(node.sourceString), span: s };
    case 'ident':
      return { kind: 'var', name: node.sourceString, span: s };
    default:
      throw new Error(`parser: unexpected expression node ${node.ctorName}`);
  }
}
