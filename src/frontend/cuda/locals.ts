/**
 * A thread's own arrays (`int buf[4]`, `float tmp[N]`): no other thread sees
 * them, so their accesses are never shared or global accesses. Their values
 * are followed like locals: an array of constant sizes with at most
 * MAX_CELLS elements is one slot per element (a cell), joined at branches and
 * counted as assigned by a loop that names it. An element at a constant index
 * is its cell; at an index known only symbolically, an `ite` over the cells
 * (integers and booleans), else an unknown value. Where a value is not
 * followed, an integer is an approximation named in the report, so an alarm
 * it decides is `possible`.
 */
import type { Node } from './parse.js';
import type { BExpr, Expr, MachineType } from '../../core/ast.js';
import type { Span } from '../../core/source.js';
import { and, arith, castTo, compare, constant, ite, not, or } from './build.js';
import { havocked, reject, slotMachine, spanOf, unsupported, type ArrayRef, type Ctx, type Slot, type Value } from './context.js';
import { commonType, isInteger, leavesOf, type CType } from './ctypes.js';
import { convert, intOf, named, nameValue, partOfValue, placeType, rvalue, slotValue, structOfUnknown, withPartValue, type Place } from './expr.js';
import type { PointerValue } from './context.js';
import type { Declared } from './types.js';

/** Arrays with more elements than this are not followed element by element: their values are approximated. */
export const MAX_CELLS = 64;

/** A local array's elements as slots, in row-major order, and its sizes. */
export interface Cells {
  readonly slots: readonly Slot[];
  readonly sizes: readonly bigint[];
}

/** `T a[n]…` declared in a function: a local array, its cells initialised as C does (a missing initialiser leaves them unknown). */
export function localArrayDeclared(ctx: Ctx, decl: Declared): ArrayRef {
  const name = decl.name!.text;
  const span = spanOf(decl.name!);
  const sizes = decl.dims.map((s) => (s === null ? null : constantOf(ctx, s)));
  const count = sizes.every((s): s is bigint => s !== null && s > 0n) ? sizes.reduce((a, b) => a * b, 1n) : null;
  const initial = decl.init === null ? null : initialiser(ctx, decl.init);
  if (count === null || count > BigInt(MAX_CELLS)) {
    return { name, space: 'local', elem: decl.ctype, dims: decl.dims.length, readOnly: false, span, cells: null };
  }
  if (initial !== null && initial.length > Number(count)) return reject(ctx, 'misuse', decl.init!, `${initial.length} initial values for the ${count} elements of ${name}`);
  const slots: Slot[] = [];
  for (let k = 0; k < Number(count); k++) {
    const slot: Slot = { name: `${name}[${k}]`, ctype: decl.ctype, span };
    const given = initial?.[k];
    // C zero-initialises the elements an initialiser list leaves out
    const v: Value =
      given !== undefined ? convert(ctx, given, decl.ctype, span) : initial !== null ? zeroOf(ctx, decl.ctype, span) : decl.ctype.kind === 'struct' ? structOfUnknown(decl.ctype, `the uninitialised ${name}[${k}]`, span) : { kind: 'unknown', ctype: decl.ctype, what: `the uninitialised ${name}[${k}]`, span };
    ctx.values.set(slot, given !== undefined ? nameValue(ctx, slot.name, v, span) : v);
    ctx.scope.slots.push(slot);
    slots.push(slot);
  }
  return { name, space: 'local', elem: decl.ctype, dims: decl.dims.length, readOnly: false, span, cells: { slots, sizes: sizes as bigint[] } };
}

/** The initialiser's values in row-major order (nested braces flattened); null for one faial-ts does not read element-wise (a string). */
function initialiser(ctx: Ctx, init: Node): Value[] | null {
  if (init.type !== 'initializer_list') {
    rvalue(ctx, init);
    return null;
  }
  const out: Value[] = [];
  for (const e of named(init)) {
    if (e.type === 'initializer_list') {
      const inner = initialiser(ctx, e);
      if (inner === null) return null;
      out.push(...inner);
    } else if (e.type === 'initializer_pair') {
      return unsupported(ctx, e, 'a designated initialiser of a local array');
    } else {
      out.push(rvalue(ctx, e));
    }
  }
  return out;
}

