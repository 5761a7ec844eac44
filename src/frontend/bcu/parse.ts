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
import { DiagnosticError, error } from '../../diagnostics/diagnostic.js';

const grammarPath = fileURLToPath(new URL('../../../grammar/babycuda.ohm', import.meta.url));
let cachedGrammar: ohm.Grammar | undefined;

function grammar(): ohm.Grammar {
  cachedGrammar ??= ohm.grammar(readFileSync(grammarPath, 'utf8'));
  return cachedGrammar;
}

export function parseProgram(path: string, text: string): Program {
  const file = sourceFile(path, text);
  const match = grammar().match(text);
  if (match.failed()) throw new DiagnosticError([syntaxError(file, match)]);
  return { file, kernels: programKernels(file, semanticsRoot(match)) };
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

function syntaxError(file: SourceFile, match: ohm.FailedMatchResult): ReturnType<typeof error> {
  const offset = match.getRightmostFailurePosition();
  const found = foundText(file.text, offset);
  const expected = shortenExpected(match.getExpectedText());
  return error('E0001', file, { start: offset, end: Math.min(file.text.length, offset + Math.max(1, found.length)) },
    `syntax error: expected ${expected}, found ${found === '' ? 'end of file' : `'${found}'`}`, {
      label: `expected ${expected}`,
      hints: syntaxHints(file.text, offset),
    });
}

function foundText(text: string, offset: number): string {
  const rest = text.slice(offset);
  const word = /^[A-Za-z_][A-Za-z0-9_]*|^\d+|^\S/.exec(rest);
  return word ? word[0] : '';
}

/** Ohm lists every terminal it tried; users need the few that matter. */
function shortenExpected(expected: string): string {
  const items = expected
    .replace(/^one of /, '')
    .split(/, or |, | or /)
    .map((s) => s.trim())
    .filter((s) => s.length > 0 && !/^(an? )?(alnum|space|"_")/.test(s))
    .map((s) => (/^(an? )?digit/.test(s) ? 'a number' : /^(an? )?letter/.test(s) ? 'a name' : s));
  const unique = [...new Set(items)];
  if (unique.length === 0) return expected;
  if (unique.length <= 6) return unique.length === 1 ? unique[0]! : `${unique.slice(0, -1).join(', ')} or ${unique.at(-1)}`;
  return `${unique.slice(0, 6).join(', ')}, …`;
}

function syntaxHints(text: string, offset: number): string[] {
  const before = text.slice(0, offset).trimEnd();
  const hints: string[] = [];
  if (/\[[^\]]*\]\s*$/.test(before) && /^\s*=[^=]/.test(text.slice(offset))) {
    hints.push('a write is written `A[i] := e`');
  }
  if (/\}\s*$/.test(before) && /^\s*[A-Za-z_]/.test(text.slice(offset))) {
    hints.push('statements are separated by `;`');
  }
  if (/^\s*\[/.test(text.slice(offset)) && /(:=|[-+*/%&|^<>(=!\[,]|\bif|\brequires|\bassume)\s*[A-Za-z_]\w*\s*$/.test(before)) {
    hints.push('expressions cannot read arrays: bind the value first with `let x = A[i] in …`');
  }
  return hints;
}

function span(node: Node): Span {
  return { start: node.source.startIdx, end: node.source.endIdx };
}

function name(node: Node): Name {
  return { text: node.sourceString, span: span(node) };
}

function iterChildren(node: Node): Node[] {
  return node.children;
}

function programKernels(file: SourceFile, node: Node): Kernel[] {
  void file;
  return iterChildren(node.child(0)).map(kernel);
}

function kernel(node: Node): Kernel {
  // kw ident "(" ListOf ")" Launch? Requires* "{" Decl* Body "}"
  const [, id, , params, , launchOpt, requires, , decls, body] = node.children as [
    Node, Node, Node, Node, Node, Node, Node, Node, Node, Node,
  ];
  const launchNode = iterChildren(launchOpt)[0];
  return {
    name: name(id),
    params: params.asIteration().children.map(name),
    launch: launchNode ? launch(launchNode) : null,
    requires: iterChildren(requires).map((r) => bexp(r.child(1))),
    arrays: iterChildren(decls).flatMap(declaration),
    body: block(body),
    span: span(node),
  };
}

function launch(node: Node): Launch {
  return { grid: dim(node.child(1)), block: dim(node.child(3)), span: span(node) };
}

function dim(node: Node): Dim3 {
  const alt = node.child(0);
  if (alt.ctorName === 'Dim_scalar') return { x: exp(alt.child(0)), y: null, z: null, span: span(node) };
  const zNode = iterChildren(alt.child(5))[0];
  return { x: exp(alt.child(1)), y: exp(alt.child(3)), z: zNode ? exp(zNode) : null, span: span(node) };
}

function declaration(node: Node): ArrayDecl[] {
  const scope = node.child(0).sourceString === 'shared' ? 'shared' : 'global';
  return node.child(1).asIteration().children.map((a) => ({
    name: name(a.child(0)),
    scope,
    sizes: iterChildren(a.child(1)).map((ix) => exp(ix.child(1))),
    span: span(a),
  }));
}

function block(body: Node): Stmt[] {
  return body.child(0).asIteration().children.map(stmt);
}

function indices(iter: Node): Expr[] {
  return iterChildren(iter).map((ix) => exp(ix.child(1)));
}

function stmt(node: Node): Stmt {
  const alt = node.child(0);
  const s = span(node);
  const c = (i: number): Node => alt.child(i);
  switch (alt.ctorName) {
    case 'Stmt_skip':
      return { kind: 'skip', span: s };
    case 'Stmt_write':
      return {
        kind: 'write',
        array: name(c(0)),
        index: indices(c(1)),
        value: exp(c(3)),
        target: { start: c(0).source.startIdx, end: c(1).source.endIdx },
        span: s,
      };
    case 'Stmt_read': {
      const access = c(3);
      return {
        kind: 'read',
        local: name(c(1)),
        array: name(access.child(0)),
        index: indices(access.child(1)),
        source: span(access),
        body: stmt(c(5)),
        span: s,
      };
    }
    case 'Stmt_let':
      return { kind: 'let', local: name(c(1)), value: exp(c(3)), body: stmt(c(5)), span: s };
    case 'Stmt_if': {
      const elseBlock = iterChildren(c(4))[0];
      return { kind: 'if', cond: bexp(c(1)), then: block(c(2).child(1)), else: elseBlock ? block(elseBlock.child(1)) : null, span: s };
    }
    case 'Stmt_up':
    case 'Stmt_down': {
      const stepNode = iterChildren(c(6))[0];
      const step = stepNode
        ? { op: stepNode.child(1).sourceString as '+' | '*' | '-' | '/', amount: exp(stepNode.child(2)) }
        : null;
      return {
        kind: 'for',
        var: name(c(1)),
        from: exp(c(3)),
        to: exp(c(5)),
        direction: alt.ctorName === 'Stmt_up' ? 'up' : 'down',
        step,
        body: block(c(7).child(1)),
        span: s,
      };
    }
    case 'Stmt_sync':
      return { kind: 'sync', span: s };
    case 'Stmt_assume':
      return { kind: 'assume', cond: bexp(c(1)), span: s };
    default:
      throw new Error(`parser: unexpected statement node ${alt.ctorName}`);
  }
}

function bexp(node: Node): BExpr {
  const s = span(node);
  switch (node.ctorName) {
    case 'BExp':
      return leftFolded(node, bexp, (left, _op, right, at) => ({ kind: 'or', left, right, span: at }));
    case 'BAnd':
      return leftFolded(node, bexp, (left, _op, right, at) => ({ kind: 'and', left, right, span: at }));
    case 'BNot':
    case 'BAtom':
      return bexp(node.child(0));
    case 'BNot_not':
      return { kind: 'not', operand: bexp(node.child(1)), span: s };
    case 'BAtom_cmp': {
      const op = node.child(1).sourceString;
      return { kind: 'cmp', op: (op === '=' ? '==' : op) as CmpOp, left: exp(node.child(0)), right: exp(node.child(2)), span: s };
    }
    case 'BAtom_paren':
      return bexp(node.child(1));
    case 'BAtom_true':
      return { kind: 'bool', value: true, span: s };
    case 'BAtom_false':
      return { kind: 'bool', value: false, span: s };
    default:
      throw new Error(`parser: unexpected condition node ${node.ctorName}`);
  }
}

/**
 * A level of operators, `First (Op Next)*`, as the left-nested tree C's
 * left associativity gives: each node spans from the first operand to its
 * right operand, parentheses included.
 */
function leftFolded<T extends { readonly span: Span }>(node: Node, operand: (n: Node) => T, combine: (left: T, op: string, right: T, at: Span) => T): T {
  const [first, ops, rest] = node.children as [Node, Node, Node];
  let tree = operand(first);
  ops.children.forEach((op, i) => {
    // the operands' own spans leave out parentheses around them; the tree's do not
    const right = rest.child(i);
    tree = combine(tree, op.sourceString, operand(right), { start: first.source.startIdx, end: right.source.endIdx });
  });
  return tree;
}

function exp(node: Node): Expr {
  const s = span(node);
  switch (node.ctorName) {
    case 'BitOr':
    case 'BitXor':
    case 'BitAnd':
    case 'Shift':
    case 'Add':
    case 'Mul':
      return leftFolded(node, exp, (left, op, right, at) => ({ kind: 'binary', op: op as ArithOp, left, right, span: at }));
    case 'Exp':
    case 'Prim':
      return exp(node.child(0));
    case 'Prim_paren':
      return exp(node.child(1));
    case 'builtin':
      return exp(node.child(0));
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
