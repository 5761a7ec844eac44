/**
 * Random BabyCUDA kernels for the differential properties.
 *
 * The generator builds a shape (statements, expressions, variable references
 * as plain numbers) and prints it as source text; names are resolved only
 * when printing. So every shape fast-check shrinks to is still a valid kernel:
 * a reference picks among the variables in scope at that point (or becomes a
 * constant), a barrier at a point that is not uniform becomes `skip` unless
 * non-uniform barriers are wanted, and counterexamples read as source.
 */
import fc from 'fast-check';
import { ATOMIC_OPS, type AtomicOp } from '../../src/core/ast.js';

export interface GenConfig {
  /** values read may flow into indices, conditions and loop bounds (ill-typed kernels) */
  readonly dataFlow: boolean;
  /**
   * where `assume` may appear: nowhere, at the top level, or anywhere (every
   * depth, and right before barriers); a top-level one may mention the thread
   */
  readonly assumes: 'none' | 'top' | 'any';
  /** barriers may sit under conditions and loops that depend on the thread */
  readonly nonUniformSync: boolean;
  /** atomics among the statements (absent: yes) */
  readonly atomics?: boolean;
  /** `syncwarp` among the statements (absent: no, so that the kernels of a seed stay those it always gave) */
  readonly syncwarp?: boolean;
  /** lockstep warps (absent: none; see {@link Warps}) */
  readonly warps?: Warps;
}

/**
 * Which kernels are checked with lockstep warps: `some`, a warp size drawn
 * for about half of them; `every`, one for each (never 1, which orders
 * nothing). Either way the statements include the shapes lockstep orders or
 * does not (see {@link lockstepItem}), with `every` twice as often.
 */
export type Warps = 'some' | 'every';

type BinOp = '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^' | '<<' | '>>';
type CmpOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
type Axis = 'x' | 'y';

export type GExpr =
  | { readonly k: 'const'; readonly v: number }
  | { readonly k: 'ref'; readonly n: number }
  /** the innermost loop variable around (a constant where there is none) */
  | { readonly k: 'loopvar' }
  | { readonly k: 'builtin'; readonly name: 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim'; readonly axis: Axis }
  | { readonly k: 'bin'; readonly op: BinOp; readonly a: GExpr; readonly b: GExpr };

export type GCond =
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly a: GExpr; readonly b: GExpr }
  /** the innermost loop variable around it against a constant: uniform when that loop is (a condition around barriers) */
  | { readonly k: 'loopvar'; readonly op: CmpOp; readonly v: number }
  | { readonly k: 'and' | 'or'; readonly a: GCond; readonly b: GCond }
  | { readonly k: 'not'; readonly a: GCond };

/**
 * `down0` and `down0-` count down to 0 (the commonest downward loop); `shift`
 * and `shift-down` run a constant number of iterations from a start that may
 * depend on the thread (uniform trip count, thread-dependent values).
 */
export type LoopForm = 'up' | 'up+' | 'up*' | 'down' | 'down-' | 'down/' | 'down0' | 'down0-' | 'shift' | 'shift-down';

export type GStmt =
  | { readonly k: 'write'; readonly arr: number; readonly idx: readonly GExpr[]; readonly val: GExpr }
  | { readonly k: 'read'; readonly arr: number; readonly idx: readonly GExpr[] }
  /** `bind`: `let o = atomic op(…) in` (the old value a data-dependent variable), else the statement form */
  | { readonly k: 'atomic'; readonly op: AtomicOp; readonly arr: number; readonly idx: readonly GExpr[]; readonly vals: readonly GExpr[]; readonly bind: boolean }
  | { readonly k: 'let'; readonly val: GExpr }
  | { readonly k: 'if'; readonly cond: GCond; readonly then: readonly GStmt[]; readonly else: readonly GStmt[] | null }
  | { readonly k: 'for'; readonly form: LoopForm; readonly from: GExpr; readonly to: GExpr; readonly step: number; readonly body: readonly GStmt[] }
  | { readonly k: 'sync' }
  | { readonly k: 'syncwarp' }
  | { readonly k: 'assume'; readonly cond: GCond }
  /** `assume c; sync` */
  | { readonly k: 'assume-sync'; readonly cond: GCond };

