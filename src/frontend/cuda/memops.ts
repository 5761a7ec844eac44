/**
 * `memcpy(d, s, n)` and `memset(d, c, n)` (and their `__builtin_` forms) on
 * memory: the accesses over the element range, a read of each source
 * element and a write of each destination element, in order. The count is
 * `n / sizeof(element)`, exact when `n` is a constant multiple of the size or
 * is written `k * m` with `m` one; otherwise every element the bytes touch is
 * counted (rounded up), an approximation said by a notice. A thread's own
 * array is copied element by element at constant indices.
 */
import type { Node } from './parse.js';
import type { Expr } from '../../core/ast.js';
import type { Span } from '../../core/source.js';
import { arith, castTo, constant } from './build.js';
import { branch, fresh, notice, reject, spanOf, unsupported, type Ctx, type PointerValue, type Value } from './context.js';
import { convert, element, intOf, load, readPlace, rvalue, writePlace, type Place } from './expr.js';
import { FLOAT, isInteger, sizeOf, typeName, UINT, type CType } from './ctypes.js';

export const MEMORY_CALLS = new Set(['memcpy', 'memset', '__builtin_memcpy', '__builtin_memset']);

export function memoryCall(ctx: Ctx, name: string, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  const copy = name.endsWith('memcpy');
  if (args.length !== 3) return reject(ctx, 'misuse', n, `${name} takes three arguments`);
  const dst = pointerArg(ctx, name, args[0]!);
  const src: PointerValue | Value = copy ? pointerArg(ctx, name, args[1]!) : rvalue(ctx, args[1]!);
  const bytes = intOf(ctx, rvalue(ctx, args[2]!), spanOf(args[2]!));
  const size = elementSize(ctx, name, dst, args[0]!);
  if (copy && src.kind === 'pointer' && elementSize(ctx, name, src, args[1]!) !== size) {
    return unsupported(ctx, n, `${name} between elements of different sizes (${typeName(dst.elem)} and ${typeName(src.elem)})`);
  }
  const count = elementCount(ctx, name, castTo(bytes.expr, 'u64', span), size, span);
  const value = (): Value => (copy ? { kind: 'void' } : setValue(ctx, src, dst.elem, size, span));
  const one = (k: Expr): void => {
    const at = (p: PointerValue): Place => {
      const e = element(ctx, p, { expr: k, type: 'u64' }, span);
      if (e.kind === 'pointer') return reject(ctx, 'misuse', n, `${name} of a row of a multi-dimensional array`);
      return e;
    };
    const v = copy ? readElement(ctx, at(src as PointerValue), span) : value();
    const target = at(dst);
    if (target.kind === 'memory') writePlace(ctx, target, convert(ctx, v, dst.elem, span), span);
  };
  const local = dst.target.space === 'local' || (src.kind === 'pointer' && src.target.space === 'local');
  if (local) {
    if (count.kind !== 'int') return unsupported(ctx, n, `${name} on a thread's local array with a byte count faial-ts does not know`);
    for (let k = 0n; k < count.value; k++) one(constant(k, 'u64', span));
    return dst;
  }
  const k = fresh(ctx, 'byte_element');
  ctx.k.defs.set(k, null);
  const body = branch(ctx, () => one({ kind: 'var', name: k, type: 'u64', span }));
  ctx.b.stmt({ kind: 'for', var: { text: k, span }, from: constant(0n, 'u64', span), to: count, direction: 'up', step: null, type: 'u64', body: body.stmts.length > 0 ? body.stmts : [{ kind: 'skip', span }], span });
  return dst;
}

function pointerArg(ctx: Ctx, name: string, a: Node): PointerValue {
  const v = rvalue(ctx, a);
  if (v.kind !== 'pointer') return reject(ctx, 'unplaced', a, `${name} needs a pointer into an array faial-ts can place`);
  return v;
}

/** The size of the element a pointer points to, which must be known and not a struct's field. */
function elementSize(ctx: Ctx, name: string, p: PointerValue, a: Node): bigint {
  const size = p.elem.kind === 'struct' || p.leaf !== null ? null : sizeOf(p.elem);
  if (size === null || size === 0) return unsupported(ctx, a, `${name} on elements of type ${typeName(p.elem)}, whose size faial-ts does not know (or a struct)`);
  return BigInt(size);
}

