/**
 * Random core kernels with machine integers (i32 and u32), built with the
 * test builder, for the differential properties: typed parameters, constants
 * at the types' edges (MIN, MAX, −1), C's operators (overflow, division by
 * zero and shift counts out of range happen, and make launches undefined),
 * casts between the types and of thread ids, conditionals, typed loops up and
 * down, unknown values (`havoc`) and values read, barriers where control is
 * uniform (or anywhere, when asked).
 *
 * As in generator.ts, fast-check builds a shape and names are resolved when
 * the kernel is built: a reference picks a variable of the wanted type in
 * scope (or becomes a constant), so every shrunk shape is a valid, well-typed
 * core kernel. Each array holds one type: values are cast to it when
 * written, and read back as it.
 */
import fc from 'fast-check';
import { ATOMIC_OPS, type ArithOp, type AtomicOp, type BExpr, type CmpOp, type Expr, type Kernel, type MachineType, type Stmt } from '../../src/core/ast.js';
import { typeMax, typeMin } from '../../src/core/arith.js';
import { showKernel } from '../../src/core/print.js';
import { inferMap } from '../../src/map/infer.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import * as b from '../support/core.js';
import { fail, type Loaded } from './harness.js';
import { statementList, warpSizeArbitrary, warpSizeNote, type Warps } from './generator.js';

/** 0: i32, 1: u32 */
type Ty = 0 | 1;
const TYPES: readonly MachineType[] = ['i32', 'u32'];

export interface TypedConfig {
  /** values read and unknown values may flow into indices, conditions and loop bounds */
  readonly dataFlow: boolean;
  /** `assume` anywhere, or only at the top level over parameters */
  readonly assumes: 'top' | 'any';
  readonly nonUniformSync: boolean;
  /** atomics among the statements (absent: yes) */
  readonly atomics?: boolean;
  /** `syncwarp` among the statements (absent: no, so that the kernels of a seed stay those it always gave) */
  readonly syncwarp?: boolean;
  /** lockstep warps (absent: none), as in generator.ts */
  readonly warps?: Warps;
  /**
   * accesses at unsigned indices that wrap around at some threads and meet
   * another thread's there, or not (`(tid − 1) % 4`, `tid << 31`, `tid +
   * (u32) −2`; absent: none, so that the kernels of a seed stay those it
   * always gave)
   */
  readonly wraps?: boolean;
  /**
   * kernels of the Coq model's fragment (the extracted oracle, P6): no
   * conditional expressions (a drawn `c ? a : b` is `a`; a geometric loop's
   * start or bound is made odd by `| 1`, so at least 1 unless negative,
   * instead of `e < 1 ? 1 : e`) and no unknown values (a drawn one is left
   * out); absent: no, so that the kernels of a seed stay those it always
   * gave
   */
  readonly coqFragment?: boolean;
}

type TExpr =
  | { readonly k: 'const'; readonly pick: number }
  | { readonly k: 'ref'; readonly n: number }
  | { readonly k: 'tid' }
  /** a constant of any size (the wrapping indices' shift counts and offsets) */
  | { readonly k: 'lit'; readonly v: bigint }
  | { readonly k: 'cast'; readonly e: TExpr }
  | { readonly k: 'bin'; readonly op: ArithOp; readonly a: TExpr; readonly b: TExpr }
  | { readonly k: 'ite'; readonly c: TCond; readonly a: TExpr; readonly b: TExpr };

type TCond =
  | { readonly k: 'cmp'; readonly op: CmpOp; readonly ty: Ty; readonly a: TExpr; readonly b: TExpr }
  | { readonly k: 'and' | 'or'; readonly a: TCond; readonly b: TCond }
  | { readonly k: 'not'; readonly a: TCond };

type LoopForm = 'up' | 'up+' | 'up*' | 'down' | 'down-' | 'down/';