export interface GArray {
  readonly scope: 'shared' | 'global';
  readonly dims: 1 | 2 | 3;
  /** print declared sizes (which only the interpreter's initial contents use) */
  readonly sized: boolean;
}

export interface GKernel {
  readonly params: number;
  readonly requires: readonly GCond[];
  readonly arrays: readonly GArray[];
  readonly body: readonly GStmt[];
}

/**
 * A generated kernel: its shape, its source text and the warp size it is
 * checked with (null: independent threads), which fast-check shows for a
 * counterexample.
 */
export class Generated {
  constructor(
    readonly shape: GKernel,
    readonly source: string,
    readonly config: GenConfig,
    readonly warpSize: number | null = null,
  ) {}

  toString(): string {
    return `\n${warpSizeNote(this.warpSize)}${this.source}`;
  }

  [fc.toStringMethod](): string {
    return this.toString();
  }
}

/** How a counterexample says the warp size it was checked with: a comment line above the kernel. */
export function warpSizeNote(warpSize: number | null): string {
  return warpSize === null ? '' : `// checked with --warp-size ${warpSize}\n`;
}

// ---------------------------------------------------------------------------
// Arbitraries

/**
 * The warp size of a kernel. The launches have blocks of 1 to 4 threads (and
 * 2×2): a size of 2 makes blocks of several warps of several threads, 3 does
 * not divide most blocks (a last warp short of threads), 4 and 32 make one
 * warp of the whole block, and 1 makes every thread a warp of its own
 * (lockstep that orders nothing). None (independent threads) comes first, so
 * that shrinking tries it first. Drawn last in a kernel, and only when asked:
 * the kernels of a seed without warps stay those it always gave.
 */
export function warpSizeArbitrary(warps: Warps | undefined): fc.Arbitrary<number | null> {
  if (warps === undefined) return fc.constant(null);
  const sizes = [
    { weight: 3, arbitrary: fc.constant(2) },
    { weight: 2, arbitrary: fc.constant(4) },
    { weight: 1, arbitrary: fc.constant(3) },
    { weight: 1, arbitrary: fc.constant(32) },
  ];
  if (warps === 'every') return fc.oneof(...sizes);
  return fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, ...sizes, { weight: 1, arbitrary: fc.constant(1) });
}

/** A block's statements, with lockstep shapes among them when warps are asked for. */
export function statementList<S>(stmt: fc.Arbitrary<S>, lockstep: fc.Arbitrary<S[]>, warps: Warps | undefined, size: fc.ArrayConstraints): fc.Arbitrary<S[]> {
  if (warps === undefined) return fc.array(stmt, size);
  const items = fc.oneof({ weight: warps === 'every' ? 2 : 4, arbitrary: stmt.map((s) => [s]) }, { weight: 1, arbitrary: lockstep });
  return fc.array(items, size).map((xs) => xs.flat());
}

const smallConst = fc.integer({ min: 0, max: 4 }).map((v): GExpr => ({ k: 'const', v }));
/** around the verifier's input bound 2^32 and past it, where truncation and overflow bugs hide */
const HUGE = [2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 1, 2 ** 40, Number.MAX_SAFE_INTEGER];
const hugeConst = fc.constantFrom(...HUGE).map((v): GExpr => ({ k: 'const', v }));
const ref = fc.nat({ max: 30 }).map((n): GExpr => ({ k: 'ref', n }));
const builtin = fc
  .record({
    name: fc.constantFrom('threadIdx', 'threadIdx', 'threadIdx', 'blockIdx', 'blockDim', 'gridDim') as fc.Arbitrary<'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim'>,
    axis: fc.constantFrom<Axis>('x', 'x', 'x', 'y'),
  })
  .map((b): GExpr => ({ k: 'builtin', ...b }));
const binOp = fc.constantFrom<BinOp>('+', '+', '-', '*', '/', '%', '&', '|', '^', '<<', '>>');

