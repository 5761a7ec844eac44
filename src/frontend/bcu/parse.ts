/**
 * Parser: Ohm grammar (grammar/babycuda.ohm) → AST. The grammar is Ohm's
 * generated bundle (`npm run grammar`, part of the build): loading it costs
 * no grammar compilation and no file read, so the parser runs wherever
 * JavaScript does. Each AST category is one typed semantic operation, whose
 * actions Ohm checks against the grammar's rules and arities.
 *
 * Ohm matches the text of the lexical pass (scan.ts), in which comments and
 * white space are one space each; spans are mapped back to the file's offsets.
 */
import type { FailedMatchResult, IterationNode, Node } from 'ohm-js';
import grammar, { type BabyCUDAActionDict, type BabyCUDASemantics } from '../../../grammar/babycuda.ohm-bundle.js';
import type {
  ArithOp,
  ArrayDecl,
  AtomicOp,
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
  Step,
  UpStep,
  DownStep,
  Stmt,
  StatedAssumption,
} from '../../core/ast.js';
import { sourceFile, type SourceFile, type Span } from '../../core/source.js';
import { kernelExcess, MAX_DEPTH, MAX_INLINED_SIZE, type Excess } from '../../core/limits.js';
import { DiagnosticError, error, type Diagnostic, type RelatedSpan } from '../../diagnostics/diagnostic.js';
import { shownChar } from '../../diagnostics/shown.js';
import { assertNever } from '../../util/assert.js';
import { closerOf, openBrackets, scanned, type Scanned } from './scan.js';