type TStmt =
  | { readonly k: 'write'; readonly arr: number; readonly ty: Ty; readonly idx: TExpr; readonly vty: Ty; readonly val: TExpr }
  | { readonly k: 'read'; readonly arr: number; readonly ty: Ty; readonly idx: TExpr }
  /** an atomic in the array's element type, binding its old value */
  | { readonly k: 'atomic'; readonly op: AtomicOp; readonly arr: number; readonly ty: Ty; readonly idx: TExpr; readonly vals: readonly TExpr[] }
  | { readonly k: 'let'; readonly ty: Ty; readonly val: TExpr }
  | { readonly k: 'havoc'; readonly ty: Ty; readonly approximated: boolean }
  | { readonly k: 'if'; readonly cond: TCond; readonly then: readonly TStmt[]; readonly else: readonly TStmt[] | null }
  | { readonly k: 'for'; readonly ty: Ty; readonly form: LoopForm; readonly from: TExpr; readonly to: TExpr; readonly step: number; readonly body: readonly TStmt[] }
  | { readonly k: 'sync' }
  | { readonly k: 'syncwarp' }
  | { readonly k: 'assume'; readonly cond: TCond }
  /** one thread (`tid == thread`) evaluates an operation that may be undefined, the others do not: its launch may be out of scope while the others race */
  | { readonly k: 'lone'; readonly thread: number; readonly ty: Ty; readonly val: TExpr };

interface TKernel {
  readonly params: readonly Ty[];
  readonly arrays: readonly { readonly scope: 'shared' | 'global'; readonly ty: Ty }[];
  readonly assumes: readonly TCond[];
  readonly body: readonly TStmt[];
}

/** A generated kernel: the core kernel, its text and the warp size it is checked with (null: independent threads), which fast-check shows for a counterexample. */
export class TypedGenerated {
  readonly source: string;

  constructor(
    readonly kernel: Kernel,
    readonly warpSize: number | null = null,
  ) {
    this.source = showKernel(kernel);
  }

  toString(): string {
    return `\n${warpSizeNote(this.warpSize)}${this.source}`;
  }

  [fc.toStringMethod](): string {
    return this.toString();
  }
}

/** The generated kernel as the properties check it: printed, re-spanned, checked and inferred. */
export function loadTyped(g: TypedGenerated): Loaded {
  const p = b.program(g.kernel);
  const errors = wellFormednessErrors(p);
  if (errors.length > 0) fail(g, `the generator made an ill-formed kernel: ${errors.map((e) => e.message).join('; ')}`);
  const kernel = p.kernels[0]!;
  return { kernel, map: inferMap(p.file, kernel), warpSize: g.warpSize };
}

// ---------------------------------------------------------------------------
// Arbitraries

const ty = fc.constantFrom<Ty>(0, 1);
const binOp = fc.constantFrom<ArithOp>('+', '+', '-', '-', '*', '/', '%', '&', '|', '^', '<<', '>>');
const cmpOp = fc.constantFrom<CmpOp>('==', '!=', '<', '<=', '>', '>=');
// mostly small constants; now and then an edge of the type
const smallConstant = fc.nat({ max: 4 }).map((pick): TExpr => ({ k: 'const', pick }));
const constant = fc.oneof({ weight: 6, arbitrary: fc.nat({ max: 4 }) }, { weight: 1, arbitrary: fc.integer({ min: 5, max: 9 }) }).map((pick): TExpr => ({ k: 'const', pick }));
const ref = fc.nat({ max: 30 }).map((n): TExpr => ({ k: 'ref', n }));
const leaf: fc.Arbitrary<TExpr> = fc.oneof({ weight: 3, arbitrary: constant }, { weight: 4, arbitrary: ref }, { weight: 3, arbitrary: fc.constant<TExpr>({ k: 'tid' }) });
const atomOf = (e: fc.Arbitrary<TExpr>): fc.Arbitrary<TCond> => fc.record({ op: cmpOp, ty, a: e, b: e }).map((c): TCond => ({ k: 'cmp', ...c }));

const expr: fc.Arbitrary<TExpr> = fc.letrec<{ e: TExpr }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 5, arbitrary: leaf },
    { weight: 3, arbitrary: fc.record({ op: binOp, a: tie('e'), b: tie('e') }).map((x): TExpr => ({ k: 'bin', ...x })) },
    { weight: 1, arbitrary: tie('e').map((e): TExpr => ({ k: 'cast', e })) },
    { weight: 1, arbitrary: fc.record({ c: atomOf(leaf), a: tie('e'), b: tie('e') }).map((x): TExpr => ({ k: 'ite', ...x })) },
  ),
})).e;