const leaf: fc.Arbitrary<GExpr> = fc.oneof(
  { weight: 4, arbitrary: smallConst },
  { weight: 8, arbitrary: ref },
  { weight: 4, arbitrary: builtin },
  { weight: 1, arbitrary: hugeConst },
);

/** Expressions up to two operators deep; the right side of a shift is a small constant (values stay small). */
const expr: fc.Arbitrary<GExpr> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  {
    weight: 2,
    arbitrary: fc.tuple(binOp, leaf, leaf).map(([op, a, b]): GExpr => ({ k: 'bin', op, a, b: op === '<<' || op === '>>' ? shiftAmount(b) : b })),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(binOp, fc.tuple(binOp, leaf, leaf), leaf).map(([op, [op2, a, b], c]): GExpr => ({
      k: 'bin',
      op,
      a: { k: 'bin', op: op2, a, b: op2 === '<<' || op2 === '>>' ? shiftAmount(b) : b },
      b: op === '<<' || op === '>>' ? shiftAmount(c) : c,
    })),
  },
);

function shiftAmount(e: GExpr): GExpr {
  return { k: 'const', v: e.k === 'const' ? e.v % 3 : 1 };
}

/** Loop bounds: a constant, a variable, or a variable plus a constant. */
const bound: fc.Arbitrary<GExpr> = fc.oneof(
  smallConst,
  ref,
  builtin,
  fc.tuple(ref, smallConst).map(([a, b]): GExpr => ({ k: 'bin', op: '+', a, b })),
);

const cmpOp = fc.constantFrom<CmpOp>('==', '!=', '<', '<=', '>', '>=');
const atom: fc.Arbitrary<GCond> = fc.tuple(cmpOp, expr, expr).map(([op, a, b]): GCond => ({ k: 'cmp', op, a, b }));
const loopVarCond: fc.Arbitrary<GCond> = fc.tuple(cmpOp, fc.integer({ min: 0, max: 3 })).map(([op, v]): GCond => ({ k: 'loopvar', op, v }));
const cond: fc.Arbitrary<GCond> = fc.oneof(
  { weight: 4, arbitrary: atom },
  { weight: 1, arbitrary: loopVarCond },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), atom, atom).map(([k, a, b]): GCond => ({ k, a, b })) },
  { weight: 1, arbitrary: atom.map((a): GCond => ({ k: 'not', a })) },
);

const index = fc.array(expr, { minLength: 3, maxLength: 3 });
const arrayRef = fc.nat({ max: 3 });

// ---------------------------------------------------------------------------
// Shapes for lockstep warps

const TID: GExpr = { k: 'builtin', name: 'threadIdx', axis: 'x' };
const LOOPVAR: GExpr = { k: 'loopvar' };
const num = (v: number): GExpr => ({ k: 'const', v });
const bin = (op: BinOp, a: GExpr, b: GExpr): GExpr => ({ k: 'bin', op, a, b });

/**
 * Indices at which threads of one warp meet: a thread's own element, its
 * neighbour's, one element per pair of threads, one element for all; moved
 * by the loop variable around, if any.
 */
const warpIndexBase = fc.constantFrom<GExpr>(TID, bin('+', TID, num(1)), bin('+', TID, num(2)), bin('-', TID, num(1)), bin('/', TID, num(2)), bin('^', TID, num(1)), num(0), num(1));
const warpIndex = fc.oneof({ weight: 3, arbitrary: warpIndexBase }, { weight: 1, arbitrary: warpIndexBase.map((e) => bin('+', e, LOOPVAR)) });
/** A constant (writes of it are benign among themselves), the thread's id, or the value last bound (a read's, when one comes first). */
const warpValue = fc.constantFrom<GExpr>(num(1), TID, { k: 'ref', n: 0 }, bin('+', { k: 'ref', n: 0 }, num(1)));
/** Conditions that split a warp: even and odd threads, the first one or two, those below the loop variable (a reduction's step). */
const warpCond = fc.constantFrom<GCond>(
  { k: 'cmp', op: '==', a: bin('%', TID, num(2)), b: num(0) },
  { k: 'cmp', op: '<', a: TID, b: num(1) },
  { k: 'cmp', op: '<', a: TID, b: num(2) },
  { k: 'cmp', op: '<', a: TID, b: LOOPVAR },
);

