/**
 * C expressions → core values. Reads of memory are emitted as `read`
 * statements where C evaluates them; integer arithmetic becomes typed core
 * arithmetic with C's promotions and usual arithmetic conversions made
 * explicit as casts; floating-point values, opaque types and the results of
 * intrinsics are unknown values; pointers are an array and an offset.
 * Whatever is only evaluated on some paths (the right of `&&`, the arms of
 * `?:`) is lowered as a branch, so its reads happen only when C's do.
 */
import type { Node } from './parse.js';
import type { ArithOp, AtomicOp, BExpr, CmpOp, Expr, MachineType } from '../../core/ast.js';
import type { Span } from '../../core/source.js';
import { and, arith, castTo, compare, constant, exprType, ite, not, or } from './build.js';
import { builtinCall, BUILTIN_VARS, FULL_WARP_MASK, WARP_SIZE } from './builtins.js';
import {
  branch,
  emitIf,
  FALSE,
  fresh,
  isPointer,
  mapPointers,
  havocked,
  letBound,
  notice,
  reject,
  slotMachine,
  spanOf,
  unsupported,
  type AnyPointer,
  type ArrayRef,
  type Ctx,
  type FunctionTable,
  type PointerValue,
  type Slot,
  type Value,
} from './context.js';
import {
  BOOL,
  commonType,
  FLOAT,
  INT,
  inRange,
  integerLiteral,
  isFloatingLiteral,
  isInteger,
  isSigned,
  leafNames,
  leavesOf,
  partAt,
  LONG,
  machineOf,
  NAMED_INTS,
  primitiveType,
  promoted,
  sizeOf,
  typeName,
  ULONG,
  UINT,
  type CType,
  type IntCType,
  type StructCType,
  vectorType,
  VOID,
} from './ctypes.js';
import { fileFunctions, inlineCall, inlined, isPlace, parametersOf, sharedMemoryOf, type CallResult } from './calls.js';
import { braced, callOperator, construct, memberCall, memberOperator, compoundOperator, objectOf, siblingCall, staticMemberCall, subscriptOperator, temporary, thisPlace, isThis, type ClassType } from './members.js';
import { baseType, declared, typeOfDescriptor } from './types.js';
import { launchOnlyCond } from './launch.js';
import { groupFunctionCall, groupMethod } from './groups.js';
import { intervalOf, intToFloatPattern } from './int-floats.js';
import { arithmetic, bitPattern, floatLiteral, fromInteger, ieeeTypeOf, negated as negatedFloat, patternType, signBit, toType, type FloatConstant, type FloatPattern } from './floats.js';
import { observed } from './observe.js';
import { nested } from './nesting.js';
import { addressOfLocal, readLocal, writeLocal } from './locals.js';
import { CURAND, curandCall, MEMORY_CALLS, memoryCall } from './memops.js';
import { classConstant, classOf, instantiated } from './classes.js';

/**
 * Where an lvalue is: a local (or one leaf of a local struct), memory (all
 * leaves of a struct element when `leaf` is null), or, through a pointer that
 * may point into several arrays, one place where `cond` holds and another
 * where it does not (null: a null pointer dereferenced there).
 */
export type Place =
  | { readonly kind: 'slot'; readonly slot: Slot; readonly leaf: number | null; readonly span: Span; readonly part?: Part }
  /**
   * `spread`: a struct element of a view (`(float4 *)a`) whose leaves are consecutive elements of the array, from the last index on;
   * `leafOffset`: added to `leaf`, for an element of an array field at an index known only at run time (`nodes[i].keys[j]`)
   */
  | { readonly kind: 'memory'; readonly array: ArrayRef; readonly index: readonly Expr[]; readonly leaf: number | null; readonly elem: CType; readonly span: Span; readonly spread?: true; readonly part?: Part; readonly leafOffset?: Expr }
  | { readonly kind: 'choice'; readonly cond: BExpr; readonly then: Place | null; readonly else: Place | null; readonly span: Span };

/** A nested struct inside a struct place (`o[i].in`, `nodes[i].keys[2]` of a struct type): its path, its type; `leaf` is its first leaf. */
export interface Part {
  readonly path: string;
  readonly type: StructCType;
}

/** An array field of a struct place (`nodes[i].keys`): only its elements are places; `base.leaf` is element 0's first leaf. */
export interface FieldArray {
  readonly kind: 'fieldArray';
  readonly base: Place & { kind: 'slot' | 'memory' };
  readonly path: string;
  readonly length: number;
  readonly elem: CType;
}

const isPointerNotPlace = (x: Place | FieldArray | AnyPointer): x is AnyPointer => x.kind === 'pointer' || x.kind === 'either' || x.kind === 'null';

const child = (n: Node, field: string): Node => {
  const c = n.childForFieldName(field);
  if (c === null) throw new Error(`tree-sitter: ${n.type} without ${field}`);
  return c;
};

export const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');

// ---------------------------------------------------------------- values

export function rvalue(ctx: Ctx, n: Node): Value {
  return nested(ctx, n, () => rvalueOf(ctx, n));
}

function rvalueOf(ctx: Ctx, n: Node): Value {
  switch (n.type) {
    case 'parenthesized_expression':
      return rvalue(ctx, named(n)[0]!);
    case 'number_literal':
      return literal(ctx, n);
    case 'char_literal':
      return { kind: 'int', expr: constant(charValue(n.text), 'i32', spanOf(n)), type: 'i32' };
    case 'true':
    case 'false':
      return { kind: 'bool', cond: { kind: 'bool', value: n.type === 'true', span: spanOf(n) } };
    case 'string_literal':
    case 'concatenated_string':
    case 'raw_string_literal':
      return { kind: 'unknown', ctype: { kind: 'opaque', name: 'string' }, what: 'a string', span: spanOf(n) };
    case 'identifier':
    case 'qualified_identifier':
    case 'type_identifier':
      return identifierValue(ctx, n);
    case 'type_descriptor':
      // a template argument that names a value reads as a type: `f<blockSize>(…)`
      if (n.childForFieldName('declarator') === null) return rvalue(ctx, child(n, 'type'));
      return reject(ctx, 'misuse', n, `'${n.text}' is a type, not a value`);
    case 'field_expression':
      return fieldValue(ctx, n);
    case 'subscript_expression':
      return loaded(ctx, n);
    case 'pointer_expression':
      return n.child(0)?.type === '&' ? addressOf(ctx, child(n, 'argument'), n) : loaded(ctx, n);
    case 'binary_expression':
      return binary(ctx, n);
    case 'unary_expression':
      return unary(ctx, n);
    case 'update_expression':
      return update(ctx, n);
    case 'assignment_expression':
      return assignment(ctx, n);
    case 'conditional_expression':
      return conditional(ctx, n);
    case 'cast_expression':
      return convert(ctx, rvalue(ctx, child(n, 'value')), typeOfDescriptor(ctx, child(n, 'type')), spanOf(n));
    case 'call_expression':
      return call(ctx, n);
    case 'comma_expression':
      rvalue(ctx, child(n, 'left'));
      return rvalue(ctx, child(n, 'right'));
    case 'sizeof_expression':
      return sizeofValue(ctx, n);
    case 'null':
    case 'nullptr':
      return { kind: 'null', elem: VOID };
    case 'lambda_expression':
      return unsupported(ctx, n, 'lambdas');
    case 'new_expression':
    case 'delete_expression':
      return unsupported(ctx, n, 'dynamic allocation on the device');
    case 'gnu_asm_expression':
      return unsupported(ctx, n, 'inline asm');
    case 'this':
      // `this` as a value: a pointer to the object (`return *this` and `this->x` take its place directly)
      return addressOfPlace(ctx, thisPlace(ctx, n), n);
    case 'compound_literal_expression':
      // `P{1, 2}`, `float4{…}`: a temporary of the type, initialised from the list
      return braced(ctx, typeOfDescriptor(ctx, child(n, 'type')), child(n, 'value'), n);
    default:
      return unsupported(ctx, n, `the expression ${n.type.replace(/_/g, ' ')}`);
  }
}

function charValue(text: string): bigint {
  const body = text.replace(/^[LuU8]*'/, '').replace(/'$/, '');
  const escapes: Record<string, number> = { n: 10, t: 9, r: 13, '0': 0, '\\': 92, "'": 39, '"': 34, a: 7, b: 8, f: 12, v: 11 };
  if (body.startsWith('\\x')) return BigInt(parseInt(body.slice(2), 16));
  if (/^\\[0-7]+$/.test(body)) return BigInt(parseInt(body.slice(1), 8));
  if (body.startsWith('\\')) return BigInt(escapes[body[1]!] ?? body.charCodeAt(1));
  return BigInt(body.codePointAt(0) ?? 0);
}

/** An integer literal's value and C type (C11 6.4.4.1, LP64); a floating literal is an unknown value, exact when floats.ts reads it. */
function literal(ctx: Ctx, n: Node): Value {
  const span = spanOf(n);
  // tree-sitter reads `-1` as one literal: it is the negation of 1, as C reads it
  const sign = /^[-+]/.exec(n.text)?.[0];
  if (sign !== undefined) {
    const v = literalValue(ctx, n, n.text.slice(1).trim(), span);
    const exact = exactFloat(v);
    if (sign === '-' && exact !== null) return floatConstant(negatedFloat(exact), `the floating-point constant ${n.text}`, span);
    if (sign === '+' || v.kind !== 'int') return v;
    return isSigned(v.type) ? { kind: 'int', expr: arith('-', constant(0n, v.type, span), v.expr, v.type, span), type: v.type } : { kind: 'int', expr: unsignedNegation(v, span), type: v.type };
  }
  return literalValue(ctx, n, n.text, span);
}