/** Loop bounds: small constants, variables and thread ids (an edge of the type would make a loop of 2^31 iterations). */
const smallLeaf: fc.Arbitrary<TExpr> = fc.oneof(smallConstant, ref, fc.constant<TExpr>({ k: 'tid' }));
const bound: fc.Arbitrary<TExpr> = fc.oneof(smallConstant, smallLeaf, fc.record({ a: smallLeaf, b: smallConstant }).map(({ a, b: c }): TExpr => ({ k: 'bin', op: '+', a, b: c })));
const atom = atomOf(expr);
const cond: fc.Arbitrary<TCond> = fc.oneof(
  { weight: 4, arbitrary: atom },
  { weight: 1, arbitrary: fc.record({ k: fc.constantFrom<'and' | 'or'>('and', 'or'), a: atom, b: atom }) },
  { weight: 1, arbitrary: atom.map((a): TCond => ({ k: 'not', a })) },
);

/** Indices at which threads of one warp meet: a thread's own element, its neighbour's, one per pair of threads, one for all. */
const TID: TExpr = { k: 'tid' };
const warpIndex = fc.constantFrom<TExpr>(
  TID,
  { k: 'bin', op: '+', a: TID, b: { k: 'const', pick: 1 } },
  { k: 'bin', op: '/', a: TID, b: { k: 'const', pick: 2 } },
  { k: 'bin', op: '^', a: TID, b: { k: 'const', pick: 1 } },
  { k: 'const', pick: 0 },
);
/** Even and odd threads, the first one or two. */
const warpCond = fc.constantFrom<TCond>(
  { k: 'cmp', op: '==', ty: 0, a: { k: 'bin', op: '%', a: TID, b: { k: 'const', pick: 2 } }, b: { k: 'const', pick: 0 } },
  { k: 'cmp', op: '<', ty: 1, a: TID, b: { k: 'const', pick: 1 } },
  { k: 'cmp', op: '<', ty: 0, a: TID, b: { k: 'const', pick: 2 } },
);
const warpAccess = fc.record({ write: fc.boolean(), idx: warpIndex, val: fc.constantFrom<TExpr>({ k: 'const', pick: 1 }, TID, { k: 'ref', n: 0 }) });

/**
 * Unsigned indices that wrap around at some threads, as C computes them
 * (modulo 2^32): thread 0's `tid − 1` is 2^32 − 1, whose remainder by 4 is
 * thread 4's; `tid << 31` is 0 at every even thread; `tid + (2^32 − 2)` is
 * `tid − 2`. Built in u32 only (in i32 they would be overflows).
 */
const lit = (v: bigint): TExpr => ({ k: 'lit', v });
const wrapIndex: fc.Arbitrary<TExpr> = fc
  .record({
    offset: fc.constantFrom(1n, 2n, 3n),
    modulus: fc.constantFrom(2n, 3n, 4n),
    shift: fc.constantFrom(29n, 30n, 31n),
    shape: fc.constantFrom('minus', 'minus%', 'plus-max', 'plus-max&', 'shl', 'shl>>', 'mul'),
  })
  .map(({ offset, modulus, shift, shape }): TExpr => {
    const minus: TExpr = { k: 'bin', op: '-', a: TID, b: lit(offset) };
    const plusMax: TExpr = { k: 'bin', op: '+', a: TID, b: lit(2n ** 32n - offset) };
    const shl: TExpr = { k: 'bin', op: '<<', a: TID, b: lit(shift) };
    switch (shape) {
      case 'minus':
        return minus;
      case 'minus%':
        return { k: 'bin', op: '%', a: minus, b: lit(modulus) };
      case 'plus-max':
        return plusMax;
      case 'plus-max&':
        return { k: 'bin', op: '&', a: plusMax, b: lit(modulus - 1n) };
      case 'shl':
        return shl;
      case 'shl>>':
        return { k: 'bin', op: '>>', a: shl, b: lit(shift) };
      default:
        // a product that wraps: outside the scope, as a signed overflow
        return { k: 'bin', op: '*', a: TID, b: lit(1n << shift) };
    }
  });

/**
 * Statements in the shapes whose verdicts lockstep decides (as in
 * generator.ts): accesses of one array at elements where threads meet, in
 * sequence, in one statement, on the two sides of a thread-dependent `if`,
 * in a loop of a few iterations.
 */