interface WarpAccess {
  readonly write: boolean;
  readonly idx: GExpr;
  readonly val: GExpr;
}

const warpAccess: fc.Arbitrary<WarpAccess> = fc.record({ write: fc.boolean(), idx: warpIndex, val: warpValue });

type WarpShape =
  /** two accesses in sequence: ordered within a warp, unless one statement */
  | { readonly s: 'pair'; readonly a: WarpAccess; readonly b: WarpAccess }
  /** one write, the same statement instance in every thread of the warp */
  | { readonly s: 'one'; readonly a: WarpAccess }
  /** the two sides of a thread-dependent `if`: unordered within a warp */
  | { readonly s: 'split'; readonly cond: GCond; readonly a: WarpAccess; readonly b: WarpAccess }
  /** two accesses in sequence under a thread-dependent `if` (a reduction's step) */
  | { readonly s: 'guard'; readonly cond: GCond; readonly a: WarpAccess; readonly b: WarpAccess };

const warpShape: fc.Arbitrary<WarpShape> = fc.oneof(
  fc.record({ a: warpAccess, b: warpAccess }).map((x): WarpShape => ({ s: 'pair', ...x })),
  warpAccess.map((a): WarpShape => ({ s: 'one', a: { ...a, write: true } })),
  // both sides at one index half the time: threads on the two sides meet where it maps several threads to one element
  {
    weight: 2,
    arbitrary: fc.record({ cond: warpCond, a: warpAccess, b: warpAccess, sameIndex: fc.boolean() }).map(({ sameIndex, ...x }): WarpShape => ({ s: 'split', ...x, b: sameIndex ? { ...x.b, idx: x.a.idx } : x.b })),
  },
  fc.record({ cond: warpCond, a: warpAccess, b: warpAccess }).map((x): WarpShape => ({ s: 'guard', ...x })),
);

/**
 * Statements in the shapes whose verdicts lockstep decides (src/map/lockstep.ts):
 * accesses of one array by threads that meet at an element, in sequence, in
 * one statement, on the two sides of a thread-dependent `if`, and in loops
 * of a few iterations around them (up, or down to 0 as a reduction runs).
 */
const lockstepItem: fc.Arbitrary<GStmt[]> = fc
  .record({
    arr: arrayRef,
    shape: warpShape,
    loop: fc.option(fc.record({ down: fc.boolean(), iterations: fc.integer({ min: 1, max: 3 }) }), { nil: null }),
  })
  .map(({ arr, shape, loop }) => {
    const access = (a: WarpAccess): GStmt => {
      const idx = [a.idx, num(0), num(0)];
      return a.write ? { k: 'write', arr, idx, val: a.val } : { k: 'read', arr, idx };
    };
    const body: GStmt[] = ((): GStmt[] => {
      switch (shape.s) {
        case 'pair':
          return [access(shape.a), access(shape.b)];
        case 'one':
          return [access(shape.a)];
        case 'split':
          return [{ k: 'if', cond: shape.cond, then: [access(shape.a)], else: [access(shape.b)] }];
        case 'guard':
          return [{ k: 'if', cond: shape.cond, then: [access(shape.a), access(shape.b)], else: null }];
      }
    })();
    if (loop === null) return body;
    const n = num(loop.iterations - (loop.down ? 1 : 0));
    return [loop.down ? { k: 'for', form: 'down0', from: n, to: num(0), step: 1, body } : { k: 'for', form: 'up', from: num(0), to: n, step: 1, body }];
  });

