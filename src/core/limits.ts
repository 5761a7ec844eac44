/**
 * How deep and how large a kernel is for the stages after the front end.
 * Each of them (names, MAP inference, phases, encoding, the interpreter,
 * reports) walks the IR recursively, and MAP inference replaces a pure
 * `let`'s name by its value: a kernel past these limits would exhaust the
 * stack somewhere down the pipeline, or make an expression exponentially
 * large (`let y = x + x in let z = y + y in …`). A front end checks them
 * once, with loops over explicit stacks, before anything else walks the IR.
 * The stages were measured to cope with twice these limits.
 */
import { isExpr, type BExpr, type Expr, type Kernel, type Stmt } from './ast.js';
import { operandsOf } from './exprs.js';
import type { Span } from './source.js';
import { assertNever } from '../util/assert.js';

/**
 * Nesting: each statement in the body of a `let`, read, `if` or `for` is one
 * level deeper than it, each operand one level deeper than its operator, and
 * a name bound by `let` is as deep as its value.
 */
export const MAX_DEPTH = 1024;
/** Operators and operands of all the kernel's expressions once the names bound by `let` are replaced by their values. */
export const MAX_INLINED_SIZE = 1_000_000;

export type Excess =
  | { readonly kind: 'depth'; readonly depth: number; readonly span: Span }
  | { readonly kind: 'size'; readonly size: number; readonly span: Span };

interface Extent {
  readonly depth: number;
  readonly size: number;
}

const LEAF: Extent = { depth: 1, size: 1 };

type Node = { readonly expr: Expr } | { readonly cond: BExpr };

function childrenOf(n: Node): Node[] {
  return operandsOf('expr' in n ? n.expr : n.cond).map((c) => (isExpr(c) ? { expr: c } : { cond: c }));
}

/** Depth and size of an expression with each let-bound name counted as its value, without recursion. */
function extentOf(root: Node, lets: ReadonlyMap<string, Extent>): Extent {
  const stack: { node: Node; expanded: boolean }[] = [{ node: root, expanded: false }];
  const done: Extent[] = [];
  // Lowering shares subterms (an expression is a DAG): walked as a tree, 50
  // unary minuses in a row took exponential time (a fuzz mutant that never
  // answered). Each shared subterm is measured once, counted at each use.
  const known = new Map<Expr | BExpr, Extent>();
  const keyOf = (n: Node): Expr | BExpr => ('expr' in n ? n.expr : n.cond);
  while (stack.length > 0) {
    const top = stack.pop()!;
    const seen = top.expanded ? undefined : known.get(keyOf(top.node));
    if (seen !== undefined) {
      done.push(seen);
      continue;
    }
    const children = childrenOf(top.node);
    if (children.length === 0) {
      done.push('expr' in top.node && top.node.expr.kind === 'var' ? (lets.get(top.node.expr.name) ?? LEAF) : LEAF);
    } else if (!top.expanded) {
      stack.push({ node: top.node, expanded: true });
      for (const child of children) stack.push({ node: child, expanded: false });
    } else {
      let depth = 0;
      let size = 1;
      for (let i = 0; i < children.length; i++) {
        const child = done.pop()!;
        depth = Math.max(depth, child.depth);
        size += child.size;
      }
      const extent = { depth: depth + 1, size };
      known.set(keyOf(top.node), extent);
      done.push(extent);
    }
  }
  return done[0]!;
}

/** The first place, in the order MAP inference meets them, where the kernel goes past a limit; null if none does. */
export function kernelExcess(kernel: Kernel): Excess | null {
  // Names a let binds, as inference scopes them: to the end of the enclosing
  // block; undone through a log rather than copying the map at each block.
  const lets = new Map<string, Extent>();
  const log: { name: string; before: Extent | undefined }[] = [];
  const bind = (name: string, extent: Extent | undefined): void => {
    log.push({ name, before: lets.get(name) });
    if (extent === undefined) lets.delete(name);
    else lets.set(name, extent);
  };
  let total = 0;
  const measure = (node: Node, depth: number): Excess | Extent => {
    const extent = extentOf(node, lets);
    const span = 'expr' in node ? node.expr.span : node.cond.span;
    total += extent.size;
    if (depth + extent.depth > MAX_DEPTH) return { kind: 'depth', depth: depth + extent.depth, span };
    if (total > MAX_INLINED_SIZE) return { kind: 'size', size: total, span };
    return extent;
  };
  /** The first excess among expressions and conditions at one depth. */
  const within = (nodes: readonly (Node | null)[], depth: number): Excess | null => {
    for (const node of nodes) {
      const m = node === null ? null : measure(node, depth);
      if (m !== null && 'kind' in m) return m;
    }
    return null;
  };
  const expr = (e: Expr | null): Node | null => (e === null ? null : { expr: e });

  type Work = { readonly stmt: Stmt; readonly depth: number } | { readonly undoTo: number };
  const work: Work[] = [];
  const pushBlock = (stmts: readonly Stmt[], depth: number): void => {
    work.push({ undoTo: log.length });
    for (let i = stmts.length - 1; i >= 0; i--) work.push({ stmt: stmts[i]!, depth });
  };

  const header = [
    ...kernel.requires.map((cond) => ({ cond })),
    ...(kernel.launch === null ? [] : [kernel.launch.grid, kernel.launch.block].flatMap((d) => [d.x, d.y, d.z].map(expr))),
    ...kernel.arrays.flatMap((a) => a.sizes.map(expr)),
  ];
  const inHeader = within(header, 1);
  if (inHeader !== null) return inHeader;

  pushBlock(kernel.body, 1);
  while (work.length > 0) {
    const item = work.pop()!;
    if ('undoTo' in item) {
      while (log.length > item.undoTo) {
        const { name, before } = log.pop()!;
        if (before === undefined) lets.delete(name);
        else lets.set(name, before);
      }
      continue;
    }
    const { stmt: s, depth } = item;
    if (depth > MAX_DEPTH) return { kind: 'depth', depth, span: s.span };
    let excess: Excess | null = null;
    switch (s.kind) {
      case 'skip':
      case 'sync':
      case 'syncwarp':
        break;
      case 'write':
        excess = within([...s.index, s.value].map(expr), depth);
        break;
      case 'read':
        excess = within(s.index.map(expr), depth);
        bind(s.local.text, undefined);
        work.push({ stmt: s.body, depth: depth + 1 });
        break;
      case 'atomic':
        excess = within([...s.index, ...s.operands].map(expr), depth);
        if (s.local !== null) bind(s.local.text, undefined);
        work.push({ stmt: s.body, depth: depth + 1 });
        break;
      case 'let': {
        const m = measure({ expr: s.value }, depth);
        if ('kind' in m) return m;
        bind(s.local.text, m);
        work.push({ stmt: s.body, depth: depth + 1 });
        break;
      }
      case 'if':
        excess = within([{ cond: s.cond }], depth);
        if (s.else !== null) pushBlock(s.else, depth + 1);
        pushBlock(s.then, depth + 1);
        break;
      case 'for':
        excess = within([s.from, s.to, s.step?.amount ?? null].map(expr), depth);
        // the loop variable is bound for the body only
        work.push({ undoTo: log.length });
        bind(s.var.text, undefined);
        pushBlock(s.body, depth + 1);
        break;
      case 'assume':
        excess = within([{ cond: s.cond }], depth);
        break;
      case 'havoc':
        bind(s.local.text, undefined);
        work.push({ stmt: s.body, depth: depth + 1 });
        break;
      default:
        return assertNever(s);
    }
    if (excess !== null) return excess;
  }
  return null;
}