const lockstepItem: fc.Arbitrary<TStmt[]> = fc
  .record({
    arr: fc.nat({ max: 3 }),
    ty,
    shape: fc.constantFrom('pair', 'one', 'split', 'split', 'guard'),
    cond: warpCond,
    a: warpAccess,
    b: warpAccess,
    // the two sides of a split at one index half the time: threads on both sides meet where it maps several threads to one element
    sameIndex: fc.boolean(),
    loop: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }),
  })
  .map(({ arr, ty: t, shape, cond: c, a, b: drawn, sameIndex, loop }): TStmt[] => {
    const second = sameIndex && shape === 'split' ? { ...drawn, idx: a.idx } : drawn;
    const access = (x: typeof a, write = x.write): TStmt => (write ? { k: 'write', arr, ty: t, idx: x.idx, vty: t, val: x.val } : { k: 'read', arr, ty: t, idx: x.idx });
    const body: TStmt[] =
      shape === 'pair'
        ? [access(a), access(second)]
        : shape === 'one'
          ? [access(a, true)]
          : shape === 'split'
            ? [{ k: 'if', cond: c, then: [access(a)], else: [access(second)] }]
            : [{ k: 'if', cond: c, then: [access(a), access(second)], else: null }];
    return loop === null ? body : [{ k: 'for', ty: t, form: 'up', from: { k: 'const', pick: 0 }, to: { k: 'const', pick: loop }, step: 1, body }];
  });

function stmts(config: TypedConfig, depth: number): fc.Arbitrary<TStmt[]> {
  const simple: fc.Arbitrary<TStmt>[] = [
    fc.record({ arr: fc.nat({ max: 3 }), ty, idx: expr, vty: ty, val: expr }).map((s): TStmt => ({ k: 'write', ...s })),
    fc.record({ arr: fc.nat({ max: 3 }), ty, idx: expr, vty: ty, val: expr }).map((s): TStmt => ({ k: 'write', ...s })),
    fc.record({ arr: fc.nat({ max: 3 }), ty, idx: expr }).map((s): TStmt => ({ k: 'read', ...s })),
    ...(config.atomics === false
      ? []
      : [fc.record({ op: fc.constantFrom(...ATOMIC_OPS), arr: fc.nat({ max: 3 }), ty, idx: expr, vals: fc.array(expr, { minLength: 2, maxLength: 2 }) }).map((s): TStmt => ({ k: 'atomic', ...s }))]),
    fc.record({ ty, val: expr }).map((s): TStmt => ({ k: 'let', ...s })),
    fc.record({ ty, approximated: fc.boolean() }).map((s): TStmt => ({ k: 'havoc', ...s })),
    fc.constant<TStmt>({ k: 'sync' }),
    fc
      .record({ thread: fc.nat({ max: 3 }), ty, val: fc.record({ op: fc.constantFrom<ArithOp>('/', '%', '+', '-', '*', '<<'), a: leaf, b: leaf }) })
      .map(({ thread, ty: t, val }): TStmt => ({ k: 'lone', thread, ty: t, val: { k: 'bin', ...val } })),
  ];
  if (config.assumes === 'any') simple.push(cond.map((c): TStmt => ({ k: 'assume', cond: c })));
  if (config.syncwarp === true) simple.push(fc.constant<TStmt>({ k: 'syncwarp' }));
  if (config.wraps === true) {
    simple.push(fc.record({ arr: fc.nat({ max: 3 }), idx: wrapIndex, val: expr }).map((s): TStmt => ({ k: 'write', ...s, ty: 1, vty: 1 })));
    simple.push(fc.record({ arr: fc.nat({ max: 3 }), idx: wrapIndex }).map((s): TStmt => ({ k: 'read', ...s, ty: 1 })));
  }
  const stmt: fc.Arbitrary<TStmt> =
    depth <= 0
      ? fc.oneof(...simple)
      : fc.oneof(
          { weight: 6, arbitrary: fc.oneof(...simple) },
          { weight: 2, arbitrary: fc.record({ cond, then: stmts(config, depth - 1), else: fc.option(stmts(config, depth - 1), { nil: null }) }).map((s): TStmt => ({ k: 'if', ...s })) },
          {
            weight: 2,
            arbitrary: fc
              .record({ ty, form: fc.constantFrom<LoopForm>('up', 'up', 'up+', 'up*', 'down', 'down', 'down-', 'down/'), from: bound, to: bound, step: fc.integer({ min: 1, max: 3 }), body: stmts(config, depth - 1) })
              .map((s): TStmt => ({ k: 'for', ...s })),
          },
        );
  return statementList(stmt, lockstepItem, config.warps, { minLength: 1, maxLength: depth >= 2 ? 5 : 3 });
}