function stmts(config: GenConfig, depth: number): fc.Arbitrary<GStmt[]> {
  const simple: fc.WeightedArbitrary<GStmt>[] = [
    { weight: 3, arbitrary: fc.record({ arr: arrayRef, idx: index, val: expr }).map((s): GStmt => ({ k: 'write', ...s })) },
    // writes of one constant: races between them are benign
    { weight: 1, arbitrary: fc.record({ arr: arrayRef, idx: index }).map((s): GStmt => ({ k: 'write', ...s, val: { k: 'const', v: 1 } })) },
    { weight: 2, arbitrary: fc.record({ arr: arrayRef, idx: index }).map((s): GStmt => ({ k: 'read', ...s })) },
    {
      weight: config.atomics === false ? 0 : 1,
      arbitrary: fc
        .record({ op: fc.constantFrom(...ATOMIC_OPS), arr: arrayRef, idx: index, vals: fc.array(expr, { minLength: 2, maxLength: 2 }), bind: fc.boolean() })
        .map((s): GStmt => ({ k: 'atomic', ...s })),
    },
    { weight: 2, arbitrary: expr.map((val): GStmt => ({ k: 'let', val })) },
    { weight: 2, arbitrary: fc.constant<GStmt>({ k: 'sync' }) },
  ];
  if (config.syncwarp === true) simple.push({ weight: 2, arbitrary: fc.constant<GStmt>({ k: 'syncwarp' }) });
  if (config.assumes === 'any') {
    // rarer than the others: each one that some thread fails takes launches out of the comparison
    simple.push({ weight: 1, arbitrary: cond.map((c): GStmt => ({ k: 'assume', cond: c })) });
    simple.push({ weight: 1, arbitrary: cond.map((c): GStmt => ({ k: 'assume-sync', cond: c })) });
  }
  const stmt: fc.Arbitrary<GStmt> =
    depth <= 0
      ? fc.oneof(...simple)
      : fc.oneof(
          { weight: 6, arbitrary: fc.oneof(...simple) },
          {
            weight: 2,
            arbitrary: fc
              .record({ cond, then: stmts(config, depth - 1), else: fc.option(stmts(config, depth - 1), { nil: null }) })
              .map((s): GStmt => ({ k: 'if', ...s })),
          },
          {
            weight: 2,
            arbitrary: fc
              .record({
                form: fc.constantFrom<LoopForm>('up', 'up', 'up+', 'up*', 'down', 'down-', 'down/', 'down0', 'down0-', 'shift', 'shift-down'),
                from: bound,
                to: bound,
                step: fc.integer({ min: 1, max: 3 }),
                body: stmts(config, depth - 1),
              })
              .map((s): GStmt => ({ k: 'for', ...s })),
          },
        );
  return statementList(stmt, lockstepItem, config.warps, { minLength: 1, maxLength: depth >= 2 ? 5 : 3 });
}

export function kernelArbitrary(config: GenConfig): fc.Arbitrary<Generated> {
  const array = fc.record({
    scope: fc.constantFrom<'shared' | 'global'>('shared', 'global'),
    dims: fc.constantFrom<1 | 2 | 3>(1, 1, 1, 2, 3),
    sized: fc.boolean(),
  });
  const requires = fc.array(
    fc.tuple(fc.nat({ max: 3 }), fc.constantFrom<CmpOp>('<', '<=', '>', '>=', '!='), fc.integer({ min: 0, max: 3 })).map(
      ([p, op, v]): GCond => ({ k: 'cmp', op, a: { k: 'ref', n: p }, b: { k: 'const', v } }),
    ),
    { maxLength: 1 },
  );
  // a top-level assumption over parameters only, or one that may mention the thread (`tid < N`, `tid + 1 < blockDim.x`)
  const topCond = fc.oneof(cond.map(paramsOnly), cond);
  const top = config.assumes === 'none' ? fc.constant<GCond[]>([]) : fc.array(topCond, { maxLength: 1 });
  return fc
    .record({
      params: fc.integer({ min: 0, max: 2 }),
      requires,
      arrays: fc.array(array, { minLength: 1, maxLength: 3 }),
      assumes: top,
      body: stmts(config, 2),
      warpSize: warpSizeArbitrary(config.warps),
    })
    .map(({ assumes, warpSize, ...k }) => {
      const shape: GKernel = { ...k, body: [...assumes.map((c): GStmt => ({ k: 'assume', cond: c })), ...k.body] };
      return new Generated(shape, printKernel(shape, config), config, warpSize);
    });
}