function zeroOf(ctx: Ctx, t: CType, span: Span): Value {
  if (t.kind === 'struct') return { kind: 'struct', ctype: t, fields: leavesOf(t).map((l) => zeroOf(ctx, l.type, span)) };
  if (isInteger(t)) return convert(ctx, { kind: 'int', expr: constant(0n, 'i32', span), type: 'i32' }, t, span);
  return { kind: 'unknown', ctype: t, what: 'zero', span };
}

function constantOf(ctx: Ctx, n: Node): bigint | null {
  const v = rvalue(ctx, n);
  return v.kind === 'int' && v.expr.kind === 'int' ? v.expr.value : null;
}

/** The row-major index of an element, as an expression. */
function linearIndex(cells: Cells, index: readonly Expr[], span: Span): Expr {
  let acc: Expr | null = null;
  index.forEach((i, d) => {
    const x = castTo(i, 'i64', span);
    acc = acc === null ? x : arith('+', arith('*', acc, constant(cells.sizes[d]!, 'i64', span), 'i64', span), x, 'i64', span);
  });
  return acc ?? constant(0n, 'i64', span);
}

const constantIndex = (e: Expr): bigint | null => (e.kind === 'int' || e.kind === 'nat' ? e.value : null);

/** The value of a local array's element (or of one leaf of it). */
export function readLocal(ctx: Ctx, p: Place & { kind: 'memory' }, type: CType, span: Span): Value {
  const cells = p.array.cells;
  const what = `${p.array.name}[…]`;
  if (cells === null || cells === undefined) return notFollowed(ctx, p.array, type, `an element of the local array ${p.array.name}`, `faial-ts follows the elements of local arrays of constant sizes with at most ${MAX_CELLS} elements`, span);
  const lin = linearIndex(cells, p.index, span);
  const k = constantIndex(lin);
  const at = (slot: Slot): Value => leafOf(ctx, slotValue(ctx, slot, span), p.leaf, type, span);
  if (k !== null) {
    if (k < 0n || k >= BigInt(cells.slots.length)) return reject(ctx, 'misuse', p.span, `index ${k} is out of the bounds of the local array ${p.array.name}`);
    return at(cells.slots[Number(k)]!);
  }
  const values = cells.slots.map(at);
  const picked = values.reduceRight<Value | null>((rest, v, i) => (rest === null ? v : select(ctx, compare('==', lin, constant(BigInt(i), 'i64', span), span), v, rest, span)), null)!;
  if (picked.kind === 'unknown' && isInteger(type)) return notFollowed(ctx, p.array, type, `${what}, an element at an index faial-ts does not know`, 'its elements are not all integers faial-ts follows', span);
  return picked;
}

/** Stores into a local array's element: its cell at a constant index, else each cell that the index may name. */
export function writeLocal(ctx: Ctx, p: Place & { kind: 'memory' }, v: Value, span: Span): void {
  const cells = p.array.cells;
  if (cells === null || cells === undefined) return; // a private value not followed: every read of it is approximated
  const lin = linearIndex(cells, p.index, span);
  const k = constantIndex(lin);
  const put = (slot: Slot, value: Value): void => {
    const next = p.leaf === null ? value : withLeaf(ctx, slotValue(ctx, slot, span), p.leaf, placeType(p), value, span);
    ctx.values.set(slot, nameValue(ctx, slot.name, next, span));
  };
  if (k !== null) {
    if (k < 0n || k >= BigInt(cells.slots.length)) return reject(ctx, 'misuse', p.span, `index ${k} is out of the bounds of the local array ${p.array.name}`);
    return put(cells.slots[Number(k)]!, v);
  }
  cells.slots.forEach((slot, i) => {
    const old = leafOf(ctx, slotValue(ctx, slot, span), p.leaf, placeType(p), span);
    put(slot, select(ctx, compare('==', lin, constant(BigInt(i), 'i64', span), span), v, old, span));
  });
}