export function typedKernelArbitrary(config: TypedConfig): fc.Arbitrary<TypedGenerated> {
  return fc
    .record({
      params: fc.array(ty, { maxLength: 2 }),
      arrays: fc.array(fc.record({ scope: fc.constantFrom<'shared' | 'global'>('shared', 'global'), ty }), { minLength: 1, maxLength: 2 }),
      assumes: fc.array(atomOf(fc.oneof(constant, ref)), { maxLength: 1 }),
      body: stmts(config, 2),
      warpSize: warpSizeArbitrary(config.warps),
    })
    .map(({ warpSize, ...shape }) => new TypedGenerated(build(shape, config), warpSize));
}

// ---------------------------------------------------------------------------
// Building

interface Var {
  readonly name: string;
  readonly ty: Ty;
  /** the same in every thread of a block */
  readonly uniform: boolean;
  /** read from memory or unknown */
  readonly data: boolean;
}

interface Ctx {
  readonly config: TypedConfig;
  readonly arrays: readonly { readonly name: string; readonly ty: Ty }[];
  readonly vars: Var[];
  readonly uniform: boolean;
  readonly depth: number;
  /** counts binders, so that names are fresh in their block */
  readonly names: { n: number };
}

interface Built<T> {
  readonly value: T;
  readonly uniform: boolean;
}

/** Constants of the type: small ones first, then its edges. */
function constantOf(t: Ty, pick: number): bigint {
  const type = TYPES[t]!;
  const pool = t === 0 ? [0n, 1n, 2n, 3n, -1n, -2n, typeMax(type), typeMin(type), 7n, -3n] : [0n, 1n, 2n, 3n, 4n, typeMax(type), 1n << 31n, typeMax(type) - 1n, 7n, 5n];
  return pool[pick % pool.length]!;
}

/** Where an expression goes: data may always flow into written values, elsewhere only when the config says. */
type Place = 'value' | 'control';

function buildExpr(e: TExpr, t: Ty, ctx: Ctx, place: Place): Built<Expr> {
  const type = TYPES[t]!;
  switch (e.k) {
    case 'const':
      return { value: b.int(constantOf(t, e.pick), type), uniform: true };
    case 'ref': {
      const pool = ctx.vars.filter((v) => v.ty === t && (!v.data || place === 'value' || ctx.config.dataFlow));
      // no variable of the type: a small constant (edges come from constants only)
      if (pool.length === 0) return { value: b.int(constantOf(t, e.n % 5), type), uniform: true };
      const v = pool[pool.length - 1 - (e.n % pool.length)]!;
      return { value: b.v(v.name, type), uniform: v.uniform };
    }
    case 'tid':
      return { value: b.tidAs(type), uniform: false };
    case 'lit':
      return { value: b.int(e.v, type), uniform: true };
    case 'cast': {
      const inner = buildExpr(e.e, t === 0 ? 1 : 0, ctx, place);
      return { value: b.cast(type, inner.value), uniform: inner.uniform };
    }
    case 'bin': {
      const a = buildExpr(e.a, t, ctx, place);
      // a shift count is a small constant of either type, now and then one out of range
      if (e.op === '<<' || e.op === '>>') {
        const count = e.b.k === 'const' ? [0n, 1n, 2n, 3n, 31n, 32n][e.b.pick % 6]! : 1n;
        return { value: b.bin(e.op, a.value, b.int(count, TYPES[(e.b.k === 'const' ? e.b.pick : 0) % 2]!)), uniform: a.uniform };
      }
      const r = buildExpr(e.b, t, ctx, place);
      return { value: b.bin(e.op, a.value, r.value), uniform: a.uniform && r.uniform };
    }
    case 'ite': {
      if (ctx.config.coqFragment === true) return buildExpr(e.a, t, ctx, place);
      const c = buildCond(e.c, ctx, place);
      const a = buildExpr(e.a, t, ctx, place);
      const r = buildExpr(e.b, t, ctx, place);
      return { value: b.ite(c.value, a.value, r.value), uniform: c.uniform && a.uniform && r.uniform };
    }
  }
}