export function parseProgram(path: string, text: string): Program {
  const file = sourceFile(path, text);
  const scan = scanned(file);
  const match = grammar.match(scan.code);
  if (match.failed()) throw new DiagnosticError([syntaxError(file, scan, match)]);
  let kernels: Kernel[];
  walking = scan;
  try {
    kernels = astSemantics()(match)['kernels']();
  } finally {
    walking = null;
  }
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

function syntaxError(file: SourceFile, scan: Scanned, match: FailedMatchResult): Diagnostic {
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
function triedAt(match: FailedMatchResult): string[] {
  const failures = (match as FailedMatchResult & { getRightmostFailures(): OhmFailure[] }).getRightmostFailures();
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
const STATEMENT = ['skip', 'if', 'for', 'sync', 'syncwarp', 'assume', 'atomic'].map((t) => `'${t}'`).concat(['a name']);
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

/**
 * The scanned text whose tree the actions are walking, set by parseProgram
 * for the walk (which is synchronous): Ohm's actions take no arguments of
 * ours, and their spans must be the file's offsets, not the scanned text's.
 */
let walking: Scanned | null = null;

function span(node: Node): Span {
  const scan = walking!;
  return { start: scan.fileOffset(node.source.startIdx), end: scan.fileOffset(node.source.endIdx) };
}

/** The operations below, applied to a child node (Ohm types their results as `any`). */
const kernel = (n: Node): Kernel => n['kernel']();
const stmts = (n: Node): Stmt[] => n['stmts']();
const stmt = (n: Node): Stmt => n['stmt']();
const binding = (n: Node): Binder => n['binding']();
const bexp = (n: Node): BExpr => n['bexp']();
const exp = (n: Node): Expr => n['exp']();
const name = (n: Node): Name => n['name']();
const dim = (n: Node): Dim3 => n['dim']();
const launch = (n: Node): Launch => n['launch']();
const arrays = (n: Node): ArrayDecl[] => n['arrays']();
const arrayDecl = (n: Node): Omit<ArrayDecl, 'scope'> => n['arrayDecl']();
const step = (n: Node): Step => n['step']();
const atomic = (n: Node): AtomicParts => n['atomic']();

/** An `atomic op(A[i], …)`: all of the statement but what it binds. */
type AtomicParts = Pick<Extract<Stmt, { kind: 'atomic' }>, 'op' | 'array' | 'index' | 'operands' | 'target'>;

/** The child of an optional `X?`, if present. */
function optional(iter: IterationNode): Node | undefined {
  return iter.children[0];
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
function grouped<T>(
  first: Node,
  ops: IterationNode,
  rest: IterationNode,
  operand: (n: Node) => T,
  precedence: Readonly<Record<string, number>>,
  combine: (left: T, op: string, right: T, at: Span) => T,
): T {
  const operands: { tree: T; span: Span }[] = [{ tree: operand(first), span: span(first) }];
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
    operands.push({ tree: operand(right), span: span(right) });
  });
  while (pending.length > 0) reduce();
  return operands[0]!.tree;
}

// Rules with one child and no action of their own (Inner, Prim, BAtom, …) pass the operation to that child.
const programActions: BabyCUDAActionDict<Kernel[]> = {
  Program(ks) {
    return ks.children.map(kernel);
  },
};

const kernelActions: BabyCUDAActionDict<Kernel> = {
  Kernel(_kw, id, _open, params, _close, launchOpt, requires, _lbrace, decls, body, _rbrace) {
    const launchNode = optional(launchOpt);
    const conditions = requires.children.map(bexp);
    const statements = stmts(body);
    const stated: StatedAssumption[] = [...conditions.map((c) => ({ kind: 'requires' as const, span: c.span })), ...assumesIn(statements)];
    return {
      name: name(id),
      params: params.asIteration().children.map(name),
      launch: launchNode ? launch(launchNode) : null,
      requires: conditions,
      arrays: decls.children.flatMap(arrays),
      body: statements,
      span: span(this),
      ...(stated.length > 0 ? { stated } : {}),
    };
  },
};

/** The kernel's `assume` statements, in source order: in BabyCUDA every one is the user's. */
function assumesIn(body: readonly Stmt[]): StatedAssumption[] {
  return body.flatMap((s): StatedAssumption[] => {
    switch (s.kind) {
      case 'assume':
        return [{ kind: 'assume', span: s.cond.span }];
      case 'read':
      case 'let':
      case 'atomic':
      case 'havoc':
        return assumesIn([s.body]);
      case 'if':
        return [...assumesIn(s.then), ...assumesIn(s.else ?? [])];
      case 'for':
        return assumesIn(s.body);
      case 'skip':
      case 'write':
      case 'sync':
      case 'syncwarp':
        return [];
      default:
        return assertNever(s);
    }
  });
}

const launchActions: BabyCUDAActionDict<Launch> = {
  Launch(_open, grid, _comma, block, _close) {
    return { grid: dim(grid), block: dim(block), span: span(this) };
  },
};

const dimActions: BabyCUDAActionDict<Dim3> = {
  Dim_tuple(_open, x, _c1, y, _c2, z, _close) {
    const zNode = optional(z);
    return { x: exp(x), y: exp(y), z: zNode ? exp(zNode) : null, span: span(this) };
  },
  Dim_scalar(x) {
    return { x: exp(x), y: null, z: null, span: span(this) };
  },
};

const declActions: BabyCUDAActionDict<ArrayDecl[]> = {
  Decl(scope, list, _semi) {
    const s = scope.sourceString === 'shared' ? 'shared' : 'global';
    return list.asIteration().children.map((a) => {
      const { name: n, sizes, span: at } = arrayDecl(a);
      return { name: n, scope: s, sizes, span: at };
    });
  },
};

const arrayDeclActions: BabyCUDAActionDict<Omit<ArrayDecl, 'scope'>> = {
  ArrayDecl(id, sizes) {
    return { name: name(id), sizes: sizes.children.map(exp), span: span(this) };
  },
};

const blockActions: BabyCUDAActionDict<Stmt[]> = {
  Body(first, _semis, rest, _semi) {
    return [first, ...rest.children].map(stmt);
  },
};

/** A `let … in` waiting for its body: the lets of a statement nest, innermost last. */
type Binder = (body: Stmt, end: number) => Stmt;

const bindingActions: BabyCUDAActionDict<Binder> = {
  Binding_read(_let, local, _eq, access, _in) {
    const [array, index] = access.children as [Node, IterationNode];
    const start = span(this).start;
    const read = { local: name(local), array: name(array), index: index.children.map(exp), source: span(access) };
    return (body, end) => ({ kind: 'read', ...read, body, span: { start, end } });
  },
  Binding_atomic(_let, local, _eq, update, _in) {
    const start = span(this).start;
    const parts = { local: name(local), ...atomic(update) };
    return (body, end) => ({ kind: 'atomic', ...parts, body, span: { start, end } });
  },
  Binding_let(_let, local, _eq, value, _in) {
    const start = span(this).start;
    const bound = { local: name(local), value: exp(value) };
    return (body, end) => ({ kind: 'let', ...bound, body, span: { start, end } });
  },
};

const stmtActions: BabyCUDAActionDict<Stmt> = {
  Stmt(bindings, inner) {
    // each let spans to the end of the statement it scopes over
    const end = span(this).end;
    return bindings.children.map(binding).reduceRight((body, bind) => bind(body, end), stmt(inner));
  },
  Inner_skip(_kw) {
    return { kind: 'skip', span: span(this) };
  },
  Inner_write(array, index, _assign, value) {
    return { kind: 'write', array: name(array), index: index.children.map(exp), value: exp(value), target: { start: span(array).start, end: span(index).end }, span: span(this) };
  },
  Inner_if(_if, cond, _open, then, _close, _else, _elseOpen, elseBody, _elseClose) {
    const otherwise = optional(elseBody);
    return { kind: 'if', cond: bexp(cond), then: stmts(then), else: otherwise ? stmts(otherwise) : null, span: span(this) };
  },
  Inner_up(_for, v, _in, from, _dots, to, stepOpt, _open, body, _close) {
    return loop(this, 'up', v, from, to, stepOpt, body);
  },
  Inner_down(_for, v, _in, from, _downto, to, stepOpt, _open, body, _close) {
    return loop(this, 'down', v, from, to, stepOpt, body);
  },
  Inner_sync(_kw) {
    return { kind: 'sync', span: span(this) };
  },
  Inner_syncwarp(_kw) {
    return { kind: 'syncwarp', span: span(this) };
  },
  Inner_assume(_kw, cond) {
    return { kind: 'assume', cond: bexp(cond), span: span(this) };
  },
  Inner_atomic(update) {
    const at = span(this);
    return { kind: 'atomic', local: null, ...atomic(update), body: { kind: 'skip', span: { start: at.end, end: at.end } }, span: at };
  },
};

const atomicActions: BabyCUDAActionDict<AtomicParts> = {
  Atomic_cas(_kw, _cas, _open, access, _c1, compare, _c2, value, _close) {
    return { op: 'cas', ...atomicTarget(access), operands: [exp(compare), exp(value)] };
  },
  Atomic_one(_kw, op, _open, access, _comma, operand, _close) {
    return { op: op.sourceString as AtomicOp, ...atomicTarget(access), operands: [exp(operand)] };
  },
};

function atomicTarget(access: Node): Pick<AtomicParts, 'array' | 'index' | 'target'> {
  const [array, index] = access.children as [Node, IterationNode];
  return { array: name(array), index: index.children.map(exp), target: span(access) };
}

function loop(node: Node, direction: 'up' | 'down', v: Node, from: Node, to: Node, stepOpt: IterationNode, body: Node): Stmt {
  const stepNode = optional(stepOpt);
  return { kind: 'for', var: name(v), from: exp(from), to: exp(to), direction, step: stepNode ? step(stepNode) : null, body: stmts(body), span: span(node) };
}

const stepActions: BabyCUDAActionDict<Step> = {
  UpStep(_kw, op, amount) {
    return { op: op.sourceString as UpStep, amount: exp(amount) };
  },
  DownStep(_kw, op, amount) {
    return { op: op.sourceString as DownStep, amount: exp(amount) };
  },
};

const bexpActions: BabyCUDAActionDict<BExpr> = {
  Requires(_kw, cond) {
    return bexp(cond);
  },
  BExp(first, ops, rest) {
    return grouped(first, ops, rest, bexp, BOOLEAN_PRECEDENCE, (left, op, right, at) => ({ kind: op === '&&' ? 'and' : 'or', left, right, span: at }));
  },
  BNot(bangs, atom) {
    // `!!c`: each `!` spans from itself to the end of the condition
    const end = span(this).end;
    return bangs.children.reduceRight<BExpr>((operand, bang) => ({ kind: 'not', operand, span: { start: span(bang).start, end } }), bexp(atom));
  },
  BAtom_cmp(left, op, right) {
    const o = op.sourceString;
    return { kind: 'cmp', op: (o === '=' ? '==' : o) as CmpOp, left: exp(left), right: exp(right), span: span(this) };
  },
  BAtom_paren(_open, cond, _close) {
    return bexp(cond);
  },
  BAtom_true(_kw) {
    return { kind: 'bool', value: true, span: span(this) };
  },
  BAtom_false(_kw) {
    return { kind: 'bool', value: false, span: span(this) };
  },
};

const expActions: BabyCUDAActionDict<Expr> = {
  Exp(first, ops, rest) {
    return grouped(first, ops, rest, exp, ARITHMETIC_PRECEDENCE, (left, op, right, at) => ({ kind: 'binary', op: op as ArithOp, left, right, span: at }));
  },
  Index(_open, e, _close) {
    return exp(e);
  },
  Prim_paren(_open, e, _close) {
    return exp(e);
  },
  builtin_tid(_kw) {
    return { kind: 'builtin', name: 'threadIdx', axis: 'x', span: span(this) };
  },
  builtin_dim(dimName, _dot, axis) {
    return { kind: 'builtin', name: dimName.sourceString as BuiltinName, axis: axis.sourceString as Axis, span: span(this) };
  },
  nat(_digits) {
    return { kind: 'nat', value: BigInt(this.sourceString), span: span(this) };
  },
  ident(_start, _rest) {
    return { kind: 'var', name: this.sourceString, span: span(this) };
  },
};

const nameActions: BabyCUDAActionDict<Name> = {
  ident(_start, _rest) {
    return { text: this.sourceString, span: span(this) };
  },
};

let cachedSemantics: BabyCUDASemantics | undefined;

/** Built at the first parse, not at import: `--version` and `--help` never parse. */
function astSemantics(): BabyCUDASemantics {
  cachedSemantics ??= grammar
    .createSemantics()
    .addOperation('kernels', programActions)
    .addOperation('kernel', kernelActions)
    .addOperation('launch', launchActions)
    .addOperation('dim', dimActions)
    .addOperation('arrays', declActions)
    .addOperation('arrayDecl', arrayDeclActions)
    .addOperation('stmts', blockActions)
    .addOperation('stmt', stmtActions)
    .addOperation('binding', bindingActions)
    .addOperation('step', stepActions)
    .addOperation('atomic', atomicActions)
    .addOperation('bexp', bexpActions)
    .addOperation('exp', expActions)
    .addOperation('name', nameActions);
  return cachedSemantics;
}