function paramsOnly(c: GCond): GCond {
  const e = (x: GExpr): GExpr => (x.k === 'builtin' ? { k: 'const', v: 1 } : x.k === 'bin' ? { ...x, a: e(x.a), b: e(x.b) } : x);
  switch (c.k) {
    case 'cmp':
      return { ...c, a: e(c.a), b: e(c.b) };
    case 'loopvar':
      return c;
    case 'and':
    case 'or':
      return { ...c, a: paramsOnly(c.a), b: paramsOnly(c.b) };
    case 'not':
      return { ...c, a: paramsOnly(c.a) };
  }
}

// ---------------------------------------------------------------------------
// Printing

interface Var {
  readonly name: string;
  /** the same in every thread of a block */
  readonly uniform: boolean;
  /** bound by a read */
  readonly data: boolean;
  /** may hold a value of 2^31 or more: never a loop bound (the interpreter would run it for ever) */
  readonly huge: boolean;
}

interface Ctx {
  readonly config: GenConfig;
  readonly arrays: readonly { readonly name: string; readonly dims: number }[];
  /** variables in scope, outermost first */
  readonly vars: Var[];
  /** the innermost loop variable around, if any */
  readonly loopVar: Var | null;
  /** every enclosing condition and loop bound is uniform */
  readonly uniform: boolean;
  readonly depth: number;
  readonly topLevel: boolean;
}

/**
 * What an expression is printed for: data may flow into `value`s always,
 * elsewhere only when the config allows; a loop `bound` and a value written
 * never hold a huge constant (written values are read back into bounds).
 */
type Place = 'value' | 'control' | 'bound';

interface PrintedCond {
  readonly text: string;
  readonly uniform: boolean;
}

interface Printed extends PrintedCond {
  readonly huge: boolean;
}

const HUGE_FROM = 2 ** 31;

function printExpr(e: GExpr, ctx: Ctx, place: Place): Printed {
  switch (e.k) {
    case 'const': {
      const huge = e.v >= HUGE_FROM;
      return huge && place !== 'control' ? { text: String(e.v % 5), uniform: true, huge: false } : { text: String(e.v), uniform: true, huge };
    }
    case 'ref': {
      const pool = ctx.vars.filter((v) => (!v.data || place === 'value' || ctx.config.dataFlow) && !(v.huge && place !== 'control'));
      if (pool.length === 0) return { text: String(e.n % 4), uniform: true, huge: false };
      const v = pool[pool.length - 1 - (e.n % pool.length)]!;
      return { text: v.name, uniform: v.uniform, huge: v.huge };
    }
    case 'loopvar': {
      const v = ctx.loopVar;
      return v === null || (v.data && place !== 'value' && !ctx.config.dataFlow) ? { text: '0', uniform: true, huge: false } : { text: v.name, uniform: v.uniform, huge: false };
    }
    case 'builtin': {
      const text = e.name === 'threadIdx' && e.axis === 'x' ? 'tid' : `${e.name}.${e.axis}`;
      return { text, uniform: e.name !== 'threadIdx', huge: false };
    }
    case 'bin': {
      const a = printExpr(e.a, ctx, place);
      const b = printExpr(e.b, ctx, place);
      return { text: `(${a.text} ${e.op} ${b.text})`, uniform: a.uniform && b.uniform, huge: a.huge || b.huge };
    }
  }
}

function printCond(c: GCond, ctx: Ctx): PrintedCond {
  switch (c.k) {
    case 'loopvar': {
      const v = ctx.loopVar !== null && (!ctx.loopVar.data || ctx.config.dataFlow) ? ctx.loopVar : null;
      return { text: `${v === null ? String(c.v) : v.name} ${c.op} ${c.v}`, uniform: v === null || v.uniform };
    }
    case 'cmp': {
      const a = printExpr(c.a, ctx, 'control');
      const b = printExpr(c.b, ctx, 'control');
      return { text: `${a.text} ${c.op} ${b.text}`, uniform: a.uniform && b.uniform };
    }
    case 'and':
    case 'or': {
      const a = printCond(c.a, ctx);
      const b = printCond(c.b, ctx);
      return { text: `(${a.text}) ${c.k === 'and' ? '&&' : '||'} (${b.text})`, uniform: a.uniform && b.uniform };
    }
    case 'not': {
      const a = printCond(c.a, ctx);
      return { text: `!(${a.text})`, uniform: a.uniform };
    }
  }
}

