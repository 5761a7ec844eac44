/**
 * Parser: Ohm grammar (grammar/babycuda.ohm) → AST. The grammar is Ohm's
 * generated bundle (`npm run grammar`, part of the build): loading it costs
 * no grammar compilation and no file read, so the parser runs wherever
 * JavaScript does. Each AST category is one typed semantic operation, whose
 * actions Ohm checks against the grammar's rules and arities.
 */
import type { FailedMatchResult, IterationNode, Node, NonterminalNode } from 'ohm-js';
import grammar, { type BabyCUDAActionDict, type BabyCUDASemantics } from '../../../grammar/babycuda.ohm-bundle.js';
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
  Step,
  UpStep,
  DownStep,
  Stmt,
} from '../../core/ast.js';
import { sourceFile, type SourceFile, type Span } from '../../core/source.js';
import { DiagnosticError, error } from '../../diagnostics/diagnostic.js';

export function parseProgram(path: string, text: string): Program {
  const file = sourceFile(path, text);
  const match = grammar.match(text);
  if (match.failed()) throw new DiagnosticError([syntaxError(file, match)]);
  const kernels: Kernel[] = astSemantics()(match)['kernels']();
  return { file, kernels };
}

function syntaxError(file: SourceFile, match: FailedMatchResult): ReturnType<typeof error> {
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

/** The operations below, applied to a child node (Ohm types their results as `any`). */
const kernel = (n: Node): Kernel => n['kernel']();
const stmts = (n: Node): Stmt[] => n['stmts']();
const stmt = (n: Node): Stmt => n['stmt']();
const bexp = (n: Node): BExpr => n['bexp']();
const exp = (n: Node): Expr => n['exp']();
const name = (n: Node): Name => n['name']();
const dim = (n: Node): Dim3 => n['dim']();
const launch = (n: Node): Launch => n['launch']();
const arrays = (n: Node): ArrayDecl[] => n['arrays']();
const arrayDecl = (n: Node): Omit<ArrayDecl, 'scope'> => n['arrayDecl']();
const step = (n: Node): Step => n['step']();

/** The child of an optional `X?`, if present. */
function optional(iter: IterationNode): Node | undefined {
  return iter.children[0];
}

/**
 * A level of operators, `First (Op Next)*`, as the left-nested tree C's
 * left associativity gives: each node spans from the first operand to its
 * right operand, parentheses included.
 */
function leftFolded<T>(first: Node, ops: IterationNode, rest: IterationNode, operand: (n: Node) => T, combine: (left: T, op: string, right: T, at: Span) => T): T {
  let tree = operand(first);
  ops.children.forEach((op, i) => {
    // the operands' own spans leave out parentheses around them; the tree's do not
    const right = rest.child(i);
    tree = combine(tree, op.sourceString, operand(right), { start: first.source.startIdx, end: right.source.endIdx });
  });
  return tree;
}

type Level = (this: NonterminalNode, first: NonterminalNode, ops: IterationNode, rest: IterationNode) => Expr;

const arithmetic: Level = function (first, ops, rest) {
  return leftFolded(first, ops, rest, exp, (left, op, right, at) => ({ kind: 'binary', op: op as ArithOp, left, right, span: at }));
};

// Rules with one child and no action of their own (Exp, Prim, Stmt, BNot, …) pass the operation to that child.
const programActions: BabyCUDAActionDict<Kernel[]> = {
  Program(ks) {
    return ks.children.map(kernel);
  },
};

const kernelActions: BabyCUDAActionDict<Kernel> = {
  Kernel(_kw, id, _open, params, _close, launchOpt, requires, _lbrace, decls, body, _rbrace) {
    const launchNode = optional(launchOpt);
    return {
      name: name(id),
      params: params.asIteration().children.map(name),
      launch: launchNode ? launch(launchNode) : null,
      requires: requires.children.map(bexp),
      arrays: decls.children.flatMap(arrays),
      body: stmts(body),
      span: span(this),
    };
  },
};

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
  Body(list, _semi) {
    return list.asIteration().children.map(stmt);
  },
  Block(_open, body, _close) {
    return stmts(body);
  },
};

const stmtActions: BabyCUDAActionDict<Stmt> = {
  Stmt_skip(_kw) {
    return { kind: 'skip', span: span(this) };
  },
  Stmt_write(array, index, _assign, value) {
    return { kind: 'write', array: name(array), index: index.children.map(exp), value: exp(value), target: { start: array.source.startIdx, end: index.source.endIdx }, span: span(this) };
  },
  Stmt_read(_let, local, _eq, access, _in, body) {
    const [array, index] = access.children as [Node, IterationNode];
    return { kind: 'read', local: name(local), array: name(array), index: index.children.map(exp), source: span(access), body: stmt(body), span: span(this) };
  },
  Stmt_let(_let, local, _eq, value, _in, body) {
    return { kind: 'let', local: name(local), value: exp(value), body: stmt(body), span: span(this) };
  },
  Stmt_if(_if, cond, then, _else, elseBlock) {
    const otherwise = optional(elseBlock);
    return { kind: 'if', cond: bexp(cond), then: stmts(then), else: otherwise ? stmts(otherwise) : null, span: span(this) };
  },
  Stmt_up(_for, v, _in, from, _dots, to, stepOpt, body) {
    return loop(this, 'up', v, from, to, stepOpt, body);
  },
  Stmt_down(_for, v, _in, from, _downto, to, stepOpt, body) {
    return loop(this, 'down', v, from, to, stepOpt, body);
  },
  Stmt_sync(_kw) {
    return { kind: 'sync', span: span(this) };
  },
  Stmt_assume(_kw, cond) {
    return { kind: 'assume', cond: bexp(cond), span: span(this) };
  },
};

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
    return leftFolded(first, ops, rest, bexp, (left, _op, right, at) => ({ kind: 'or', left, right, span: at }));
  },
  BAnd(first, ops, rest) {
    return leftFolded(first, ops, rest, bexp, (left, _op, right, at) => ({ kind: 'and', left, right, span: at }));
  },
  BNot_not(_bang, operand) {
    return { kind: 'not', operand: bexp(operand), span: span(this) };
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
  BitOr: arithmetic,
  BitXor: arithmetic,
  BitAnd: arithmetic,
  Shift: arithmetic,
  Add: arithmetic,
  Mul: arithmetic,
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
    .addOperation('step', stepActions)
    .addOperation('bexp', bexpActions)
    .addOperation('exp', expActions)
    .addOperation('name', nameActions);
  return cachedSemantics;
}