function buildCond(c: TCond, ctx: Ctx, place: Place = 'control'): Built<BExpr> {
  switch (c.k) {
    case 'cmp': {
      const a = buildExpr(c.a, c.ty, ctx, place);
      const r = buildExpr(c.b, c.ty, ctx, place);
      return { value: b.cmp(c.op, a.value, r.value), uniform: a.uniform && r.uniform };
    }
    case 'and':
    case 'or': {
      const a = buildCond(c.a, ctx, place);
      const r = buildCond(c.b, ctx, place);
      return { value: c.k === 'and' ? b.and(a.value, r.value) : b.or(a.value, r.value), uniform: a.uniform && r.uniform };
    }
    case 'not': {
      const a = buildCond(c.a, ctx, place);
      return { value: b.not(a.value), uniform: a.uniform };
    }
  }
}

/** The statements of a block; a binder's body is the rest of the block. */
function buildBlock(body: readonly TStmt[], ctx: Ctx): Stmt[] {
  const mark = ctx.vars.length;
  const out = buildFrom(body, 0, ctx);
  ctx.vars.length = mark;
  return out;
}

/** As in BabyCUDA, a binder's body is the next statement, and it stays bound to the end of the block. */
function buildFrom(body: readonly TStmt[], i: number, ctx: Ctx): Stmt[] {
  if (i >= body.length) return [];
  const s = body[i]!;
  const binder = (make: (next: Stmt) => Stmt): Stmt[] => {
    const [next, ...others] = buildFrom(body, i + 1, ctx);
    return [make(next ?? b.skip), ...others];
  };
  const fresh = (prefix: string): string => `${prefix}${ctx.depth}_${ctx.names.n++}`;
  switch (s.k) {
    case 'read': {
      const arr = ctx.arrays[s.arr % ctx.arrays.length]!;
      const index = buildExpr(s.idx, s.ty, ctx, 'control');
      const name = fresh('v');
      ctx.vars.push({ name, ty: arr.ty, uniform: false, data: true });
      return binder((next) => b.read(name, arr.name, [index.value], next));
    }
    case 'atomic': {
      const arr = ctx.arrays[s.arr % ctx.arrays.length]!;
      const index = buildExpr(s.idx, s.ty, ctx, 'control');
      const operands = s.vals.slice(0, s.op === 'cas' ? 2 : 1).map((e) => buildExpr(e, arr.ty, ctx, 'value').value);
      const name = fresh('o');
      ctx.vars.push({ name, ty: arr.ty, uniform: false, data: true });
      return binder((next) => b.atomic(s.op, name, arr.name, [index.value], operands, TYPES[arr.ty]!, next));
    }
    case 'let': {
      const value = buildExpr(s.val, s.ty, ctx, 'control');
      const name = fresh('a');
      const data = ctx.vars.some((v) => v.data && mentions(value.value, v.name));
      ctx.vars.push({ name, ty: s.ty, uniform: value.uniform, data });
      return binder((next) => b.let_(name, value.value, next));
    }
    case 'havoc': {
      if (ctx.config.coqFragment === true) return buildFrom(body, i + 1, ctx);
      const name = fresh('h');
      ctx.vars.push({ name, ty: s.ty, uniform: false, data: true });
      const origin = s.approximated ? b.approximation('a value updated in a loop', 'its update is not a step the front end solves') : b.unknownValue('a texture fetch');
      return binder((next) => b.havoc(name, TYPES[s.ty]!, origin, next));
    }
    case 'lone': {
      const value = buildExpr(s.val, s.ty, ctx, 'control');
      const lone = b.if_(b.cmp('==', b.tidAs('i32'), b.i32(s.thread)), [b.let_(fresh('u'), value.value)]);
      return [lone, ...buildFrom(body, i + 1, ctx)];
    }
    default:
      return [buildStmt(s, ctx), ...buildFrom(body, i + 1, ctx)];
  }
}

function mentions(e: Expr, name: string): boolean {
  switch (e.kind) {
    case 'var':
      return e.name === name;
    case 'binary':
      return mentions(e.left, name) || mentions(e.right, name);
    case 'cast':
      return mentions(e.operand, name);
    case 'ite':
      return mentions(e.then, name) || mentions(e.else, name) || condMentions(e.cond, name);
    default:
      return false;
  }
}

function condMentions(c: BExpr, name: string): boolean {
  switch (c.kind) {
    case 'bool':
      return false;
    case 'cmp':
      return mentions(c.left, name) || mentions(c.right, name);
    case 'and':
    case 'or':
      return condMentions(c.left, name) || condMentions(c.right, name);
    case 'not':
      return condMentions(c.operand, name);
  }
}