function pad(depth: number): string {
  return '  '.repeat(depth + 1);
}

/** The statements of one block; `let`s bind for the rest of the block, so a binder's body is the next statement. */
function printBlock(body: readonly GStmt[], ctx: Ctx): string[] {
  const mark = ctx.vars.length;
  const lines: string[] = [];
  let binders = 0;
  body.forEach((s, i) => {
    const last = i === body.length - 1;
    const p = pad(ctx.depth);
    switch (s.k) {
      case 'atomic': {
        const update = printAtomic(s, ctx);
        if (!s.bind) {
          lines.push(`${p}${update}${last ? '' : ';'}`);
          return;
        }
        const name = `o${ctx.depth}_${binders++}`;
        lines.push(`${p}let ${name} = ${update} in${last ? ' skip' : ''}`);
        ctx.vars.push({ name, uniform: false, data: true, huge: false });
        return;
      }
      case 'read':
      case 'let': {
        // names repeat across sibling blocks (binders must be distinct only among those in scope)
        const name = `${s.k === 'read' ? 'v' : 'a'}${ctx.depth}_${binders++}`;
        let value: Printed;
        if (s.k === 'read') {
          const arr = ctx.arrays[s.arr % ctx.arrays.length]!;
          const idx = s.idx.slice(0, arr.dims).map((e) => printExpr(e, ctx, 'control'));
          value = { text: `${arr.name}${idx.map((x) => `[${x.text}]`).join('')}`, uniform: false, huge: false };
        } else {
          value = printExpr(s.val, ctx, 'control');
        }
        lines.push(`${p}let ${name} = ${value.text} in${last ? ' skip' : ''}`);
        ctx.vars.push(s.k === 'read' ? { name, uniform: false, data: true, huge: false } : { name, uniform: value.uniform, data: isData(value.text, ctx), huge: value.huge });
        return;
      }
      default:
        lines.push(`${p}${printStmt(s, ctx)}${last ? '' : ';'}`);
    }
  });
  ctx.vars.length = mark;
  return lines;
}

/** `atomic op(A[i], v)`, `atomic cas(A[i], v, w)` */
function printAtomic(s: Extract<GStmt, { k: 'atomic' }>, ctx: Ctx): string {
  const arr = ctx.arrays[s.arr % ctx.arrays.length]!;
  const idx = s.idx.slice(0, arr.dims).map((e) => printExpr(e, ctx, 'control').text);
  const vals = s.vals.slice(0, s.op === 'cas' ? 2 : 1).map((e) => printExpr(e, ctx, 'value').text);
  return `atomic ${s.op}(${arr.name}${idx.map((x) => `[${x}]`).join('')}, ${vals.join(', ')})`;
}

/** A pure let is data-dependent when its value mentions a variable bound by a read. */
function isData(text: string, ctx: Ctx): boolean {
  return ctx.vars.some((v) => v.data && new RegExp(`\\b${v.name}\\b`).test(text));
}