/**
 * The cells a piece of code may change: those of each local array it names
 * (directly, through a pointer held in a local, or through a reference)
 * anywhere but as the base of an element it only reads (`buf[i]` on the
 * right of `=`): assigned, incremented, its address taken, passed to a
 * function, or its pointer copied.
 */
export function cellsNamed(ctx: Ctx, nodes: readonly Node[]): Slot[] {
  const out = new Set<Slot>();
  const add = (a: ArrayRef | undefined): void => {
    for (const s of a?.cells?.slots ?? []) if (ctx.values.has(s)) out.add(s);
  };
  const ofValue = (v: Value | undefined): void => {
    if (v?.kind === 'pointer') add(v.target);
    if (v?.kind === 'struct') v.fields.forEach(ofValue);
  };
  const names = new Set<string>();
  for (const n of nodes) for (const name of changedNames(n)) names.add(name);
  for (const name of names) {
    const b = ctx.scope.lookup(name);
    if (b?.kind === 'array') add(b.array);
    if (b?.kind === 'local') ofValue(ctx.values.get(b.slot));
    if (b?.kind === 'alias' && b.place.kind === 'memory') add(b.place.array);
    if (b?.kind === 'value') ofValue(b.value);
  }
  return [...out];
}

/*
 * Which names cellsNamed looks up is a fact of the syntax alone, so it is
 * computed once per node: a loop nested d deep asks for its body at each of
 * the d levels, and scanning again made lowering quadratic in the depth
 * (issue 30). In the order a walk meets them, which the slots keep.
 */
const changedNamesOf = new WeakMap<Node, ReadonlySet<string>>();

/** The names below n whose arrays the code may change, by cellsNamed's rules. */
function changedNames(n: Node): ReadonlySet<string> {
  const known = changedNamesOf.get(n);
  if (known !== undefined) return known;
  const parts: ReadonlySet<string>[] = [];
  const own = (m: Node): void => void parts.push(new Set([m.text]));
  /** an element read: its base array is not changed by it */
  const readBase = (m: Node): void => {
    if (m.type === 'identifier') return;
    if (m.type === 'parenthesized_expression') return named(m).forEach(readBase);
    if (m.type === 'subscript_expression') return subscript(m, readBase);
    parts.push(changedNames(m));
  };
  const subscript = (m: Node, base: (b: Node) => void): void => {
    const arg = m.childForFieldName('argument');
    if (arg !== null) base(arg);
    const indices = m.childForFieldName('indices');
    if (indices !== null) parts.push(changedNames(indices));
  };
  /** an lvalue written, or whose address a function receives: its array may change */
  const lvalue = (m: Node): void => {
    if (m.type === 'identifier') return own(m);
    if (m.type === 'subscript_expression') return subscript(m, lvalue);
    const inner = m.type === 'parenthesized_expression' || m.type === 'field_expression' || (m.type === 'pointer_expression' && m.child(0)?.type === '*') ? (m.childForFieldName('argument') ?? named(m)[0]) : undefined;
    if (inner !== undefined) return lvalue(inner);
    parts.push(changedNames(m));
  };
  const children = (): void => void named(n).forEach((c) => parts.push(changedNames(c)));
  switch (n.type) {
    case 'identifier':
      own(n);
      break;
    case 'subscript_expression':
      subscript(n, readBase);
      break;
    case 'assignment_expression':
      lvalue(n.childForFieldName('left')!);
      parts.push(changedNames(n.childForFieldName('right')!));
      break;
    case 'update_expression':
      lvalue(n.childForFieldName('argument')!);
      break;
    case 'pointer_expression':
      if (n.child(0)?.type === '&') lvalue(n.childForFieldName('argument')!);
      else children();
      break;
    case 'argument_list':
      // a reference parameter may write the element passed
      named(n).forEach(lvalue);
      break;
    default:
      children();
  }
  const nonEmpty = parts.filter((p) => p.size > 0);
  // a node that adds nothing to one part shares it: a chain of nested statements costs no copies
  const result = nonEmpty.length === 1 ? nonEmpty[0]! : new Set(nonEmpty.flatMap((p) => [...p]));
  changedNamesOf.set(n, result);
  return result;
}