function literalValue(ctx: Ctx, n: Node, written: string, span: Span): Value {
  const text = written.replace(/'/g, '');
  if (isFloatingLiteral(text)) {
    const exact = /^0[xX]/.test(text) ? null : floatLiteral(text);
    const what = `the floating-point constant ${n.text}`;
    return exact === null ? { kind: 'unknown', ctype: FLOAT, what, span } : floatConstant(exact, what, span);
  }
  const lit = integerLiteral(text);
  if (lit === null) return reject(ctx, 'misuse', n, `'${n.text}' is not an integer constant faial-ts reads`);
  const type = machineOf(lit.type);
  const value = lit.value;
  if (!inRange(value, type)) return reject(ctx, 'misuse', n, `the constant ${n.text} does not fit in 64 bits`);
  return { kind: 'int', expr: constant(value, type, span), type };
}

function identifierValue(ctx: Ctx, n: Node): Value {
  const name = n.text;
  const span = spanOf(n);
  const binding = ctx.scope.lookup(name);
  if (binding === undefined) {
    if (name === 'warpSize') return { kind: 'int', expr: constant(WARP_SIZE, 'i32', span), type: 'i32' };
    const constantValue = ctx.unit.constants.get(name);
    if (constantValue !== undefined) return constantValue;
    if (BUILTIN_VARS.has(name)) return reject(ctx, 'misuse', n, `${name} is a dim3: use ${name}.x, ${name}.y or ${name}.z`);
    // <stddef.h>'s NULL, when no header the front end reads defines it
    if (name === 'NULL') return { kind: 'null', elem: VOID };
    if (ctx.unit.functions.has(name)) return functionPointer(name, span);
    // `C::N`, `C<4>::N`: a static constant of a class of the file
    const member = n.type === 'qualified_identifier' ? classConstant(ctx, child(n, 'scope'), child(n, 'name').text) : null;
    if (member !== null) return member;
    const uncomputed = ctx.unit.uncomputed.get(name);
    if (uncomputed !== undefined)
      return unsupported(ctx, n, `the constant ${name}, whose initialiser faial-ts does not compute (${uncomputed})`, ['faial-ts computes a constant from literals, other constants and operators, not through calls; write the value itself']);
    return reject(ctx, 'unknownName', n, `unknown name '${name}'`, ['declare it, or define it with -D NAME=VALUE if it is a macro']);
  }
  switch (binding.kind) {
    case 'local':
      return slotValue(ctx, binding.slot, span);
    case 'array':
      if (binding.scalar) return readPlace(ctx, { kind: 'memory', array: binding.array, index: [constant(0n, 'i32', span)], leaf: null, elem: binding.array.elem, span }, span);
      return { kind: 'pointer', target: binding.array, prefix: [], offset: null, elem: binding.array.elem, leaf: null };
    case 'value':
      return binding.value;
    case 'alias':
      return load(ctx, { ...binding.place, span }, span);
    case 'type':
      return reject(ctx, 'misuse', n, `'${name}' is a type, not a value`);
    case 'fieldArray':
      return arrayFieldAsPointer(ctx, n);
    case 'object':
      return reject(ctx, 'misuse', n, `'${name}' is not a value`);
  }
}

/** A local's current value; an uninitialised integer gets its unknown value once, here. */
export function slotValue(ctx: Ctx, slot: Slot, span: Span): Value {
  const v = ctx.values.get(slot);
  if (v === undefined) return reject(ctx, 'misuse', span, `'${slot.name}' is used outside its scope`);
  if (v.kind === 'unknown' && isInteger(slot.ctype)) {
    const type = slotMachine(slot.ctype)!;
    const x = havocked(ctx, slot.name, type, { kind: 'value', what: v.what, span: v.span }, span);
    const known: Value = slot.ctype.kind === 'bool' ? { kind: 'bool', cond: compare('!=', x, constant(0n, type, span), span) } : { kind: 'int', expr: x, type };
    ctx.values.set(slot, known);
    return known;
  }
  return v;
}

function fieldValue(ctx: Ctx, n: Node): Value {
  const arg = child(n, 'argument');
  const field = child(n, 'field').text;
  if (arg.type === 'identifier' && BUILTIN_VARS.has(arg.text) && ctx.scope.lookup(arg.text) === undefined) {
    if (field !== 'x' && field !== 'y' && field !== 'z') return reject(ctx, 'misuse', n, `${arg.text} has fields x, y and z`);
    const span = spanOf(n);
    const builtin: Expr = { kind: 'builtin', name: arg.text as 'threadIdx', axis: field, span };
    ctx.k.builtins.add(`${builtin.name}.${field}`);
    return { kind: 'int', expr: { kind: 'cast', type: 'u32', operand: builtin, span }, type: 'u32' };
  }
  // a field of a struct value that is not in a place: a call's result (`block.group_index().x`), an operator's (`(a + b).x`)
  if ((arg.type === 'call_expression' || !isPlaceable(ctx, arg)) && n.child(1)?.type === '.') {
    const v = rvalue(ctx, arg);
    if (v.kind !== 'struct') return reject(ctx, 'misuse', n, `${arg.text} is not a struct`);
    const at = partAt(v.ctype, field);
    if (at === null || at.length !== undefined) return reject(ctx, 'misuse', n, `${typeName(v.ctype)} has no field '${field}' faial-ts follows in a value`);
    return partOfValue(v, at.first, at.type);
  }
  return loaded(ctx, n);
}

/** The value of an lvalue expression: a local's, or memory read. */
function loaded(ctx: Ctx, n: Node): Value {
  const p = placeOrPointer(ctx, n);
  if (isPointerNotPlace(p)) return p;
  return load(ctx, p, spanOf(n));
}

export function load(ctx: Ctx, p: Place, span: Span, hint?: string): Value {
  if (p.kind === 'memory') return readPlace(ctx, p, span, hint);
  if (p.kind === 'choice') return throughChoice(ctx, p, span, (q) => load(ctx, q, span, hint));
  const v = slotValue(ctx, p.slot, span);
  if (p.leaf === null) return v;
  if (v.kind !== 'struct') return reject(ctx, 'misuse', span, `'${p.slot.name}' is not a struct`);
  return partOfValue(v, p.leaf, placeType(p));
}

/** The value of the leaf (or the nested struct) of a struct value that starts at `leaf`. */
export function partOfValue(v: Value & { kind: 'struct' }, leaf: number, type: CType): Value {
  if (type.kind !== 'struct') return v.fields[leaf]!;
  return { kind: 'struct', ctype: type, fields: v.fields.slice(leaf, leaf + leavesOf(type).length) };
}

/** A struct value with the leaf (or the nested struct) that starts at `leaf` replaced by `part`. */
export function withPartValue(ctx: Ctx, whole: Value & { kind: 'struct' }, leaf: number, type: CType, part: Value, span: Span): Value {
  if (type.kind !== 'struct') return { ...whole, fields: whole.fields.map((f, i) => (i === leaf ? part : f)) };
  const n = leavesOf(type).length;
  const parts = part.kind === 'struct' ? part.fields : leavesOf(type).map((l) => unknownOf(l.type, `a field of ${typeName(type)}`, span));
  if (parts.length !== n) return reject(ctx, 'misuse', span, `this value is not a ${typeName(type)}`);
  return { ...whole, fields: whole.fields.map((f, i) => (i >= leaf && i < leaf + n ? parts[i - leaf]! : f)) };
}

// ---------------------------------------------------------------- places

/** The place an lvalue names; a subscript of a multi-dimensional array that stops early names a row (a pointer). */
export function placeOrPointer(ctx: Ctx, n: Node): Place | AnyPointer {
  return nested(ctx, n, () => placeOrPointerOf(ctx, n));
}

function placeOrPointerOf(ctx: Ctx, n: Node): Place | AnyPointer {
  const span = spanOf(n);
  switch (n.type) {
    case 'parenthesized_expression':
      return placeOrPointer(ctx, named(n)[0]!);
    case 'type_identifier':
    case 'identifier': {
      const b = ctx.scope.lookup(n.text);
      if (b?.kind === 'local') return { kind: 'slot', slot: b.slot, leaf: null, span };
      if (b?.kind === 'alias') return { ...b.place, span };
      if (b?.kind === 'array' && b.scalar) return { kind: 'memory', array: b.array, index: [constant(0n, 'i32', span)], leaf: null, elem: b.array.elem, span };
      const v = rvalue(ctx, n);
      if (isPointer(v)) return v;
      return reject(ctx, 'misuse', n, `'${n.text}' cannot be assigned`);
    }
    case 'subscript_expression': {
      const arg = unparenthesised(child(n, 'argument'));
      const member = arg.type === 'identifier' ? ctx.scope.lookup(arg.text) : undefined;
      const field = member?.kind === 'fieldArray' ? member.field : arg.type === 'field_expression' && !isBuiltinField(ctx, arg) ? fieldPlace(ctx, arg) : null;
      if (field !== null && !isPointerNotPlace(field) && field.kind === 'fieldArray') {
        const indices = named(child(n, 'indices'));
        if (indices.length !== 1) return unsupported(ctx, n, 'a subscript with several indices');
        return fieldElement(ctx, field, intOf(ctx, rvalue(ctx, indices[0]!), spanOf(indices[0]!)), n);
      }
      // an object whose class defines operator[] (through its place, so that a reference it returns into the object is the object's)
      const object = field !== null ? field : isPlaceable(ctx, arg) || arg.type === 'call_expression' ? placeOrPointer(ctx, arg) : null;
      const cls = object === null || isPointerNotPlace(object) ? null : classOf(placeType(object));
      if (cls !== null) return subscriptOperator(ctx, object as Place, cls, named(child(n, 'indices')), n);
      const base = asPointer(ctx, object === null ? rvalue(ctx, arg) : isPointerNotPlace(object) ? object : load(ctx, object, spanOf(arg)));
      const indices = named(child(n, 'indices'));
      if (indices.length !== 1) return unsupported(ctx, n, 'a subscript with several indices');
      const index = intOf(ctx, rvalue(ctx, indices[0]!), spanOf(indices[0]!));
      if (!isPointer(base)) return reject(ctx, 'unplaced', n, `cannot subscript '${child(n, 'argument').text}': it is not an array or a pointer into one`);
      return elementOf(ctx, base, index, span);
    }
    case 'pointer_expression': {
      if (n.child(0)?.type !== '*') return reject(ctx, 'misuse', n, 'an address is not an lvalue');
      if (isThis(child(n, 'argument'))) return thisPlace(ctx, n);
      const base = asPointer(ctx, rvalue(ctx, child(n, 'argument')));
      if (!isPointer(base)) return reject(ctx, 'unplaced', n, `cannot dereference '${child(n, 'argument').text}': it is not a pointer into an array`);
      return elementOf(ctx, base, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
    }
    case 'field_expression': {
      const p = fieldPlace(ctx, n);
      if (!isPointerNotPlace(p) && p.kind === 'fieldArray') return arrayFieldAsPointer(ctx, n);
      return p;
    }
    case 'call_expression': {
      // a function returning a reference names a place; another call's value is a temporary
      const r = callResult(ctx, n);
      if (isPlace(r)) return r;
      return isPointer(r) ? r : temporary(ctx, r, n);
    }
    default:
      return reject(ctx, 'misuse', n, `'${n.text}' is not an lvalue faial-ts can follow`);
  }
}

/** A field's place: a leaf, a nested struct, or an array field (whose elements only are places). */
function fieldPlace(ctx: Ctx, n: Node): Place | FieldArray | AnyPointer {
  const span = spanOf(n);
  {
    {
      // `x.in.a`: the path through nested structs down to one leaf, from the innermost non-`.` base
      let outer = n;
      let path = child(n, 'field').text;
      while (outer.child(1)?.type !== '->' && child(outer, 'argument').type === 'field_expression' && !isBuiltinField(ctx, child(outer, 'argument'))) {
        outer = child(outer, 'argument');
        path = `${child(outer, 'field').text}.${path}`;
      }
      const arrow = outer.child(1)?.type === '->';
      const arg = child(outer, 'argument');
      const field = path;
      let base: Place | AnyPointer;
      if (arrow && isThis(arg)) {
        base = thisPlace(ctx, arg);
      } else if (arrow) {
        const p = asPointer(ctx, rvalue(ctx, arg));
        if (!isPointer(p)) return reject(ctx, 'unplaced', n, `cannot dereference '${arg.text}': it is not a pointer into an array`);
        base = elementOf(ctx, p, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
      } else {
        base = placeOrPointer(ctx, arg);
      }
      if (isPointerNotPlace(base)) return reject(ctx, 'misuse', n, `'${arg.text}' is an array, not a struct`);
      return withField(ctx, base, field, spanOf(n), arg.text);
    }
  }
}

const arrayFieldAsPointer = (ctx: Ctx, n: Node): never =>
  unsupported(ctx, n, `an array field of a struct used as a pointer (${n.text})`, ['faial-ts follows an array field\'s elements (`s.keys[j]`), not a pointer to them']);

/**
 * Element `i` of an array field: its leaves are `i * stride` after element
 * 0's. A constant index is checked against the field's length; an index known
 * only at run time is an offset added to the leaf index of each access (in
 * memory; a local's leaves are followed one by one, so there it is rejected).
 * An index outside the field is C's undefined behaviour, not checked, as for
 * arrays.
 */
export function fieldElement(ctx: Ctx, f: FieldArray, i: IntValue, n: Node): Place {
  const span = spanOf(n);
  const stride = leavesOf(f.elem).length;
  const first = f.base.leaf!;
  const k = i.expr.kind === 'int' ? i.expr.value : null;
  if (k !== null && (k < 0n || k >= BigInt(f.length))) return reject(ctx, 'misuse', n, `index ${k} is out of the bounds of the field ${f.path}[${f.length}]`);
  const path = `${f.path}[${k ?? 0n}]`;
  const { part: _, ...base } = f.base;
  const at = { ...base, leaf: first + Number(k ?? 0n) * stride, span };
  const placed = f.elem.kind === 'struct' ? { ...at, part: { path, type: f.elem } } : at;
  if (k !== null) return placed;
  if (placed.kind === 'slot' && f.length <= MAX_CHOSEN_ELEMENTS) return chosenElement(ctx, f, i, n);
  if (placed.kind !== 'memory' || placed.array.space === 'local' || placed.spread === true) {
    return unsupported(ctx, n, `an array field of a local struct at an index known only at run time (${n.text})`, [`faial-ts follows those of at most ${MAX_CHOSEN_ELEMENTS} elements; index it with a constant, or keep the struct in shared or global memory`]);
  }
  const scaled = arith('*', castTo(i.expr, 'i32', span), constant(BigInt(stride), 'i32', span), 'i32', span);
  return { ...placed, leafOffset: placed.leafOffset === undefined ? scaled : arith('+', placed.leafOffset, scaled, 'i32', span) };
}

/** The most elements an array field of a local struct may have to be indexed at run time (each access is a choice between them). */
const MAX_CHOSEN_ELEMENTS = 16;

/**
 * Element `i` of an array field of a local struct (`v.d[k]` of a small vector
 * class), with `i` known only at run time: a choice between the elements by
 * `i == j`, so a read or write is of the element `i` names; an index outside
 * the field is C's undefined behaviour, which leaves the scope (as a null
 * pointer dereferenced does).
 */
function chosenElement(ctx: Ctx, f: FieldArray, i: IntValue, n: Node): Place {
  const span = spanOf(n);
  let chosen: Place | null = null;
  for (let j = f.length - 1; j >= 0; j--) {
    const at = fieldElement(ctx, f, { expr: constant(BigInt(j), i.type, span), type: i.type }, n);
    chosen = { kind: 'choice', cond: compare('==', i.expr, constant(BigInt(j), i.type, span), span), then: at, else: chosen, span };
  }
  return chosen!;
}

/** `threadIdx.x` and the like: not a struct's field. */
function isBuiltinField(ctx: Ctx, n: Node): boolean {
  const arg = child(n, 'argument');
  return arg.type === 'identifier' && BUILTIN_VARS.has(arg.text) && ctx.scope.lookup(arg.text) === undefined;
}

export function placeOf(ctx: Ctx, n: Node): Place {
  const p = placeOrPointer(ctx, n);
  if (isPointerNotPlace(p)) return reject(ctx, 'misuse', n, `'${n.text}' is an array, not an element`);
  return p;
}

/** The type of the value a place holds. */
export function placeType(p: Place): CType {
  if (p.kind === 'choice') return placeType((p.then ?? p.else)!);
  if (p.part !== undefined) return p.part.type;
  const whole = p.kind === 'memory' ? p.elem : p.slot.ctype;
  return p.leaf === null ? whole : leavesOf(whole)[p.leaf]!.type;
}

/** The field `field` of the struct at `base`; `owner` names the base in messages, `at` is where the field is named. */
export function withField(ctx: Ctx, base: Place, field: string, at: Span, owner: string): Place | FieldArray {
  if (base.kind === 'choice') {
    const side = (q: Place | null): Place | null => {
      if (q === null) return null;
      const r = withField(ctx, q, field, at, owner);
      return r.kind === 'fieldArray' ? unsupported(ctx, at, 'an array field through a pointer that may point into several arrays') : r;
    };
    return { ...base, then: side(base.then), else: side(base.else), span: at };
  }
  const here = placeType(base);
  // a union's members share its storage: not modelled
  if (here.kind === 'opaque' && /^union\b/.test(here.name)) return unsupported(ctx, at, `unions (${here.name.replace(/\s+/g, ' ')})`, ['use a struct, or one member type and casts']);
  if (here.kind !== 'struct') return reject(ctx, 'misuse', at, `'${owner}' is a ${typeName(here)}, not a struct`);
  const whole = base.kind === 'memory' ? base.elem : base.slot.ctype;
  // the path from the element (or local) down: a nested struct's place keeps its own path
  const wanted = base.part === undefined ? field : `${base.part.path}.${field}`;
  const part = partAt(whole, wanted);
  if (part === null) return reject(ctx, 'misuse', at, `${typeName(here)} has no field '${field}'`);
  if (part.type.kind === 'opaque' && part.type.name.endsWith('[]')) return unsupported(ctx, at, `an array field of a struct (${field}) of several dimensions or of a size faial-ts does not know`, ['faial-ts models array fields of one dimension and a constant size']);
  const { part: _, ...rest } = base;
  const placed = { ...rest, leaf: part.first, span: at };
  if (part.type.kind === 'reference') return referredBy(ctx, placed, `${typeName(here)}::${field}`, at);
  if (part.length !== undefined) return { kind: 'fieldArray', base: placed, path: wanted, length: part.length, elem: part.type };
  return part.type.kind === 'struct' ? { ...placed, part: { path: wanted, type: part.type } } : placed;
}

/**
 * The object a reference member names (`TempStorage &temp;`): its leaf holds
 * a pointer to the place it was bound to by the constructor or the
 * aggregate's initialiser (bindReferenceMember), which no assignment
 * changes; one not bound to a place faial-ts follows is rejected, never
 * taken for a copy.
 */
function referredBy(ctx: Ctx, leaf: Place, what: string, at: Span): Place {
  const v = load(ctx, leaf, at);
  if (!isPointer(v)) return unsupported(ctx, at, `the reference member ${what}, bound to no object faial-ts follows here`, ['faial-ts follows a reference member bound by a constructor or an initialiser of a local object']);
  const p = elementOf(ctx, v, { expr: constant(0n, 'i32', at), type: 'i32' }, at);
  return isPointerNotPlace(p) ? unsupported(ctx, at, `the reference member ${what}, bound to an array`) : p;
}

/** Binds the reference member `field` of the local object at `object` to `target` (a member initialiser `temp(storage)`, an aggregate's value). */
export function bindReferenceMember(ctx: Ctx, object: Place, field: string, target: Node, at: Span): void {
  if (object.kind !== 'slot') return unsupported(ctx, at, `a reference member (${field}) of an object that is not a local`);
  const whole = object.slot.ctype;
  const part = partAt(whole, object.part === undefined ? field : `${object.part.path}.${field}`);
  if (part === null || part.type.kind !== 'reference') return reject(ctx, 'misuse', at, `${field} is not a reference member`);
  const r = referent(ctx, part.type.to, false, target, target);
  if (r.kind !== 'alias') return unsupported(ctx, target, `a reference member (${field}) bound to a value`);
  const pointer = addressOfPlace(ctx, r.place, target);
  const value = slotValue(ctx, object.slot, at);
  if (value.kind !== 'struct') return reject(ctx, 'misuse', at, `'${object.slot.name}' is not a struct`);
  ctx.values.set(object.slot, withPartValue(ctx, value, part.first, part.type, pointer, at));
}

/** `p[i]`: an element, or a row of a multi-dimensional array. */
export function element(ctx: Ctx, p: PointerValue, i: { expr: Expr; type: MachineType }, span: Span): Place | PointerValue {
  if (p.leaf !== null) {
    if (!(i.expr.kind === 'int' && i.expr.value === 0n)) return unsupported(ctx, span, 'pointer arithmetic on a pointer to a struct field');
  }
  const index = p.offset === null ? i.expr : addIndex(p.offset, i, span);
  if (p.view !== undefined) {
    // element i of a view: the target's elements from base + (offset + i) * per on
    const scaled = arith('*', castTo(index, 'i64', span), constant(BigInt(p.view.per), 'i64', span), 'i64', span);
    const at = p.view.base === null ? scaled : addIndex(p.view.base, { expr: scaled, type: 'i64' }, span);
    if (p.prefix.length + 1 < p.target.dims) return unsupported(ctx, span, 'a vector view of a row of a multi-dimensional array');
    return { kind: 'memory', array: p.target, index: [...p.prefix, at], leaf: p.leaf, elem: p.elem, span, spread: true };
  }
  if (p.prefix.length + 1 < p.target.dims) return { ...p, prefix: [...p.prefix, index], offset: null };
  // a pointer to a field points into a whole element: the place's type is the element's, its leaf the field
  const within = { ...(p.part === undefined ? {} : { part: p.part }), ...(p.leafOffset === undefined ? {} : { leafOffset: p.leafOffset }) };
  return { kind: 'memory', array: p.target, index: [...p.prefix, index], leaf: p.leaf, elem: p.leaf === null ? p.elem : p.target.elem, span, ...within };
}

/**
 * `p[i]` through a pointer of any form: through one that may point into
 * several arrays, the element of each under its condition; a null pointer
 * dereferenced is C's undefined behaviour (the thread leaves the scope), and
 * one that is null on every path is an error.
 */
export function elementOf(ctx: Ctx, p: AnyPointer, i: { expr: Expr; type: MachineType }, span: Span): Place | AnyPointer {
  if (p.kind === 'pointer') return element(ctx, p, i, span);
  if (p.kind === 'null' || isNullEverywhere(p)) return reject(ctx, 'misuse', span, 'a null pointer dereferenced');
  const side = (q: AnyPointer): Place | AnyPointer | null => (q.kind === 'null' ? null : elementOf(ctx, q, i, span));
  const then = side(p.then);
  const other = side(p.else);
  const rows = [then, other].filter((x) => x !== null && isPointerNotPlace(x));
  if (rows.length === 0) return { kind: 'choice', cond: p.cond, then: then as Place | null, else: other as Place | null, span };
  if (rows.length === 2 || then === null || other === null) {
    const asPointer = (x: Place | AnyPointer | null): AnyPointer => (x === null ? { kind: 'null', elem: p.elem } : (x as AnyPointer));
    return { kind: 'either', cond: p.cond, then: asPointer(then), else: asPointer(other), elem: p.elem };
  }
  return unsupported(ctx, span, 'a pointer that may point into arrays of different dimensions');
}

function isNullEverywhere(p: AnyPointer): boolean {
  return p.kind === 'null' || (p.kind === 'either' && isNullEverywhere(p.then) && isNullEverywhere(p.else));
}

/**
 * An access through a pointer that may point into several arrays: each
 * array's access under its condition, the values joined after. A side where
 * the pointer is null is undefined behaviour: `assume false`, the thread that
 * takes it is outside the scope of a proof.
 */
function throughChoice(ctx: Ctx, p: Place & { kind: 'choice' }, span: Span, access: (q: Place) => Value): Value {
  const slot: Slot = { name: 'via', ctype: placeType(p), span, what: 'the value accessed through a pointer into one of several arrays' };
  ctx.values.set(slot, { kind: 'void' });
  const side = (q: Place | null) =>
    branch(ctx, () => {
      if (q === null) ctx.b.stmt({ kind: 'assume', cond: FALSE, span });
      else ctx.values.set(slot, access(q));
    });
  emitIf(ctx, p.cond, side(p.then), side(p.else), span);
  const v = ctx.values.get(slot)!;
  ctx.values.delete(slot);
  return v.kind === 'void' ? { kind: 'unknown', ctype: slot.ctype, what: slot.what!, span } : v;
}

function addIndex(offset: Expr, i: { expr: Expr; type: MachineType }, span: Span): Expr {
  const t = commonType(exprType(offset) ?? 'i64', i.type);
  return arith('+', castTo(offset, t, span), castTo(i.expr, t, span), t, span);
}

function addressOf(ctx: Ctx, arg: Node, n: Node): Value {
  const f = unparenthesised(arg);
  if (f.type === 'identifier' && ctx.scope.lookup(f.text) === undefined && ctx.unit.functions.has(f.text)) return functionPointer(f.text, spanOf(n));
  const p = placeOrPointer(ctx, arg);
  if (isPointerNotPlace(p)) return p;
  return addressOfPlace(ctx, p, n);
}

/** What `return e;` gives in a function returning a reference: a pointer to the place `e` names. */
export function referencePointer(ctx: Ctx, n: Node): AnyPointer {
  const p = placeOrPointer(ctx, n);
  if (isPointerNotPlace(p)) return unsupported(ctx, n, 'a reference to an array returned');
  return addressOfPlace(ctx, p, n);
}

function addressOfPlace(ctx: Ctx, p: Place, n: Node): AnyPointer {
  if (p.kind === 'choice') {
    const side = (q: Place | null): AnyPointer => (q === null ? { kind: 'null', elem: placeType(p) } : addressOfPlace(ctx, q, n));
    return { kind: 'either', cond: p.cond, then: side(p.then), else: side(p.else), elem: placeType(p) };
  }
  // a nested struct, or an array field's element at an index known at run time: the pointer keeps which (element() puts it back)
  const within = { ...(p.part === undefined ? {} : { part: p.part }), ...(p.kind === 'memory' && p.leafOffset !== undefined ? { leafOffset: p.leafOffset } : {}) };
  if (p.kind === 'slot') return { ...addressOfLocal(p.slot, p.leaf, placeType(p)), ...within };
  if (p.spread === true) return unsupported(ctx, n, 'the address of an element of a vector view of an array (`&((float4 *)a)[i]`)');
  const last = p.index[p.index.length - 1]!;
  return { kind: 'pointer', target: p.array, prefix: p.index.slice(0, -1), offset: last, elem: placeType(p), leaf: p.leaf, ...within };
}

// ---------------------------------------------------------------- references

/** What a reference is bound to: the place of an lvalue (an alias), or, for a `const T &` or `T &&` bound to a value, that value. */
export type Referent = { readonly kind: 'alias'; readonly place: Place } | { readonly kind: 'value'; readonly value: Value };

/** Whether C++ reads `n` as an lvalue faial-ts can place: a local, a reference, a scalar in memory, an element, a field, `*p`. */
export function isPlaceable(ctx: Ctx, n: Node): boolean {
  switch (n.type) {
    case 'parenthesized_expression':
      return isPlaceable(ctx, named(n)[0]!);
    // a name the parser read as a type (`T v(a);`, a declaration of a variable) names a variable too
    case 'type_identifier':
    case 'identifier': {
      const b = ctx.scope.lookup(n.text);
      return b?.kind === 'local' || b?.kind === 'alias' || (b?.kind === 'array' && b.scalar);
    }
    case 'subscript_expression':
      return true;
    case 'pointer_expression':
      return n.child(0)?.type === '*';
    case 'field_expression': {
      const arg = child(n, 'argument');
      return !(arg.type === 'identifier' && BUILTIN_VARS.has(arg.text) && ctx.scope.lookup(arg.text) === undefined);
    }
    default:
      return false;
  }
}

/** Whether a reference to `declared` may name an object of type `actual` (opaque: a template type parameter or `auto`, which C++ deduces). */
function sameType(declared: CType, actual: CType): boolean {
  if (declared.kind === 'opaque') return true;
  switch (declared.kind) {
    case 'int':
      return actual.kind === 'int' && actual.bits === declared.bits && actual.signed === declared.signed;
    case 'float':
    case 'struct':
      return actual.kind === declared.kind && actual.name === declared.name;
    case 'pointer':
      return actual.kind === 'pointer' && sameType(declared.to, actual.to);
    case 'bool':
    case 'void':
      return actual.kind === declared.kind;
    case 'reference':
      return sameType(declared.to, actual);
  }
}

/**
 * A reference `T &name = init` (a declaration, or a parameter and its
 * argument): an lvalue's place is aliased, its index evaluated here as C++
 * does; a `const T &` or `T &&` bound to a value (or to an object of another
 * type, through a temporary) holds that value. Anything else is rejected.
 */
export function referent(ctx: Ctx, declared: CType, bindsValues: boolean, init: Node, at: Node): Referent {
  const span = spanOf(init);
  // a call of a function returning a reference names a place; any other call gives a value
  const called = init.type === 'call_expression' ? callResult(ctx, init) : null;
  if (isPlaceable(ctx, init) || (called !== null && isPlace(called))) {
    const p = called !== null && isPlace(called) ? called : placeOrPointer(ctx, init);
    if (isPointerNotPlace(p)) return unsupported(ctx, at, 'a reference to an array');
    if (p.kind === 'choice') return unsupported(ctx, at, 'a reference to an element through a pointer that may point into several arrays');
    // a group of cooperative groups is a value that does not change: a reference to one is a copy
    const held = p.kind === 'slot' ? ctx.values.get(p.slot) : undefined;
    if (held?.kind === 'group') return { kind: 'value', value: held };
    if (sameType(declared, placeType(p))) return { kind: 'alias', place: p };
    if (bindsValues) return { kind: 'value', value: convert(ctx, load(ctx, p, span), declared, span) };
    return reject(ctx, 'misuse', at, `a reference to ${typeName(declared)} cannot name '${init.text}', a ${typeName(placeType(p))}`);
  }
  const v = called !== null && !isPlace(called) ? called : rvalue(ctx, init);
  if (v.kind === 'group') return { kind: 'value', value: v };
  if (!bindsValues) return unsupported(ctx, at, `a non-const reference bound to '${shortText(init)}', which is not a variable or an element faial-ts can place`);
  return { kind: 'value', value: declared.kind === 'opaque' ? v : convert(ctx, v, declared, span) };
}

// ---------------------------------------------------------------- memory

/** The index of an access: the element's indices, then its struct leaf when the element is a struct. */
function accessIndex(array: ArrayRef, index: readonly Expr[], leaf: number, span: Span, spread = false, leafOffset?: Expr): Expr[] {
  if (leafOffset !== undefined) return [...index, arith('+', constant(BigInt(leaf), 'i32', span), leafOffset, 'i32', span)];
  if (spread) {
    const last = index[index.length - 1]!;
    return [...index.slice(0, -1), leaf === 0 ? last : addIndex(last, { expr: constant(BigInt(leaf), 'i64', span), type: 'i64' }, span)];
  }
  return array.elem.kind === 'struct' ? [...index, constant(BigInt(leaf), 'i32', span)] : [...index];
}

export function readPlace(ctx: Ctx, p: Place & { kind: 'memory' }, span: Span, hint?: string): Value {
  const whole = placeType(p);
  if (p.array.space === 'local') return readLocal(ctx, p, whole, span);
  if (whole.kind === 'struct') {
    const leaves = leavesOf(whole);
    const first = p.leaf ?? 0;
    return { kind: 'struct', ctype: whole, fields: leaves.map((_, k) => readLeaf(ctx, p, first + k, leaves[k]!.type, span, undefined)) };
  }
  return readLeaf(ctx, p, p.leaf ?? 0, whole, span, hint);
}

function readLeaf(ctx: Ctx, p: Place & { kind: 'memory' }, leaf: number, type: CType, span: Span, hint: string | undefined): Value {
  const source = p.span;
  const name = fresh(ctx, hint ?? `${p.array.name}_v`);
  ctx.k.defs.set(name, null);
  const index = accessIndex(p.array, p.index, leaf, source, p.spread, p.leafOffset);
  const arrayName = { text: p.array.name, span: p.array.span };
  ctx.b.binder(name, span, (body) => ({ kind: 'read', local: { text: name, span }, array: arrayName, index, source, body, span }));
  if (type.kind === 'int' || type.kind === 'bool') {
    const t = slotMachine(type)!;
    const v: Expr = { kind: 'var', name, type: t, span: source };
    return type.kind === 'bool' ? { kind: 'bool', cond: compare('!=', v, constant(0n, t, source), source) } : { kind: 'int', expr: v, type: t };
  }
  if (type.kind === 'pointer') return pointerFromMemory(ctx, type.to, hint === undefined ? `the pointer read from ${p.array.name} here` : `${hint}, a pointer read from ${p.array.name},`, source);
  return { kind: 'unknown', ctype: type, what: `the value of ${p.array.name} read here`, span: source, local: { kind: 'var', name, span: source } };
}

/**
 * A pointer read from memory: faial-ts does not follow which array a stored
 * pointer points into, so it may be any array of its element type the
 * kernel can write (global or shared), or memory reached only through
 * pointers (one array per element type), at any offset. Which one is an
 * unknown value naming the pointer, so every alarm through it is `possible`
 * (never confirmed), and no alias is assumed away.
 */
function pointerFromMemory(ctx: Ctx, elem: CType, what: string, span: Span): AnyPointer {
  const own = pointeeMemory(ctx, elem, span);
  const byName = new Map<string, ArrayRef>();
  for (const a of ctx.k.arrayRefs.values()) if (a.space !== 'local' && !a.readOnly && a !== own && mayPointInto(elem, a.elem)) byName.set(a.name, a);
  const candidates = [...byName.values()];
  // a pointer into the fields of a struct array (or, as a char pointer, into the bytes of any array) would be an alias faial-ts does not model: fail closed
  const inside = [...ctx.k.arrayRefs.values()].find((a) => a.space !== 'local' && !a.readOnly && a !== own && !byName.has(a.name) && mayPointInside(elem, a.elem));
  if (inside !== undefined) {
    unsupported(ctx, span, `${what} may point into the ${typeName(inside.elem)} elements of ${inside.name}, an alias faial-ts does not model`, [`faial-ts follows a pointer read from memory only into arrays of its own element type (${typeName(elem)})`]);
  }
  const why = 'faial-ts does not follow pointers held in memory or in a struct: it may point into any array of its element type';
  const origin = (x: string) => ({ kind: 'approximation', what: x, why, span }) as const;
  const which = candidates.length === 0 ? null : havocked(ctx, 'which', 'i32', origin(`which array ${what} points into`), span);
  const offset = havocked(ctx, 'off', 'i64', origin(`the offset of ${what}`), span);
  const at = (a: ArrayRef): PointerValue => ({
    kind: 'pointer',
    target: a,
    prefix: Array.from({ length: a.dims - 1 }, () => havocked(ctx, 'row', 'i64', origin(`the row of ${a.name} ${what} points into`), span)),
    offset,
    elem: a.elem,
    leaf: null,
  });
  let p: AnyPointer = at(own);
  for (let k = candidates.length - 1; k >= 0; k--) {
    p = { kind: 'either', cond: compare('==', which!, constant(BigInt(k), 'i32', span), span), then: at(candidates[k]!), else: p, elem };
  }
  const names = [...candidates.map((a) => a.name), `memory of its own (${own.name})`];
  notice(ctx, 'possibleAlias', span, `${what} may point into ${names.join(', ')}: faial-ts does not follow pointers held in memory or in a struct, so alarms through it are possible`);
  return p;
}

/** A pointer whose value faial-ts does not know (a pointer field of a struct parameter): as one read from memory, any array of its element type. */
export function asPointer(ctx: Ctx, v: Value): Value {
  if (v.kind !== 'unknown' || v.ctype.kind !== 'pointer') return v;
  return pointerFromMemory(ctx, v.ctype.to, v.what, v.span);
}

/** Whether a `T *` read from memory may point into an array of `elem`s: the same type, or one whose type is not known. */
function mayPointInto(t: CType, elem: CType): boolean {
  if (t.kind === 'opaque' || elem.kind === 'opaque' || t.kind === 'void') return true;
  return typeName(t) === typeName(elem) || (t.kind === 'int' && elem.kind === 'int' && t.bits === elem.bits);
}

function pointsIntoLocal(p: AnyPointer): boolean {
  switch (p.kind) {
    case 'pointer':
      return p.target.space === 'local';
    case 'null':
      return false;
    case 'either':
      return pointsIntoLocal(p.then) || pointsIntoLocal(p.else);
  }
}

/** Whether a `T *` may point inside an element of `elem`s: a field of a struct, or any byte of it for a `char *`. */
function mayPointInside(t: CType, elem: CType): boolean {
  if (t.kind === 'int' && t.bits === 8) return elem.kind !== 'int' || elem.bits !== 8;
  return elem.kind === 'struct' && leavesOf(elem).some((l) => mayPointInto(t, l.type));
}

/** The memory reached only through pointers of element type `elem` read from memory: one global array per type, made at its first use. */
function pointeeMemory(ctx: Ctx, elem: CType, span: Span): ArrayRef {
  const key = `memory of ${typeName(elem)}`;
  const known = ctx.k.arrayRefs.get(key);
  if (known !== undefined) return known;
  const name = fresh(ctx, `${typeName(elem).replace(/\W+/g, '_')}_mem`);
  ctx.k.arrays.push({ name: { text: name, span }, scope: 'global', sizes: [], ...leafNames(elem), span });
  const array: ArrayRef = { name, space: 'global', elem, dims: 1, readOnly: false, span, mayBeNull: 'unknown' };
  ctx.k.arrayRefs.set(key, array);
  return array;
}

function unknownOf(type: CType, what: string, span: Span): Value {
  return { kind: 'unknown', ctype: type, what, span };
}

export function writePlace(ctx: Ctx, p: Place & { kind: 'memory' }, v: Value, span: Span): void {
  if (p.array.readOnly) return reject(ctx, 'misuse', p.span, `${p.array.name} is read-only (__constant__)`);
  if (p.array.space === 'local') return writeLocal(ctx, p, v, span);
  const whole = placeType(p);
  if (whole.kind === 'struct') {
    const leaves = leavesOf(whole);
    const first = p.leaf ?? 0;
    leaves.forEach((l, k) => {
      const part: Value = v.kind === 'struct' ? v.fields[k]! : unknownOf(l.type, `a field of ${typeName(whole)}`, span);
      writeLeaf(ctx, p, first + k, part, span);
    });
    return;
  }
  writeLeaf(ctx, p, p.leaf ?? 0, v, span);
}

function writeLeaf(ctx: Ctx, p: Place & { kind: 'memory' }, leaf: number, v: Value, span: Span): void {
  const value = materialised(ctx, v, span);
  ctx.b.stmt({ kind: 'write', array: { text: p.array.name, span: p.array.span }, index: accessIndex(p.array, p.index, leaf, p.span, p.spread, p.leafOffset), value, target: p.span, span });
}

/** A value as an expression to write: an unknown one is bound with havoc (or is the read it came from). */
function materialised(ctx: Ctx, v: Value, span: Span): Expr {
  switch (v.kind) {
    case 'int':
      return v.expr;
    case 'bool':
      return ite(v.cond, constant(1n, 'i32', span), constant(0n, 'i32', span), 'i32', span);
    case 'unknown': {
      const exact = exactFloat(v);
      // a float constant is stored as its bit pattern: equal patterns are equal writes (floats.ts)
      if (exact !== null) return constant(bitPattern(exact), patternType(exact.type), span);
      const pattern = floatPattern(v);
      if (pattern !== null) return pattern.bits;
      return v.local ?? havocked(ctx, 'v', isInteger(v.ctype) ? slotMachine(v.ctype)! : 'i32', { kind: 'value', what: v.what, span: v.span }, span);
    }
    case 'pointer':
    case 'either':
    case 'null':
      // a pointer read back is never taken to point into a thread's local (readLeaf), so one may not be stored
      if (pointsIntoLocal(v)) return unsupported(ctx, span, 'a pointer to a local stored in memory');
      // a pointer stored is a write of the element; which array a pointer read back points into is never taken from it (readLeaf)
      return havocked(ctx, 'v', 'i64', { kind: 'value', what: 'a pointer stored in memory', span }, span);
    case 'struct':
    case 'group':
    case 'void':
      return reject(ctx, 'misuse', span, 'this value cannot be stored here');
  }
}

/** Stores into a place: a local moves to a fresh let of the converted value, memory is written. */
export function store(ctx: Ctx, p: Place, v: Value, span: Span): Value {
  const converted = convert(ctx, v, placeType(p), span);
  if (p.kind === 'memory') {
    writePlace(ctx, p, converted, span);
    return converted;
  }
  if (p.kind === 'choice') {
    throughChoice(ctx, p, span, (q) => store(ctx, q, converted, span));
    return converted;
  }
  const named = nameValue(ctx, p.slot.name, converted, span);
  if (p.leaf === null) {
    ctx.values.set(p.slot, named);
  } else {
    const whole = slotValue(ctx, p.slot, span);
    if (whole.kind !== 'struct') return reject(ctx, 'misuse', span, `'${p.slot.name}' is not a struct`);
    ctx.values.set(p.slot, withPartValue(ctx, whole, p.leaf, placeType(p), named, span));
  }
  return named;
}

/** An integer value bound to a fresh let named after the local, so that the core reads like the source. */
export function nameValue(ctx: Ctx, base: string, v: Value, span: Span): Value {
  if (v.kind === 'int') return { kind: 'int', expr: letBound(ctx, base, v.expr, v.type, span), type: v.type };
  if (v.kind === 'pointer' && v.offset !== null) {
    const t = exprType(v.offset) ?? 'i64';
    return { ...v, offset: letBound(ctx, `${base}_off`, v.offset, t, span) };
  }
  return v;
}

// ---------------------------------------------------------------- integers and conditions

export interface IntValue {
  readonly expr: Expr;
  readonly type: MachineType;
}

/** An integer operand after the integer promotions; an unknown becomes a havoc. */
export function intOf(ctx: Ctx, v: Value, span: Span): IntValue {
  switch (v.kind) {
    case 'int':
      return v.type === 'u32' || v.type === 'i32' || v.type === 'u64' || v.type === 'i64' ? v : { expr: castTo(v.expr, 'i32', span), type: 'i32' };
    case 'bool':
      return { expr: ite(v.cond, constant(1n, 'i32', span), constant(0n, 'i32', span), 'i32', span), type: 'i32' };
    case 'unknown': {
      const type = isInteger(v.ctype) ? promoted(v.ctype) : 'i32';
      return { expr: v.local && isInteger(v.ctype) ? v.local : havocked(ctx, 'v', type, { kind: 'value', what: v.what, span: v.span }, span), type };
    }
    case 'pointer':
    case 'either':
    case 'null':
      return reject(ctx, 'misuse', span, 'a pointer used as a number');
    case 'struct':
    case 'group':
    case 'void':
      return reject(ctx, 'misuse', span, 'this value is not a number');
  }
}

/** A value as a condition: `x != 0` for a number; an unknown one becomes a havoc. */
export function condOf(ctx: Ctx, v: Value, span: Span): BExpr {
  switch (v.kind) {
    case 'bool':
      return v.cond;
    case 'int':
      return compare('!=', v.expr, constant(0n, v.type, span), span);
    case 'unknown': {
      const x = intOf(ctx, { ...v, ctype: isInteger(v.ctype) ? v.ctype : INT, local: undefined }, span);
      return compare('!=', x.expr, constant(0n, x.type, span), span);
    }
    case 'pointer':
    case 'either':
    case 'null':
      return nonNull(ctx, v, span);
    case 'struct':
    case 'group':
    case 'void':
      return reject(ctx, 'misuse', span, 'this value is not a condition');
  }
}

/**
 * Whether a pointer is not null: an array the kernel declares never is; a
 * kernel's pointer parameter is null as the launch passes it (one unknown
 * for every thread, a parameter `p_nonnull`); memory reached through a
 * pointer read from memory, unknown.
 */
function nonNull(ctx: Ctx, p: AnyPointer, span: Span): BExpr {
  switch (p.kind) {
    case 'null':
      return FALSE;
    case 'either':
      return or(and(p.cond, nonNull(ctx, p.then, span)), and(not(p.cond), nonNull(ctx, p.else, span)));
    case 'pointer': {
      const zero = constant(0n, 'i32', span);
      if (p.target.mayBeNull === 'unknown') {
        const x = havocked(ctx, `${p.target.name}_nonnull`, 'i32', { kind: 'value', what: `whether a pointer read from memory is null`, span }, span);
        return compare('!=', x, zero, span);
      }
      if (p.target.mayBeNull !== 'launch') return { kind: 'bool', value: true, span };
      const name = `${p.target.name}_nonnull`;
      let param = ctx.k.params.find((q) => q.text === name);
      if (param === undefined) {
        param = { text: fresh(ctx, name), span: p.target.span, type: 'i32' };
        ctx.k.params.push(param);
      }
      return compare('!=', { kind: 'var', name: param.text, type: 'i32', span }, zero, span);
    }
  }
}

export function condition(ctx: Ctx, n: Node): BExpr {
  return condOf(ctx, rvalue(ctx, n), spanOf(n));
}

/** Whether evaluating `n` may read memory or change state: then it is lowered only where C evaluates it. */
export function hasEffects(ctx: Ctx, n: Node): boolean {
  switch (n.type) {
    case 'subscript_expression':
    case 'assignment_expression':
    case 'update_expression':
      return true;
    case 'call_expression':
      if (!pureCall(ctx, n, new Set())) return true;
      break;
    case 'pointer_expression':
      if (n.child(0)?.type === '*') return true;
      break;
    case 'field_expression':
      if (n.child(1)?.type === '->') return true;
      break;
    case 'identifier': {
      const b = ctx.scope.lookup(n.text);
      return (b?.kind === 'array' && b.scalar) || (b?.kind === 'alias' && b.place.kind === 'memory');
    }
  }
  return named(n).some((c) => hasEffects(ctx, c));
}

/**
 * Whether a call touches no memory and synchronises nothing: min/max/abs, math
 * and bit intrinsics, and the file's functions whose bodies (and the functions
 * they call) read or write no memory. Such a call with invariant arguments is
 * invariant too (`for (t = 0; t < ceil_div(n, TILE); ++t)`).
 */
function pureCall(ctx: Ctx, n: Node, visiting: Set<string>): boolean {
  const fn = n.childForFieldName('function');
  if (fn === null || (fn.type !== 'identifier' && fn.type !== 'qualified_identifier' && fn.type !== 'template_function')) return false;
  const name = fn.type === 'template_function' ? (fn.childForFieldName('name')?.text ?? '') : fn.text;
  const defs = ctx.unit.functions.get(name);
  if (defs === undefined) {
    const meaning = builtinCall(name);
    return meaning !== null && (meaning.kind === 'min' || meaning.kind === 'max' || meaning.kind === 'abs' || (meaning.kind === 'unknown' && !meaning.what.includes('texture')));
  }
  if (visiting.has(name)) return false;
  visiting.add(name);
  const touches = (x: Node): boolean => {
    switch (x.type) {
      case 'subscript_expression':
      case 'gnu_asm_expression':
        return true;
      case 'pointer_expression':
        if (x.child(0)?.type === '*') return true;
        break;
      case 'field_expression':
        if (x.child(1)?.type === '->') return true;
        break;
      case 'call_expression':
        if (!pureCall(ctx, x, visiting)) return true;
        break;
      case 'declaration':
        if (/\[\[(shared|device|constant)\]\]/.test(x.text)) return true;
        break;
    }
    return named(x).some(touches);
  };
  return defs.every((d) => !touches(d.node.childForFieldName('body') ?? d.node));
}

// ---------------------------------------------------------------- conversions

/**
 * An integer converted exactly to a floating type, converted back: C
 * truncates toward zero, and the value is that integer, so the result is the
 * integer itself, where it is in the target's range (else the conversion is
 * undefined, and the value stays unknown): a target of at least 32 bits,
 * signed, or unsigned where the integer is shown not negative.
 */
function exactIntegerBack(pattern: FloatPattern | undefined, to: Extract<CType, { kind: 'int' }>): Value | null {
  const x = pattern?.integer;
  if (x === undefined || to.bits < 32) return null;
  if (!isSigned(machineOf(to)) && (intervalOf(x.expr, x.type)?.min ?? -1n) < 0n) return null;
  return { kind: 'int', expr: x.expr, type: x.type };
}

/** C's conversion of a value to a type (assignment, cast, argument passing). */
export function convert(ctx: Ctx, v: Value, to: CType, span: Span): Value {
  switch (to.kind) {
    case 'int': {
      const back = v.kind === 'unknown' ? exactIntegerBack(v.pattern, to) : null;
      if (back !== null) return convert(ctx, back, to, span);
      if (v.kind === 'unknown') return { ...v, ctype: to };
      const x = intOf(ctx, v, span);
      return { kind: 'int', expr: narrowed(castTo(x.expr, to.bits >= 32 ? machineOf(to) : 'i32', span), to, span), type: to.bits >= 32 ? machineOf(to) : 'i32' };
    }
    case 'bool':
      if (v.kind === 'unknown') return { ...v, ctype: BOOL };
      return { kind: 'bool', cond: condOf(ctx, v, span) };
    case 'float': {
      const exact = floatConversion(v, to.name);
      if (exact !== null) return floatConstant(exact, v.kind === 'unknown' ? v.what : `a ${typeName(to)} constant`, span);
      const ieee = ieeeTypeOf(to.name);
      if (v.kind === 'int' && ieee !== null) {
        // exact where the integer is below 2^24 (2^53) in magnitude (int-floats.ts)
        const bits = intToFloatPattern(v.expr, v.type, ieee, span);
        if (bits !== null) return { kind: 'unknown', ctype: to, what: `(${typeName(to)}) of an integer`, span, pattern: { type: ieee, bits, integer: { expr: v.expr, type: v.type } } };
        return { kind: 'unknown', ctype: to, what: `(${typeName(to)}) of an integer not shown below ${ieee === 'float' ? '2^24' : '2^53'} in magnitude (its rounding is not followed)`, span };
      }
      // a conversion to its own type keeps a parameter's pattern; to the other one, C rounds (or widens) what is not followed
      const pattern = floatPattern(v);
      const kept = pattern !== null && ieeeTypeOf(to.name) === pattern.type ? { pattern } : {};
      if (v.kind === 'unknown') return { kind: 'unknown', ctype: to, what: v.what, span: v.span, ...(v.local === undefined ? {} : { local: v.local }), ...kept };
      return { kind: 'unknown', ctype: to, what: `a ${typeName(to)} value`, span };
    }
    case 'opaque':
      if (v.kind === 'unknown') return { ...v, ctype: to };
      // a group kept in a `cg::thread_block`, `thread_group`, `auto`… local or parameter
      if (v.kind === 'group' && to.kind === 'opaque') return v;
      return { kind: 'unknown', ctype: to, what: `a ${typeName(to)} value`, span };
    case 'pointer': {
      // the constant 0 is the null pointer (C11 6.3.2.3)
      if (v.kind === 'int' && v.expr.kind === 'int' && v.expr.value === 0n) return { kind: 'null', elem: to.to };
      if (v.kind === 'null') return to.to.kind === 'void' ? v : { kind: 'null', elem: to.to };
      if (v.kind === 'unknown' && v.function !== undefined) return { ...v, ctype: to };
      if (!isPointer(v)) return unsupported(ctx, span, 'an integer converted to a pointer');
      return mapPointers(v, (q) => {
        if (q.leaf !== null) return q;
        if (to.to.kind === 'void') return q;
        const a = sizeOf(q.elem);
        const b = sizeOf(to.to);
        if (a !== null && b !== null && a !== b) return resized(ctx, q, to.to, span);
        return { ...q, elem: to.to };
      });
    }
    case 'struct':
      if (v.kind === 'struct' || v.kind === 'unknown') return v.kind === 'unknown' ? structOfUnknown(to, v.what, span) : v;
      return reject(ctx, 'misuse', span, `cannot convert this value to ${typeName(to)}`);
    case 'void':
      return { kind: 'void' };
    case 'reference':
      // a declaration's reference is bound where it is declared (stmt.ts, calls.ts); a cast to one would make an lvalue
      return unsupported(ctx, span, `a conversion to the reference type ${typeName(to)}`);
  }
}

/**
 * A pointer cast to elements of another size. Exact where each element of
 * the new type is a whole number of the array's (a vector of its scalars:
 * `(float4 *)a`, `reinterpret_cast<int2 *>(p)`), and back to the array's
 * own type; any other cast (`(char *)a`, a view of a view) is rejected by
 * name.
 */
function resized(ctx: Ctx, q: PointerValue, to: CType, span: Span): PointerValue {
  const scalar = q.target.elem;
  const unit = sizeOf(scalar);
  const why = `a pointer cast from ${typeName(q.elem)} to ${typeName(to)} (elements of different sizes)`;
  if (q.view !== undefined) {
    // back to the array's own elements: the view's position in scalars
    if (sizeOf(to) !== unit || q.prefix.length + 1 !== q.target.dims) return unsupported(ctx, span, why, ['faial-ts follows casts from an array of scalars to vectors of them (float to float4) and back']);
    const zero = constant(0n, 'i64', span);
    const scaled = arith('*', castTo(q.offset ?? zero, 'i64', span), constant(BigInt(q.view.per), 'i64', span), 'i64', span);
    const offset = q.view.base === null ? scaled : addIndex(q.view.base, { expr: scaled, type: 'i64' }, span);
    return { kind: 'pointer', target: q.target, prefix: q.prefix, offset, elem: to, leaf: null };
  }
  const leaves = leavesOf(to);
  const scalarKind = scalar.kind === 'int' || scalar.kind === 'float' || scalar.kind === 'bool';
  if (!scalarKind || to.kind !== 'struct' || unit === null || leaves.some((l) => sizeOf(l.type) !== unit)) {
    return unsupported(ctx, span, why, ['faial-ts follows casts from an array of scalars to vectors of them (float to float4) and back']);
  }
  // the view counts vectors from where the pointer points, in scalars
  return { kind: 'pointer', target: q.target, prefix: q.prefix, offset: null, elem: to, leaf: null, view: { base: q.offset, per: leaves.length } };
}

export function structOfUnknown(t: CType & { kind: 'struct' }, what: string, span: Span): Value {
  return { kind: 'struct', ctype: t, fields: leavesOf(t).map((l) => unknownOf(l.type, what, span)) };
}

/** A value converted to a narrow integer type (char, short): reduced modulo 2^bits into its range, exactly. */
function narrowed(e: Expr, to: IntCType, span: Span): Expr {
  if (to.bits >= 32) return e;
  const mask = constant((1n << BigInt(to.bits)) - 1n, 'i32', span);
  const low = arith('&', e, mask, 'i32', span);
  if (!to.signed) return low;
  const sign = constant(1n << BigInt(to.bits - 1), 'i32', span);
  return arith('-', arith('^', low, sign, 'i32', span), sign, 'i32', span);
}

// ---------------------------------------------------------------- operators

/** The source of an expression on one line, shortened, for messages. */
const shortText = (n: Node): string => {
  const text = n.text.replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

const ARITH = new Set(['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^']);
const CMP = new Set(['==', '!=', '<', '<=', '>', '>=']);

function binary(ctx: Ctx, n: Node): Value {
  const op = child(n, 'operator').type;
  if (op === '&&' || op === '||') return logical(ctx, n, op);
  const left = rvalue(ctx, child(n, 'left'));
  const right = rvalue(ctx, child(n, 'right'));
  if (left.kind === 'struct' || right.kind === 'struct') return structOperator(ctx, op, [left, right], n);
  return binaryValue(ctx, op, left, right, spanOf(n));
}

/**
 * An operator on a struct or vector value (`a + b` of float3s): the file's
 * `operator+` whose parameters take these operands, inlined as a call (CUDA
 * defines none for its vector types; helper_math.h, which does, is not read).
 * No such definition, or several, is rejected by name.
 */
function structOperator(ctx: Ctx, op: string, operands: readonly Value[], n: Node): Value {
  const member = memberOperator(ctx, op, operands, n);
  if (member !== null) return member;
  const name = `operator${op}`;
  const types = operands.map(valueType);
  const fits = (ctx.unit.functions.get(name) ?? []).filter((def) => {
    const params = parametersOf(def);
    if (params.length !== operands.length || def.template !== null) return false;
    return params.every((p, i) => {
      const t = declared(baseType(ctx, child(p, 'type')), p.childForFieldName('declarator')).ctype;
      const given = types[i]!;
      return t.kind === 'struct' || given.kind === 'struct' ? t.kind === 'struct' && given.kind === 'struct' && t.name === given.name : t.kind !== 'pointer' && given.kind !== 'pointer';
    });
  });
  const shown = types.map(typeName).join(' and ');
  if (fits.length === 0) return unsupported(ctx, n, `the operator ${op} on ${shown}: the file defines no ${name} taking them`, ['define it in the file, as a function or a member of the class (faial-ts does not read helper_math.h), or write the operation field by field']);
  if (fits.length > 1) return unsupported(ctx, n, `the operator ${op} on ${shown}: several definitions of ${name} take them`);
  return inlineCall(ctx, name, fits, [], operands.map((value) => ({ kind: 'given', value })), n);
}

/** The C type of a value, as far as overloads need it: a struct's name, or a number or pointer. */
export function valueType(v: Value): CType {
  switch (v.kind) {
    case 'struct':
      return v.ctype;
    case 'int':
      return INT;
    case 'bool':
      return BOOL;
    case 'unknown':
      return v.ctype;
    case 'pointer':
    case 'either':
    case 'null':
      return { kind: 'pointer', to: v.elem };
    case 'group':
    case 'void':
      return VOID;
  }
}

export function binaryValue(ctx: Ctx, op: string, left: Value, right: Value, span: Span): Value {
  if (isPointer(left) || isPointer(right)) return pointerArith(ctx, op, left, right, span);
  if (isUnknownNumber(left) || isUnknownNumber(right)) {
    const folded = ARITH.has(op) ? floatArithmetic(op as ArithOp, left, right) : null;
    if (folded !== null) return floatConstant(folded, `a ${folded.type} constant`, span);
    const what = left.kind === 'unknown' ? left : (right as Value & { kind: 'unknown' });
    if (CMP.has(op)) return { kind: 'unknown', ctype: BOOL, what: `a comparison of ${what.what}`, span };
    return { kind: 'unknown', ctype: what.ctype, what: `a ${typeName(what.ctype)} value`, span };
  }
  if (CMP.has(op)) {
    const a = intOf(ctx, left, span);
    const b = intOf(ctx, right, span);
    const t = commonType(a.type, b.type);
    return { kind: 'bool', cond: compare(op as CmpOp, castTo(a.expr, t, span), castTo(b.expr, t, span), span) };
  }
  if (!ARITH.has(op)) return unsupported(ctx, span, `the operator ${op}`);
  const a = intOf(ctx, left, span);
  const b = intOf(ctx, right, span);
  if (op === '<<' || op === '>>') return { kind: 'int', expr: arith(op, a.expr, b.expr, a.type, span), type: a.type };
  const t = commonType(a.type, b.type);
  return { kind: 'int', expr: arith(op as ArithOp, castTo(a.expr, t, span), castTo(b.expr, t, span), t, span), type: t };
}

/** A float or double constant as a value: unknown to integer arithmetic, followed exactly where floats.ts can (`exact`). */
function floatConstant(c: FloatConstant, what: string, span: Span): Value {
  return { kind: 'unknown', ctype: { kind: 'float', name: c.type }, what, span, exact: c };
}

/** A value's exact floating-point constant, when it has one of its own type. */
export function exactFloat(v: Value): FloatConstant | null {
  if (v.kind !== 'unknown' || v.exact === undefined || v.ctype.kind !== 'float') return null;
  return ieeeTypeOf(v.ctype.name) === v.exact.type ? v.exact : null;
}

/** A value's symbolic bit pattern (a float parameter's), when it has one of its own type. */
function floatPattern(v: Value): FloatPattern | null {
  if (v.kind !== 'unknown' || v.pattern === undefined || v.ctype.kind !== 'float') return null;
  return ieeeTypeOf(v.ctype.name) === v.pattern.type ? v.pattern : null;
}

/** An integer constant or exact float converted to the floating type `name` (C's conversion, rounded as IEEE does), or null. */
function floatConversion(v: Value, name: string): FloatConstant | null {
  const to = ieeeTypeOf(name);
  if (to === null) return null;
  if (v.kind === 'int') return v.expr.kind === 'int' ? fromInteger(v.expr.value, to) : null;
  const exact = exactFloat(v);
  return exact === null ? null : toType(exact, to);
}

/** `a op b` of two float constants, or of a float constant and an integer constant (converted, as C does), or null. */
function floatArithmetic(op: ArithOp, a: Value, b: Value): FloatConstant | null {
  const [x, y] = [exactFloat(a), exactFloat(b)];
  const type = x?.type === 'double' || y?.type === 'double' ? 'double' : 'float';
  const [p, q] = [x ?? floatConversion(a, type), y ?? floatConversion(b, type)];
  return p === null || q === null ? null : arithmetic(op, p, q);
}

/** An unknown value that is not an integer's (a float): arithmetic on it stays unknown. */
function isUnknownNumber(v: Value): boolean {
  return v.kind === 'unknown' && !isInteger(v.ctype);
}

const isZero = (v: Value): boolean => v.kind === 'null' || (v.kind === 'int' && v.expr.kind === 'int' && v.expr.value === 0n);

function pointerArith(ctx: Ctx, op: string, left: Value, right: Value, span: Span): Value {
  // `p == nullptr`, `p != 0`, `NULL != p`: whether it is null
  if ((op === '==' || op === '!=') && (isZero(left) || isZero(right))) {
    const p = isZero(left) ? right : left;
    if (!isPointer(p)) return reject(ctx, 'misuse', span, 'a null pointer compared with a number');
    const nn = nonNull(ctx, p, span);
    return { kind: 'bool', cond: op === '!=' ? nn : not(nn) };
  }
  if (left.kind === 'null' || right.kind === 'null') return reject(ctx, 'misuse', span, `the operator ${op} on a null pointer`);
  if (left.kind === 'either' || right.kind === 'either') {
    if (isPointer(left) && isPointer(right)) return unsupported(ctx, span, 'pointers that may point into different arrays compared or subtracted');
    const [p, k] = left.kind === 'either' ? [left, right] : [right as AnyPointer, left];
    if (op !== '+' && !(op === '-' && left.kind === 'either')) return unsupported(ctx, span, `the operator ${op} on a pointer`);
    return mapPointers(p, (q) => pointerArith(ctx, op, left === p ? q : k, left === p ? k : q, span) as AnyPointer);
  }
  if (left.kind === 'pointer' && right.kind === 'pointer') {
    if (left.target !== right.target) return unsupported(ctx, span, 'pointers into different arrays compared or subtracted');
    if (left.view !== undefined || right.view !== undefined) return unsupported(ctx, span, 'vector views of an array compared or subtracted');
    const zero = constant(0n, 'i64', span);
    const a = castTo(left.offset ?? zero, 'i64', span);
    const b = castTo(right.offset ?? zero, 'i64', span);
    if (op === '-') return { kind: 'int', expr: arith('-', a, b, 'i64', span), type: 'i64' };
    if (CMP.has(op)) return { kind: 'bool', cond: compare(op as CmpOp, a, b, span) };
    return unsupported(ctx, span, `the operator ${op} on pointers`);
  }
  const [p, k] = left.kind === 'pointer' ? [left, right] : [right as PointerValue, left];
  if (op !== '+' && !(op === '-' && left.kind === 'pointer')) return unsupported(ctx, span, `the operator ${op} on a pointer`);
  const i = intOf(ctx, k, span);
  if (p.leaf !== null) return unsupported(ctx, span, 'pointer arithmetic on a pointer to a struct field');
  const step = op === '-' ? negated(i, span) : i;
  return { ...p, offset: p.offset === null ? step.expr : addIndex(p.offset, step, span) };
}

/** -u on an unsigned type wraps around, as C defines it: 0 for 0, else (MAX - u) + 1, which never leaves the type's range. */
function unsignedNegation(x: IntValue, span: Span): Expr {
  const zero = constant(0n, x.type, span);
  const max = constant(x.type === 'u32' ? (1n << 32n) - 1n : (1n << 64n) - 1n, x.type, span);
  return ite(compare('==', x.expr, zero, span), zero, arith('+', arith('-', max, x.expr, x.type, span), constant(1n, x.type, span), x.type, span), x.type, span);
}

function negated(i: IntValue, span: Span): IntValue {
  if (isSigned(i.type)) return { expr: arith('-', constant(0n, i.type, span), i.expr, i.type, span), type: i.type };
  // -u is 2^w - u in C; as an offset it steps back by u
  return { expr: arith('-', constant(0n, 'i64', span), castTo(i.expr, 'i64', span), 'i64', span), type: 'i64' };
}

function logical(ctx: Ctx, n: Node, op: '&&' | '||'): Value {
  const span = spanOf(n);
  const left = condition(ctx, child(n, 'left'));
  const rightNode = child(n, 'right');
  if (!hasEffects(ctx, rightNode)) {
    const right = condition(ctx, rightNode);
    return { kind: 'bool', cond: op === '&&' ? and(left, right) : or(left, right) };
  }
  // the right operand runs only when the left does not decide: its reads are conditional
  const slot: Slot = { name: 'cond', ctype: BOOL, span, what: `the value of \`${shortText(n)}\`` };
  ctx.values.set(slot, { kind: 'void' });
  const evaluated = branch(ctx, () => void ctx.values.set(slot, { kind: 'bool', cond: condition(ctx, rightNode) }));
  const skipped = branch(ctx, () => void ctx.values.set(slot, { kind: 'bool', cond: { kind: 'bool', value: op === '||', span } }));
  if (op === '&&') emitIf(ctx, left, evaluated, skipped, span);
  else emitIf(ctx, not(left), evaluated, skipped, span);
  const v = ctx.values.get(slot)!;
  ctx.values.delete(slot);
  return v;
}

function unary(ctx: Ctx, n: Node): Value {
  const op = child(n, 'operator').type;
  const span = spanOf(n);
  const v = rvalue(ctx, child(n, 'argument'));
  if (v.kind === 'struct') return structOperator(ctx, op, [v], n);
  if (op === '!') return v.kind === 'unknown' && !isInteger(v.ctype) && v.ctype.kind !== 'bool' ? { ...v, ctype: BOOL } : { kind: 'bool', cond: not(condOf(ctx, v, span)) };
  if (isUnknownNumber(v)) {
    const exact = exactFloat(v);
    if (exact !== null && (op === '-' || op === '+')) return floatConstant(op === '-' ? negatedFloat(exact) : exact, v.kind === 'unknown' ? v.what : '', span);
    const pattern = floatPattern(v);
    // -x flips the sign bit, whatever x is (zero and NaN too)
    if (pattern !== null && v.kind === 'unknown' && op === '-') return { ...v, span, pattern: { type: pattern.type, bits: arith('^', pattern.bits, constant(signBit(pattern.type), patternType(pattern.type), span), patternType(pattern.type), span) } };
    return v;
  }
  const x = intOf(ctx, v, span);
  switch (op) {
    case '+':
      return { kind: 'int', ...x };
    case '-':
      if (isSigned(x.type)) return { kind: 'int', expr: arith('-', constant(0n, x.type, span), x.expr, x.type, span), type: x.type };
      return { kind: 'int', expr: unsignedNegation(x, span), type: x.type };
    case '~': {
      if (isSigned(x.type)) {
        return { kind: 'int', expr: arith('-', arith('-', constant(0n, x.type, span), x.expr, x.type, span), constant(1n, x.type, span), x.type, span), type: x.type };
      }
      const ones = x.type === 'u32' ? (1n << 32n) - 1n : (1n << 64n) - 1n;
      return { kind: 'int', expr: arith('^', x.expr, constant(ones, x.type, span), x.type, span), type: x.type };
    }
    default:
      return unsupported(ctx, n, `the operator ${op}`);
  }
}

function update(ctx: Ctx, n: Node): Value {
  const span = spanOf(n);
  const op = child(n, 'operator').type;
  const prefix = n.child(0)?.type === op;
  const p = placeOf(ctx, child(n, 'argument'));
  const old = load(ctx, p, span);
  const one: Value = { kind: 'int', expr: constant(1n, 'i32', span), type: 'i32' };
  const next = binaryValue(ctx, op === '++' ? '+' : '-', old, one, span);
  const stored = store(ctx, p, next, span);
  return prefix ? stored : old;
}

function assignment(ctx: Ctx, n: Node): Value {
  const span = spanOf(n);
  const op = child(n, 'operator').type;
  const right = rvalue(ctx, child(n, 'right'));
  const p = placeOrPointer(ctx, child(n, 'left'));
  if (isPointerNotPlace(p)) return reject(ctx, 'misuse', n, `cannot assign to the array '${child(n, 'left').text}'`);
  if (op === '=') return store(ctx, p, right, span);
  // `o += v` on an object whose class (or the file) defines operator+=: a call on its place
  if (placeType(p).kind === 'struct') return compoundOperator(ctx, p, op, right, n) ?? compoundFunction(ctx, p, op, right, n);
  const old = load(ctx, p, span);
  return store(ctx, p, binaryValue(ctx, op.slice(0, -1), old, right, span), span);
}

function conditional(ctx: Ctx, n: Node): Value {
  const span = spanOf(n);
  // GNU's `a ?: b` parses without its middle operand
  if (n.childForFieldName('consequence') === null) return unsupported(ctx, n, "GNU's conditional without a middle operand (a ?: b)", ['write it a ? a : b']);
  const cond = condition(ctx, child(n, 'condition'));
  const thenNode = child(n, 'consequence');
  const elseNode = child(n, 'alternative');
  if (!hasEffects(ctx, thenNode) && !hasEffects(ctx, elseNode)) {
    const a = rvalue(ctx, thenNode);
    const b = rvalue(ctx, elseNode);
    return choice(ctx, cond, a, b, span);
  }
  const slot: Slot = { name: 'sel', ctype: INT, span, what: `the value of \`${shortText(n)}\`` };
  ctx.values.set(slot, { kind: 'void' });
  let a: Value = { kind: 'void' };
  let b: Value = { kind: 'void' };
  const t = branch(ctx, () => void (a = rvalue(ctx, thenNode)));
  const e = branch(ctx, () => void (b = rvalue(ctx, elseNode)));
  // both arms have C's common type; the conversion needs no statement for numbers
  const common = choice(ctx, { kind: 'bool', value: true, span }, a, b, span);
  const asCommon = (v: Value): Value => (common.kind === 'int' ? { kind: 'int', expr: castTo(intOf(ctx, v, span).expr, common.type, span), type: common.type } : v);
  t.values.set(slot, asCommon(a));
  e.values.set(slot, asCommon(b));
  const typed: Slot = common.kind === 'int' ? { ...slot, ctype: common.type === 'i32' ? INT : common.type === 'u32' ? UINT : common.type === 'i64' ? LONG : ULONG } : slot;
  if (typed !== slot) {
    ctx.values.delete(slot);
    ctx.values.set(typed, { kind: 'void' });
    t.values.set(typed, t.values.get(slot)!);
    e.values.set(typed, e.values.get(slot)!);
  }
  emitIf(ctx, cond, t, e, span);
  const v = ctx.values.get(typed)!;
  ctx.values.delete(typed);
  return v;
}

/** `o += v` on a struct without a member operator+=: the file's `operator+=(T &, …)`, with the place bound to its reference parameter. */
function compoundFunction(ctx: Ctx, p: Place, op: string, right: Value, n: Node): Value {
  const name = `operator${op}`;
  const t = placeType(p);
  const fits = (ctx.unit.functions.get(name) ?? []).filter((def) => {
    const params = parametersOf(def);
    if (params.length !== 2 || def.template !== null) return false;
    const d = declared(baseType(ctx, child(params[0]!, 'type')), params[0]!.childForFieldName('declarator'));
    return d.reference && d.ctype.kind === 'struct' && d.ctype.name === typeName(t);
  });
  if (fits.length !== 1) return unsupported(ctx, n, `the operator ${op} on ${typeName(t)}: the file defines ${fits.length === 0 ? 'no' : 'several'} ${name} taking it`, ['define it in the file, as a member or a function taking the object by reference, or write the operation field by field']);
  return inlineCall(ctx, name, fits, [], [{ kind: 'givenPlace', place: p }, { kind: 'given', value: right }], n);
}

/** `c ? a : b` of two values already computed. */
function choice(ctx: Ctx, cond: BExpr, a: Value, b: Value, span: Span): Value {
  if (a.kind === 'pointer' && b.kind === 'pointer' && a.target === b.target && a.leaf === b.leaf && a.part?.path === b.part?.path && a.leafOffset === undefined && b.leafOffset === undefined && a.prefix.length === 0 && b.prefix.length === 0 && a.view === undefined && b.view === undefined) {
    const zero = constant(0n, 'i64', span);
    return { ...a, offset: ite(cond, castTo(a.offset ?? zero, 'i64', span), castTo(b.offset ?? zero, 'i64', span), 'i64', span) };
  }
  if (isPointer(a) || isPointer(b)) {
    // `c ? a : b` into different arrays (or `c ? p : 0`): accesses through it are of a where c holds, else of b
    const asPointer = (v: Value, other: AnyPointer): AnyPointer => (isPointer(v) ? v : isZero(v) ? { kind: 'null', elem: other.elem } : unsupported(ctx, span, 'a conditional choosing between a pointer and a number'));
    const x = isPointer(a) ? a : asPointer(a, b as AnyPointer);
    const y = asPointer(b, x);
    return { kind: 'either', cond, then: x, else: y, elem: x.kind === 'null' ? y.elem : x.elem };
  }
  if (a.kind === 'bool' && b.kind === 'bool') return { kind: 'bool', cond: or(and(cond, a.cond), and(not(cond), b.cond)) };
  if (isUnknownNumber(a) || isUnknownNumber(b) || a.kind === 'struct' || b.kind === 'struct' || a.kind === 'void' || b.kind === 'void') {
    const u = a.kind === 'unknown' ? a : b.kind === 'unknown' ? b : null;
    return { kind: 'unknown', ctype: u?.ctype ?? FLOAT, what: u?.what ?? 'a conditional value', span };
  }
  const x = intOf(ctx, a, span);
  const y = intOf(ctx, b, span);
  const t = commonType(x.type, y.type);
  return { kind: 'int', expr: ite(cond, castTo(x.expr, t, span), castTo(y.expr, t, span), t, span), type: t };
}

function sizeofValue(ctx: Ctx, n: Node): Value {
  const span = spanOf(n);
  const typeNode = n.childForFieldName('type');
  const valueNode = n.childForFieldName('value');
  let t: CType | null = null;
  if (typeNode !== null) t = typeOfDescriptor(ctx, typeNode);
  else if (valueNode !== null) t = staticType(ctx, valueNode);
  const size = t === null ? null : sizeOf(t);
  if (size === null) return { kind: 'unknown', ctype: ULONG, what: `sizeof ${(typeNode ?? valueNode)?.text ?? ''}`, span };
  return { kind: 'int', expr: constant(BigInt(size), 'u64', span), type: 'u64' };
}

/** The declared type of a simple expression (a name, an element, a field, a temporary of a type), for sizeof and template deduction; null when it takes more. */
export function staticType(ctx: Ctx, n: Node): CType | null {
  if (n.type === 'parenthesized_expression') return staticType(ctx, named(n)[0]!);
  // a name the parser read as a type (`T v(a);`) may be a value's
  if (n.type === 'identifier' || n.type === 'type_identifier') {
    const b = ctx.scope.lookup(n.text);
    if (b?.kind === 'local') return b.slot.ctype;
    if (b?.kind === 'alias') return placeType(b.place);
    if (b?.kind === 'array' && b.scalar) return b.array.elem;
  }
  if (n.type === 'subscript_expression' || (n.type === 'pointer_expression' && n.child(0)?.type === '*')) {
    const inner = staticType(ctx, child(n, 'argument'));
    if (inner?.kind === 'pointer') return inner.to;
    if (n.type === 'subscript_expression' && child(n, 'argument').type === 'identifier') {
      const b = ctx.scope.lookup(child(n, 'argument').text);
      if (b?.kind === 'array') return b.array.elem;
    }
  }
  if (n.type === 'field_expression' && n.child(1)?.type === '.') {
    const inner = staticType(ctx, child(n, 'argument'));
    const part = inner === null ? null : partAt(inner, child(n, 'field').text);
    if (part !== null && part.length === undefined) return part.type;
  }
  // `Add()`, `View<float>(p)`, `P{1, 2}`: a temporary of the type named
  if (n.type === 'compound_literal_expression') return typeOfDescriptor(ctx, child(n, 'type'));
  if (n.type === 'call_expression') {
    const fn = child(n, 'function');
    if (fn.type === 'template_function' && ctx.unit.classDefs.has(child(fn, 'name').text)) {
      const inst = instantiated(ctx, child(fn, 'name').text, child(fn, 'arguments'));
      return inst?.kind === 'one' ? inst.type : null;
    }
    if (fn.type === 'identifier' || fn.type === 'type_identifier') {
      const b = ctx.scope.lookup(fn.text);
      if (b?.kind === 'type') return b.ctype;
      if (b === undefined) return ctx.unit.types.get(fn.text) ?? null;
    }
  }
  return null;
}

// ---------------------------------------------------------------- calls

/** A call's value (a function returning a reference: the value of the place it names). */
export function call(ctx: Ctx, n: Node): Value {
  const r = callResult(ctx, n);
  return isPlace(r) ? load(ctx, r, spanOf(n)) : r;
}

/** A call's value, or, for a function returning a reference, the place it names. */
export function callResult(ctx: Ctx, n: Node): CallResult {
  return observed(ctx, 'call', n, () => callOf(ctx, n));
}

function callOf(ctx: Ctx, n: Node): CallResult {
  const span = spanOf(n);
  const fn = child(n, 'function');
  const args = named(child(n, 'arguments'));
  if (fn.type === 'field_expression') return groupMethod(ctx, fn, args, n) ?? memberCall(ctx, fn, args, n);
  // `o(x)`, `ops[i](x)`, `(*this)(x)`: an object whose class defines operator()
  const called = fn.type === 'identifier' || fn.type === 'subscript_expression' || fn.type === 'parenthesized_expression' || fn.type === 'call_expression' || fn.type === 'compound_literal_expression' ? staticType(ctx, fn) : null;
  const functor = called === null ? null : classOf(called);
  if (functor !== null) return callOperator(ctx, objectOf(ctx, fn), functor, args, n);
  if (fn.type === 'qualified_identifier') {
    const member = staticMemberCall(ctx, fn, [], args, n);
    if (member !== null) return member;
  }
  const name = fn.type === 'template_function' ? child(fn, 'name').text : fn.text;
  const templateArgs = fn.type === 'template_function' ? named(child(fn, 'arguments')) : [];
  if (name === 'static_cast' || name === 'reinterpret_cast' || name === 'const_cast') {
    if (templateArgs.length !== 1 || args.length !== 1) return reject(ctx, 'misuse', n, `${name}<T>(v) takes one type and one value`);
    return convert(ctx, rvalue(ctx, args[0]!), typeOfDescriptor(ctx, templateArgs[0]!), span);
  }
  // `int(x)`, `unsigned char(x)`: a functional cast, C's cast
  if (fn.type === 'primitive_type' || fn.type === 'sized_type_specifier') return constructed(ctx, baseType(ctx, fn), args, n);
  if (name === 'dynamic_cast') return unsupported(ctx, fn, 'dynamic_cast');
  const local = ctx.scope.lookup(name);
  if (THROUGH_POINTER.has(fn.type) || (local !== undefined && local.kind !== 'type')) return callThroughPointer(ctx, fn, args, n);
  // a member function of the class whose member function this is, called on the same object
  const sibling = fn.type === 'identifier' || fn.type === 'template_function' ? siblingCall(ctx, name, templateArgs, args, n) : null;
  if (sibling !== null) return sibling;
  const shared = sharedMemoryOf(ctx, name, n);
  if (shared !== null) return shared;
  // `View<float>(p, n)`: a temporary of a class template's instance
  if (fn.type === 'template_function' && ctx.unit.classDefs.has(name)) {
    const inst = instantiated(ctx, name, child(fn, 'arguments'));
    if (inst?.kind !== 'one') return unsupported(ctx, fn, `the class ${fn.text}, whose template arguments or specialisation faial-ts cannot settle`);
    return construct(ctx, inst.type as ClassType, { kind: 'args', args, braces: false }, n);
  }
  const typeCall = local?.kind === 'type' ? local.ctype : (ctx.unit.types.get(name) ?? makeVector(name) ?? NAMED_INTS.get(name) ?? (fn.type === 'identifier' ? primitiveType([name]) : null));
  if (typeCall !== null) {
    const cls = classOf(typeCall);
    return cls !== null ? construct(ctx, cls, { kind: 'args', args, braces: false }, n) : constructed(ctx, typeCall, args, n);
  }
  const found = fn.type === 'identifier' || fn.type === 'template_function' || fn.type === 'qualified_identifier' ? fileFunctions(ctx, fn, n) : null;
  if (found !== null) return inlined(ctx, found.name, found.defs, found.templateArgs, args, n);
  const grouped = groupFunctionCall(ctx, fn, args, n);
  if (grouped !== null) return grouped;
  if (MEMORY_CALLS.has(name)) return memoryCall(ctx, name, args, n);
  if (CURAND.test(name)) return curandCall(ctx, name, args, n);
  const meaning = builtinCall(name);
  if (meaning === null) {
    const values = args.map((a) => rvalue(ctx, a));
    if (values.some((v) => isPointer(v))) return unsupported(ctx, fn, `a call of ${name}, a function without a body in this file, passing it a pointer`);
    return bodilessCall(ctx, name, fn, span);
  }
  switch (meaning.kind) {
    case 'barrier':
      ctx.b.stmt({ kind: 'sync', span });
      return { kind: 'void' };
    case 'warp-barrier': {
      if (args.length > 1) return reject(ctx, 'misuse', n, `${name} takes one argument, the mask of the lanes it synchronises`);
      const mask = args[0] === undefined ? null : convert(ctx, rvalue(ctx, args[0]), UINT, span);
      // a partial mask synchronises some lanes only: not modelled, and not guessed as the whole warp
      if (mask !== null && !(mask.kind === 'int' && mask.expr.kind === 'int' && mask.expr.value === FULL_WARP_MASK)) {
        return unsupported(ctx, args[0]!, `${name} with a mask other than the full warp (0xffffffff)`, [
          'faial-ts models __syncwarp() over all the lanes of a warp: give no mask, or a constant 0xffffffff',
        ]);
      }
      ctx.b.stmt({ kind: 'syncwarp', span });
      return { kind: 'void' };
    }
    case 'barrier-value':
      for (const a of args) rvalue(ctx, a);
      ctx.b.stmt({ kind: 'sync', span });
      return { kind: 'unknown', ctype: INT, what: `the result of ${name}`, span };
    case 'no-effect':
      for (const a of args) rvalue(ctx, a);
      if (name.startsWith('__threadfence')) notice(ctx, 'noEffect', span, `${name}() has no effect on data races in this model: ${meaning.why}`);
      return { kind: 'void' };
    case 'unknown':
      for (const a of args) rvalue(ctx, a);
      return { kind: 'unknown', ctype: MATH_RESULT.test(meaning.what) ? FLOAT : INT, what: `${meaning.what} (${name})`, span };
    case 'load': {
      const p = rvalue(ctx, args[0]!);
      if (!isPointer(p)) return reject(ctx, 'unplaced', n, `${name} needs a pointer into an array`);
      const at = elementOf(ctx, p, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
      if (isPointerNotPlace(at)) return reject(ctx, 'misuse', n, `${name} of a row`);
      return load(ctx, at, span);
    }
    case 'min':
    case 'max': {
      if (args.length !== 2) return reject(ctx, 'misuse', n, `${name} takes two arguments`);
      const a = rvalue(ctx, args[0]!);
      const b = rvalue(ctx, args[1]!);
      if (isUnknownNumber(a) || isUnknownNumber(b)) return { kind: 'unknown', ctype: FLOAT, what: `the result of ${name}`, span };
      const x = intOf(ctx, a, span);
      const y = intOf(ctx, b, span);
      const t = commonType(x.type, y.type);
      const l = castTo(x.expr, t, span);
      const r = castTo(y.expr, t, span);
      return { kind: 'int', expr: ite(compare(meaning.kind === 'min' ? '<=' : '>=', l, r, span), l, r, t, span), type: t };
    }
    case 'abs': {
      const a = rvalue(ctx, args[0]!);
      if (isUnknownNumber(a)) return { kind: 'unknown', ctype: FLOAT, what: `the result of ${name}`, span };
      const x = intOf(ctx, a, span);
      const zero = constant(0n, x.type, span);
      return { kind: 'int', expr: ite(compare('<', x.expr, zero, span), arith('-', zero, x.expr, x.type, span), x.expr, x.type, span), type: x.type };
    }
    case 'mul24':
      return mul24(ctx, name, meaning.signed, args, n);
    case 'requires':
    case 'assume':
      return annotation(ctx, meaning.kind, args, n);
    case 'ignored-annotation':
      notice(ctx, 'ignoredAnnotation', span, `${name} is a GPUVerify annotation; faial-ts reads it and ignores it`);
      return { kind: 'bool', cond: { kind: 'bool', value: true, span } };
    case 'assert':
      for (const a of args) rvalue(ctx, a);
      notice(ctx, 'notChecked', span, `${name}(…) is not checked: faial-ts verifies data-race freedom, not assertions`);
      return { kind: 'void' };
    case 'atomic':
      return atomicCall(ctx, name, meaning.op, args, n);
    case 'rejected':
      return unsupported(ctx, fn, meaning.construct, meaning.hint === undefined ? [] : [meaning.hint]);
  }
}

/**
 * `atomicAdd(&A[i], v)` and the like: the core's atomic on that element, in
 * the element's integer type (a float element's values are not followed: its
 * operands are unknown naturals), binding the old value, which is unknown.
 */
function atomicCall(ctx: Ctx, name: string, op: AtomicOp, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  const arity = op === 'cas' ? 3 : 2;
  if (args.length !== arity) return reject(ctx, 'misuse', n, `${name} takes ${arity} arguments`);
  const p = rvalue(ctx, args[0]!);
  const values = args.slice(1).map((a) => rvalue(ctx, a));
  if (!isPointer(p)) return reject(ctx, 'unplaced', n, `${name} needs a pointer into an array`);
  const place = elementOf(ctx, p, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
  if (isPointerNotPlace(place) || place.kind === 'slot') return reject(ctx, 'misuse', n, `${name} of a row`);
  return atomicAt(ctx, name, op, values, place, n);
}

function atomicAt(ctx: Ctx, name: string, op: AtomicOp, values: readonly Value[], at: Place, n: Node): Value {
  const span = spanOf(n);
  if (at.kind === 'choice') return throughChoice(ctx, at, span, (q) => atomicAt(ctx, name, op, values, q, n));
  if (at.kind !== 'memory') return reject(ctx, 'misuse', n, `${name} of a row`);
  if (at.array.readOnly) return reject(ctx, 'misuse', at.span, `${at.array.name} is read-only (__constant__)`);
  const elem = placeType(at);
  if (elem.kind === 'struct' || elem.kind === 'pointer') return reject(ctx, 'misuse', n, `${name} on a ${typeName(elem)}`);
  const what = `the old value of ${name}`;
  // a thread's own local array: no other thread sees it; the element's new value is not followed
  if (at.array.space === 'local') {
    writeLocal(ctx, at, unknownOf(elem, `the element ${name} changed`, span), span);
    return unknownOf(elem, what, span);
  }
  const type = elem.kind === 'int' ? machineOf(elem) : undefined;
  const operands = values.map((v): Expr => {
    if (type !== undefined) return castTo(intOf(ctx, convert(ctx, v, elem, span), span).expr, type, span);
    const local = fresh(ctx, 'v');
    ctx.k.defs.set(local, null);
    ctx.b.binder(local, span, (body) => ({ kind: 'havoc', local: { text: local, span }, type: 'nat', origin: { kind: 'value', what: `a ${typeName(elem)} value`, span }, body, span }));
    return { kind: 'var', name: local, span };
  });
  const old = fresh(ctx, `${at.array.name}_old`);
  ctx.k.defs.set(old, null);
  const array = { text: at.array.name, span: at.array.span };
  const index = accessIndex(at.array, at.index, at.leaf ?? 0, at.span, at.spread, at.leafOffset);
  ctx.b.binder(old, span, (body) => ({ kind: 'atomic', op, local: { text: old, span }, array, index, operands, ...(type === undefined ? {} : { type }), target: at.span, body, span }));
  if (type === undefined) return { kind: 'unknown', ctype: elem, what, span, local: { kind: 'var', name: old, span } };
  return { kind: 'int', expr: { kind: 'var', name: old, type, span }, type };
}

/**
 * `__mul24(x, y)` (`__umul24`): the low 32 bits of the product of x's and y's
 * low 24 bits, as signed (unsigned) 24-bit numbers, exact: where both operands
 * hold in 24 bits (every launch whose sizes keep them small) C's product
 * modulo 2^32, computed unsigned so it never overflows; elsewhere the same
 * product of the low 24 bits (`(x & 0xffffff ^ 0x800000) - 0x800000` sign-
 * extends them), a case the solver meets only where an operand is wide.
 */
function mul24(ctx: Ctx, name: string, signed: boolean, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  if (args.length !== 2) return reject(ctx, 'misuse', n, `${name} takes two arguments`);
  const t: MachineType = signed ? 'i32' : 'u32';
  const [x, y] = args.map((a) => intOf(ctx, convert(ctx, rvalue(ctx, a), signed ? INT : UINT, spanOf(a)), spanOf(a)).expr) as [Expr, Expr];
  const k = (v: bigint): Expr => constant(v, 'u32', span);
  const fits = (e: Expr): BExpr =>
    signed ? and(compare('>=', e, constant(-(1n << 23n), t, span), span), compare('<', e, constant(1n << 23n, t, span), span)) : compare('<', e, constant(1n << 24n, t, span), span);
  const low24 = (e: Expr): Expr => {
    const bits = arith('&', castTo(e, 'u32', span), k(0xffffffn), 'u32', span);
    return signed ? arith('-', arith('^', bits, k(0x800000n), 'u32', span), k(0x800000n), 'u32', span) : bits;
  };
  const times = (a: Expr, b: Expr): Expr => castTo(arith('*', castTo(a, 'u32', span), castTo(b, 'u32', span), 'u32', span), t, span);
  return { kind: 'int', expr: ite(and(fits(x), fits(y)), times(x, y), times(low24(x), low24(y)), t, span), type: t };
}

const MATH_RESULT = /^the result of/;

// ---------------------------------------------------------------- function pointers

/** Callees that are not a function's name: `(*f)(…)`, `ops[i](…)`, `get()(…)`. */
const THROUGH_POINTER = new Set(['parenthesized_expression', 'pointer_expression', 'subscript_expression', 'call_expression', 'conditional_expression']);

/** A pointer to a function of the file, as a value. */
function functionPointer(name: string, span: Span): Value {
  return { kind: 'unknown', ctype: { kind: 'pointer', to: { kind: 'void' } }, what: `a pointer to ${name}`, span, function: name };
}

/** A callee without its parentheses and `*` (`(*f)` calls what `f` points to, and `*put` is `put`). */
function unparenthesised(n: Node): Node {
  if (n.type === 'parenthesized_expression') return unparenthesised(named(n)[0]!);
  if (n.type === 'pointer_expression' && n.child(0)?.type === '*') return unparenthesised(child(n, 'argument'));
  return n;
}

/**
 * A call through a function pointer whose target the file fixes: a local or
 * parameter holding one function (inlined, exact), a `__device__` or
 * `__constant__` pointer or table initialised with functions (by a constant
 * index: exact; by any other index: a call of any of them, an
 * over-approximation with notice N0621). Any other target is rejected.
 */
function callThroughPointer(ctx: Ctx, fn: Node, args: readonly Node[], n: Node): Value {
  const f = unparenthesised(fn);
  const unknown = (): never =>
    unsupported(ctx, fn, `a call through ${shortText(fn)}, a function pointer whose target faial-ts does not know`, [
      'faial-ts follows a pointer to a function of the file held by a local or parameter, or a const __device__ pointer or table of them',
    ]);
  if (f.type === 'identifier' || f.type === 'subscript_expression') {
    const base = f.type === 'identifier' ? f : unparenthesised(child(f, 'argument'));
    const b = base.type === 'identifier' ? ctx.scope.lookup(base.text) : undefined;
    if (b?.kind === 'array' && b.array.functions !== undefined) return callThroughTable(ctx, b.array, b.array.functions, f === base ? null : f, fn, args, n);
    if (f.type === 'identifier') {
      if (b === undefined && ctx.unit.functions.has(f.text)) return inlineCall(ctx, f.text, ctx.unit.functions.get(f.text)!, [], args, n);
      const v = rvalue(ctx, f);
      if (v.kind === 'unknown' && v.function !== undefined) return inlineCall(ctx, v.function, ctx.unit.functions.get(v.function)!, [], args, n);
      // `F f` of a kernel template called as `f(x)`: a function object of a type faial-ts keeps opaque, not a pointer
      const t = staticType(ctx, f);
      if (t?.kind === 'opaque')
        return unsupported(ctx, fn, `a call of ${f.text}, an object of type ${t.name}, which faial-ts keeps opaque (its class is not known here)`, [
          `faial-ts knows a kernel template's type parameter where every explicit instantiation (\`template __global__ void k<Op>(…);\`) or launch with template arguments (\`k<Op><<<…>>>\`) of the file gives it one class; a type deduced from a launch's arguments is not followed`,
        ]);
    }
  }
  return unknown();
}

/** A call through `ops[i]` (or `op`, a table of one): its element's function, or any of them when the index is not a constant. */
function callThroughTable(ctx: Ctx, table: ArrayRef, functions: FunctionTable, subscript: Node | null, fn: Node, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  const indices = subscript === null ? [] : named(child(subscript, 'indices'));
  if (indices.length > 1) return reject(ctx, 'misuse', subscript!, `${table.name} has one dimension`);
  const index = indices.length === 0 ? { expr: constant(0n, 'i32', span), type: 'i32' as const } : intOf(ctx, rvalue(ctx, indices[0]!), span);
  const names = functions.names;
  if (index.expr.kind === 'int') {
    const k = index.expr.value;
    if (k < 0n || k >= BigInt(names.length)) return reject(ctx, 'misuse', indices[0]!, `${table.name} holds ${names.length} functions: index ${k} is outside it`);
    if (functions.constant) return inlineCall(ctx, names[Number(k)]!, ctx.unit.functions.get(names[Number(k)]!)!, [], args, n);
  }
  // a table that is not const may have been changed by the host (cudaMemcpyToSymbol) to any function whose address the device code gives it: those of every table
  const targets = functions.constant ? [...new Set(names)] : [...new Set([...ctx.k.arrayRefs.values()].flatMap((a) => a.functions?.names ?? []))];
  const text = shortText(fn);
  if (!functions.constant) {
    notice(ctx, 'functionTable', spanOf(fn), `${table.name} is not const: the host may store in it any function of the file's tables (cudaMemcpyToSymbol), so the call through ${text} is modelled as a call of any of ${targets.join(', ')}; declare it const to make this exact`);
  }
  if (targets.length === 1) return inlineCall(ctx, targets[0]!, ctx.unit.functions.get(targets[0]!)!, [], args, n);
  if (functions.constant) notice(ctx, 'functionTable', spanOf(fn), `the call through ${text} is modelled as a call of any of ${targets.join(', ')}, whatever the index: alarms it decides are possible`);
  const selector = havocked(ctx, 'callee', 'i32', { kind: 'approximation', what: `the function ${text} calls`, why: `any of ${targets.join(', ')}`, span }, span);
  const result: Slot = { name: 'result', ctype: INT, span, what: `the result of ${text}` };
  ctx.values.set(result, { kind: 'void' });
  const callOf = (k: number): void => {
    if (k === targets.length - 1) {
      ctx.values.set(result, inlineCall(ctx, targets[k]!, ctx.unit.functions.get(targets[k]!)!, [], args, n));
      return;
    }
    const then = branch(ctx, () => ctx.values.set(result, inlineCall(ctx, targets[k]!, ctx.unit.functions.get(targets[k]!)!, [], args, n)));
    const other = branch(ctx, () => callOf(k + 1));
    emitIf(ctx, compare('==', selector, constant(BigInt(k), 'i32', span), span), then, other, span);
  };
  callOf(0);
  const v = ctx.values.get(result)!;
  ctx.values.delete(result);
  return v;
}

/** A name that says the function may make threads wait for each other (cg::sync, grid.sync, a barrier wrapper). */
const MAY_SYNCHRONISE = /sync|barrier|wait|arrive/i;

/**
 * A call of a function the file declares without a body (or does not
 * declare), not passed a pointer: one that may synchronise is rejected by
 * name, since a barrier dropped makes races out of the accesses it orders and
 * is never checked for divergence; any other gives an unknown result, with a
 * notice saying what is assumed of it.
 */
function bodilessCall(ctx: Ctx, name: string, fn: Node, span: Span): Value {
  if (MAY_SYNCHRONISE.test(name)) {
    return unsupported(ctx, fn, `a call of ${name}, a function without a body in this file that may synchronise threads`, [
      'faial-ts models __syncthreads(), __syncwarp() and cooperative groups\' sync(); define the function in the file (or include its header with quotes) so that its body is analysed',
    ]);
  }
  notice(ctx, 'unknownCall', span, `${name} has no body in this file: its result is unknown, and faial-ts assumes that it accesses none of the kernel's arrays and does not synchronise`);
  return { kind: 'unknown', ctype: INT, what: `the result of ${name}, a function without a body in this file`, span };
}

/** CUDA's `make_int2(x, y)`, `make_float4(…)`: a vector type's constructor. */
function makeVector(name: string): CType | null {
  const m = /^make_([a-z]+[1-4])$/.exec(name);
  return m === null ? null : vectorType(m[1]!);
}

/** `__requires(c)` in the kernel's own body constrains the launch (requires); elsewhere, and `__assume(c)`, it is an assumption. */
function annotation(ctx: Ctx, kind: 'requires' | 'assume', args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  if (args.length !== 1) return reject(ctx, 'misuse', n, `__${kind} takes one condition`);
  // the kernel itself is the first entry of calls; a longer list means a function called from it
  if (kind === 'requires' && ctx.k.calls.length > 1) {
    notice(ctx, 'ignoredAnnotation', span, `__requires of the called function ${ctx.fn.name} is not checked at this call; faial-ts ignores it`);
    return { kind: 'void' };
  }
  const cond = condition(ctx, args[0]!);
  const onLaunch = kind === 'requires' && launchOnlyCond(ctx, cond);
  if (onLaunch) ctx.k.requires.push(cond);
  else ctx.b.stmt({ kind: 'assume', cond, span });
  // a function inlined twice, or a loop body lowered again, meets the same condition again
  const written = spanOf(args[0]!);
  if (!ctx.k.stated.some((s) => s.span.start === written.start && s.span.end === written.end)) ctx.k.stated.push({ kind: onLaunch ? 'requires' : 'assume', span: written });
  return { kind: 'void' };
}

/** `T(args)` or `make_int2(…)`-like construction of a value of a type. */
function constructed(ctx: Ctx, t: CType, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  const values = args.map((a) => rvalue(ctx, a));
  if (t.kind === 'struct') {
    const leaves = leavesOf(t);
    if (values.length !== leaves.length) return structOfUnknown(t, `a ${t.name} value`, span);
    return { kind: 'struct', ctype: t, fields: values.map((v, i) => convert(ctx, v, leaves[i]!.type, span)) };
  }
  if (values.length !== 1) return reject(ctx, 'misuse', n, `${typeName(t)}(…) takes one value`);
  return convert(ctx, values[0]!, t, span);
}

export { child };