function printStmt(s: Exclude<GStmt, { k: 'read' | 'let' | 'atomic' }>, ctx: Ctx): string {
  const p = pad(ctx.depth);
  switch (s.k) {
    case 'write': {
      const arr = ctx.arrays[s.arr % ctx.arrays.length]!;
      const idx = s.idx.slice(0, arr.dims).map((e) => printExpr(e, ctx, 'control').text);
      return `${arr.name}${idx.map((x) => `[${x}]`).join('')} := ${printExpr(s.val, ctx, 'value').text}`;
    }
    case 'sync':
    case 'syncwarp':
      // uniform for the block is uniform for each warp
      return ctx.uniform || ctx.config.nonUniformSync ? s.k : 'skip';
    case 'assume':
      return ctx.config.assumes === 'any' || (ctx.config.assumes === 'top' && ctx.topLevel) ? `assume ${printCond(s.cond, ctx).text}` : 'skip';
    case 'assume-sync': {
      const assume = printStmt({ k: 'assume', cond: s.cond }, ctx);
      const sync = printStmt({ k: 'sync' }, ctx);
      return assume === 'skip' ? sync : `${assume};\n${p}${sync}`;
    }
    case 'if': {
      const c = printCond(s.cond, ctx);
      const inner: Ctx = { ...ctx, uniform: ctx.uniform && c.uniform, depth: ctx.depth + 1, topLevel: false };
      const thenLines = printBlock(s.then, inner);
      const elseLines = s.else === null ? null : printBlock(s.else, inner);
      return [`if (${c.text}) {`, ...thenLines, elseLines === null ? `${p}}` : `${p}} else {`, ...(elseLines === null ? [] : [...elseLines, `${p}}`])].join('\n');
    }
    case 'for': {
      const from = printExpr(s.from, ctx, 'bound');
      const to = printExpr(s.to, ctx, 'bound');
      const name = `i${ctx.depth}`;
      // a shifted loop runs `to` times (its value, a small constant or a variable) whatever its start
      const shifted = s.form === 'shift' || s.form === 'shift-down';
      const uniform = shifted ? to.uniform : from.uniform && to.uniform;
      let head: string;
      switch (s.form) {
        case 'up':
          head = `for ${name} in ${from.text}..${to.text}`;
          break;
        case 'up+':
          head = `for ${name} in ${from.text}..${to.text} step + ${s.step}`;
          break;
        case 'up*':
          // from 0 a geometric loop never moves: start at 1 or more
          head = `for ${name} in ${from.text} + 1..${to.text} step * ${s.step + 1}`;
          break;
        case 'down':
          // truncated subtraction stays at 0: a downward loop to 0 never ends
          head = `for ${name} in ${from.text} downto ${to.text} + 1`;
          break;
        case 'down-':
          head = `for ${name} in ${from.text} downto ${to.text} + 1 step - ${s.step}`;
          break;
        case 'down/':
          head = `for ${name} in ${from.text} downto ${to.text} + 1 step / ${s.step + 1}`;
          break;
        case 'down0':
          head = `for ${name} in ${from.text} downto 0`;
          break;
        case 'down0-':
          head = `for ${name} in ${from.text} downto 0 step - ${s.step}`;
          break;
        case 'shift':
          head = `for ${name} in ${from.text}..${from.text} + ${to.text}`;
          break;
        case 'shift-down':
          head = `for ${name} in ${from.text} + ${to.text} downto ${from.text} + 1`;
          break;
      }
      // the loop variable's value is uniform only when its start is too
      const variable: Var = { name, uniform: uniform && from.uniform, data: isData(`${from.text} ${to.text}`, ctx), huge: false };
      const inner: Ctx = { ...ctx, uniform: ctx.uniform && uniform, depth: ctx.depth + 1, topLevel: false, loopVar: variable };
      inner.vars.push(variable);
      const body = printBlock(s.body, inner);
      inner.vars.pop();
      return [`${head} {`, ...body, `${p}}`].join('\n');
    }
  }
}

export function printKernel(k: GKernel, config: GenConfig): string {
  const params = Array.from({ length: k.params }, (_, i) => ['N', 'M'][i]!);
  const counts = { shared: 0, global: 0 };
  const arrays = k.arrays.map((a) => ({ ...a, name: a.scope === 'shared' ? `S${counts.shared++}` : `G${counts.global++}` }));
  const ctx: Ctx = {
    config,
    arrays,
    vars: params.map((name) => ({ name, uniform: true, data: false, huge: false })),
    loopVar: null,
    uniform: true,
    depth: 0,
    topLevel: true,
  };
  const requires = params.length === 0 ? [] : k.requires.map((r) => `requires ${printCond(r, ctx).text}`);
  const decls = arrays.map((a) => `  ${a.scope} ${a.name}${a.sized ? '[8]'.repeat(a.dims) : ''};`);
  const body = printBlock(k.body, ctx);
  return [`kernel k(${params.join(', ')})`, ...requires.map((r) => `  ${r}`), '{', ...decls, ...body, '}'].join('\n') + '\n';
}