function leafOf(ctx: Ctx, v: Value, leaf: number | null, type: CType, span: Span): Value {
  if (leaf === null) return v;
  if (v.kind !== 'struct') return reject(ctx, 'misuse', span, 'this element is not a struct');
  return partOfValue(v, leaf, type);
}

function withLeaf(ctx: Ctx, whole: Value, leaf: number, type: CType, v: Value, span: Span): Value {
  if (whole.kind !== 'struct') return reject(ctx, 'misuse', span, 'this element is not a struct');
  return withPartValue(ctx, whole, leaf, type, v, span);
}

/** `c ? a : b` of two values of one element type; what faial-ts cannot combine is unknown. */
function select(ctx: Ctx, c: BExpr, a: Value, b: Value, span: Span): Value {
  if (a.kind === 'int' && b.kind === 'int') {
    const t: MachineType = commonType(a.type, b.type);
    return { kind: 'int', expr: ite(c, castTo(a.expr, t, span), castTo(b.expr, t, span), t, span), type: t };
  }
  if (a.kind === 'bool' && b.kind === 'bool') return { kind: 'bool', cond: or(and(c, a.cond), and(not(c), b.cond)) };
  if (a.kind === 'struct' && b.kind === 'struct') return { ...a, fields: a.fields.map((f, i) => select(ctx, c, f, b.fields[i]!, span)) };
  if (a.kind === 'int' && b.kind === 'bool') return select(ctx, c, a, { kind: 'int', expr: intOf(ctx, b, span).expr, type: 'i32' }, span);
  if (a.kind === 'pointer' || b.kind === 'pointer') return unsupported(ctx, span, 'a pointer stored in a local array at an index faial-ts does not know');
  const u = a.kind === 'unknown' ? a : b.kind === 'unknown' ? b : null;
  return { kind: 'unknown', ctype: u?.ctype ?? { kind: 'opaque', name: 'value' }, what: u?.what ?? 'a value', span };
}

/** A value of a local array that faial-ts does not follow: an integer is an approximation, named in the report. */
function notFollowed(ctx: Ctx, array: ArrayRef, type: CType, what: string, why: string, span: Span): Value {
  const machine = slotMachine(type);
  if (machine === null) return type.kind === 'struct' ? structOfUnknown(type, what, span) : { kind: 'unknown', ctype: type, what, span };
  const x = havocked(ctx, `${array.name}_v`, machine, { kind: 'approximation', what, why, span }, span);
  return type.kind === 'bool' ? { kind: 'bool', cond: compare('!=', x, constant(0n, machine, span), span) } : { kind: 'int', expr: x, type: machine };
}

/** The one-element array a local is seen as when its address is taken, one per local so that pointers to it join. */
const asArray = new WeakMap<Slot, ArrayRef>();

/**
 * `&x` of a local (or of one of its fields): a pointer to a one-element
 * local array whose cell is the local itself, so that `*p = v` and `f(&x)`
 * with `f` writing `*p` change `x`, as a reference would.
 */
export function addressOfLocal(slot: Slot, leaf: number | null, elem: CType): PointerValue {
  let array = asArray.get(slot);
  if (array === undefined) {
    array = { name: slot.name, space: 'local', elem: slot.ctype, dims: 1, readOnly: false, span: slot.span, cells: { slots: [slot], sizes: [1n] } };
    asArray.set(slot, array);
  }
  return { kind: 'pointer', target: array, prefix: [], offset: null, elem, leaf };
}