/** How many elements `bytes` covers: exact for a constant multiple of the size or `k * m` with m a multiple; else rounded up, with a notice. */
function elementCount(ctx: Ctx, name: string, bytes: Expr, size: bigint, span: Span): Expr {
  const c = constantOf(bytes);
  if (c !== null && c % size === 0n) return constant(c / size, 'u64', span);
  // `m * sizeof(T)`, computed in its own type and converted to size_t
  let product = bytes;
  while (product.kind === 'cast') product = product.operand;
  if (product.kind === 'binary' && product.op === '*') {
    for (const [x, y] of [[product.left, product.right], [product.right, product.left]] as const) {
      const m = constantOf(x);
      if (m !== null && m % size === 0n) return arith('*', castTo(y, 'u64', span), constant(m / size, 'u64', span), 'u64', span);
    }
  }
  notice(ctx, 'byteRange', span, `${name}: the byte count is not known to be a multiple of the element size (${size}); faial-ts counts every element the bytes touch`);
  return arith('/', arith('+', bytes, constant(size - 1n, 'u64', span), 'u64', span), constant(size, 'u64', span), 'u64', span);
}

function constantOf(e: Expr): bigint | null {
  if (e.kind === 'int' || e.kind === 'nat') return e.value;
  if (e.kind === 'cast') return constantOf(e.operand);
  return null;
}

function readElement(ctx: Ctx, p: Place, span: Span): Value {
  return p.kind === 'memory' ? readPlace(ctx, p, span) : load(ctx, p, span);
}

/** The value memset stores in each element: the byte repeated, for an integer element and a constant byte; else unknown. */
function setValue(ctx: Ctx, byte: Value, elem: CType, size: bigint, span: Span): Value {
  const c = byte.kind === 'int' ? constantOf(byte.expr) : null;
  if (c === null || !isInteger(elem)) return { kind: 'unknown', ctype: elem, what: 'a value memset stores', span };
  const b = BigInt.asUintN(8, c);
  let v = 0n;
  for (let i = 0n; i < size; i++) v = (v << 8n) | b;
  return convert(ctx, { kind: 'int', expr: constant(v, 'u64', span), type: 'u64' }, elem, span);
}

/** cuRAND's device functions that take a generator state by pointer, last: curand_init(seed, seq, offset, &state[i]), curand(&state[i]), curand_uniform… */
export const CURAND = /^curand(?:_init|_uniform|_normal|_log_normal|_poisson|_uniform_double|_normal_double|_log_normal_double|_normal2|_normal4|_uniform4|_normal2_double|_log_normal2|_log_normal4|_discrete)?$/;

/**
 * A cuRAND call: a read and a write of the state it is given (the generator
 * advances), and an unknown result (so whatever it decides is `possible`).
 */
export function curandCall(ctx: Ctx, name: string, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  if (args.length === 0) return reject(ctx, 'misuse', n, `${name} takes the generator's state`);
  const values = args.map((a) => rvalue(ctx, a));
  const stateAt = name === 'curand_init' ? 3 : 0;
  const state = values[stateAt];
  if (state?.kind !== 'pointer') return reject(ctx, 'unplaced', args[stateAt] ?? n, `${name} needs a pointer to a generator state faial-ts can place (&state[i])`);
  const place = element(ctx, state, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
  if (place.kind !== 'memory' && place.kind !== 'slot') return reject(ctx, 'misuse', n, `${name} of a row of a multi-dimensional array`);
  readElement(ctx, place, span);
  const advanced: Value = { kind: 'unknown', ctype: place.kind === 'memory' ? place.elem : place.slot.ctype, what: `the state ${name} leaves`, span };
  if (place.kind === 'memory') writePlace(ctx, place, advanced, span);
  else ctx.values.set(place.slot, advanced);
  return name === 'curand_init' ? { kind: 'void' } : { kind: 'unknown', ctype: name === 'curand' || name === 'curand_poisson' || name === 'curand_discrete' ? UINT : FLOAT, what: `the result of ${name}`, span };
}