function buildStmt(s: Exclude<TStmt, { k: 'read' | 'atomic' | 'let' | 'havoc' | 'lone' }>, ctx: Ctx): Stmt {
  switch (s.k) {
    case 'write': {
      const arr = ctx.arrays[s.arr % ctx.arrays.length]!;
      const index = buildExpr(s.idx, s.ty, ctx, 'control');
      const value = buildExpr(s.val, s.vty, ctx, 'value');
      return b.write(arr.name, [index.value], s.vty === arr.ty ? value.value : b.cast(TYPES[arr.ty]!, value.value));
    }
    case 'sync':
      return ctx.uniform || ctx.config.nonUniformSync ? b.sync : b.skip;
    case 'syncwarp':
      return ctx.uniform || ctx.config.nonUniformSync ? b.syncwarp : b.skip;
    case 'assume':
      return b.assume(buildCond(s.cond, ctx).value);
    case 'if': {
      const c = buildCond(s.cond, ctx);
      const inner: Ctx = { ...ctx, uniform: ctx.uniform && c.uniform, depth: ctx.depth + 1 };
      const then = buildBlock(s.then, inner);
      return b.if_(c.value, then.length === 0 ? [b.skip] : then, s.else === null ? null : buildBlock(s.else, inner));
    }
    case 'for': {
      const type = TYPES[s.ty]!;
      const from = buildExpr(s.from, s.ty, ctx, 'control');
      const to = buildExpr(s.to, s.ty, ctx, 'control');
      const k = b.int(s.step, type);
      const one = b.int(1, type);
      // geometric loops start (or stop) at 1 or more, else they never move: a conditional keeps them there
      const atLeastOne = (e: Expr): Expr => (ctx.config.coqFragment === true ? b.bin('|', e, one) : b.ite(b.cmp('<', e, one), one, e));
      const spec: b.LoopSpec = ((): b.LoopSpec => {
        switch (s.form) {
          case 'up':
            return { type, from: from.value, to: to.value };
          case 'up+':
            return { type, from: from.value, to: to.value, step: { op: '+', amount: k } };
          case 'up*':
            return { type, from: atLeastOne(from.value), to: to.value, step: { op: '*', amount: b.int(s.step + 1, type) } };
          case 'down':
            return { type, from: from.value, to: to.value, down: true };
          case 'down-':
            return { type, from: from.value, to: to.value, down: true, step: { op: '-', amount: k } };
          case 'down/':
            return { type, from: from.value, to: atLeastOne(to.value), down: true, step: { op: '/', amount: b.int(s.step + 1, type) } };
        }
      })();
      const uniform = from.uniform && to.uniform;
      const inner: Ctx = { ...ctx, uniform: ctx.uniform && uniform, depth: ctx.depth + 1 };
      const name = `i${ctx.depth}`;
      inner.vars.push({ name, ty: s.ty, uniform, data: ctx.vars.some((v) => v.data && (mentions(spec.from, v.name) || mentions(spec.to, v.name))) });
      const body = buildBlock(s.body, inner);
      inner.vars.pop();
      return b.forLoop(name, spec, body.length === 0 ? [b.skip] : body);
    }
  }
}

function build(k: TKernel, config: TypedConfig): Kernel {
  const params = k.params.map((t, i) => b.param(['n', 'm'][i]!, TYPES[t]));
  const counts = { shared: 0, global: 0 };
  const arrays = k.arrays.map((a) => ({ ...a, name: a.scope === 'shared' ? `S${counts.shared++}` : `G${counts.global++}` }));
  const ctx: Ctx = {
    config,
    arrays: arrays.map((a) => ({ name: a.name, ty: a.ty })),
    vars: params.map((p, i) => ({ name: p.text, ty: k.params[i]!, uniform: true, data: false })),
    uniform: true,
    depth: 0,
    names: { n: 0 },
  };
  // top-level assumptions over parameters only: every thread agrees on them
  const assumes = params.length === 0 ? [] : k.assumes.map((c) => b.assume(buildCond(c, { ...ctx, vars: [...ctx.vars] }).value));
  const body = buildBlock(k.body, ctx);
  return b.kernel('k', { params, arrays: arrays.map((a) => (a.scope === 'shared' ? b.shared(a.name) : b.global(a.name))) }, [...assumes, ...(body.length === 0 ? [b.skip] : body)]);
}
