/**
 * C's types as the CUDA front end needs them: integers of each width and
 * signedness (LP64, as nvcc on Linux: `long` and `size_t` are 64-bit), bool,
 * floating point (whose values are unknown to the analysis), pointers,
 * structs and CUDA's vector types (whose fields become an extra index
 * component), and opaque types (template type parameters, textures, classes
 * we do not model). Integer promotions and the usual arithmetic conversions
 * (C11 6.3.1) are computed here; the lowering makes them explicit as casts.
 */
import type { MachineType } from '../../core/ast.js';
import type { ClassInfo } from './classes.js';

export interface IntCType {
  readonly kind: 'int';
  readonly bits: 8 | 16 | 32 | 64;
  readonly signed: boolean;
  /** the type as written, for messages */
  readonly name: string;
}

export interface StructCType {
  readonly kind: 'struct';
  readonly name: string;
  readonly fields: readonly StructField[];
  /** a struct or class the file defines by name: its member functions, constructors and template arguments (classes.ts) */
  readonly cls?: ClassInfo;
}

/** A field; `length`: an array field of that many elements of `type` (one dimension, constant size), laid out as that many fields `name[k]` */
export interface StructField {
  readonly name: string;
  readonly type: CType;
  readonly length?: number;
}

export type CType =
  | IntCType
  | { readonly kind: 'bool' }
  | { readonly kind: 'float'; readonly name: string }
  | { readonly kind: 'void' }
  | { readonly kind: 'pointer'; readonly to: CType }
  | StructCType
  /** `T &` (or `T &&`) reached through a typedef, a `using` alias or a template argument; a declarator's own `&` is Declared.reference */
  | { readonly kind: 'reference'; readonly to: CType }
  /**
   * a type whose values the analysis does not follow: a template type parameter, a texture, a class;
   * `unresolved`: a name faial-ts cannot resolve (`decltype(…)`, `typename T::X`), which may be a reference, so no variable may be declared with it
   */
  | { readonly kind: 'opaque'; readonly name: string; readonly unresolved?: true };

const int = (bits: IntCType['bits'], signed: boolean, name: string): IntCType => ({ kind: 'int', bits, signed, name });

export const INT = int(32, true, 'int');
export const UINT = int(32, false, 'unsigned int');
export const LONG = int(64, true, 'long');
export const ULONG = int(64, false, 'unsigned long');
export const BOOL: CType = { kind: 'bool' };
export const FLOAT: CType = { kind: 'float', name: 'float' };
export const VOID: CType = { kind: 'void' };

/** Integer type names from <stdint.h>, <stddef.h> and CUDA's headers, LP64. */
export const NAMED_INTS: ReadonlyMap<string, IntCType> = new Map([
  ['size_t', int(64, false, 'size_t')],
  ['ssize_t', int(64, true, 'ssize_t')],
  ['ptrdiff_t', int(64, true, 'ptrdiff_t')],
  ['intptr_t', int(64, true, 'intptr_t')],
  ['uintptr_t', int(64, false, 'uintptr_t')],
  ['int8_t', int(8, true, 'int8_t')],
  ['uint8_t', int(8, false, 'uint8_t')],
  ['int16_t', int(16, true, 'int16_t')],
  ['uint16_t', int(16, false, 'uint16_t')],
  ['int32_t', int(32, true, 'int32_t')],
  ['uint32_t', int(32, false, 'uint32_t')],
  ['int64_t', int(64, true, 'int64_t')],
  ['uint64_t', int(64, false, 'uint64_t')],
  ['uint', int(32, false, 'uint')],
  ['uchar', int(8, false, 'uchar')],
  ['ushort', int(16, false, 'ushort')],
  ['ulong', int(64, false, 'ulong')],
]);

const FLOAT_NAMES = new Set(['float', 'double', 'half', '__half', '__nv_bfloat16', 'half2', '__half2']);

const VECTOR_FIELDS = ['x', 'y', 'z', 'w'];
const VECTOR_BASES: ReadonlyMap<string, CType> = new Map<string, CType>([
  ['char', int(8, true, 'char')],
  ['uchar', int(8, false, 'unsigned char')],
  ['short', int(16, true, 'short')],
  ['ushort', int(16, false, 'unsigned short')],
  ['int', INT],
  ['uint', UINT],
  ['long', LONG],
  ['ulong', ULONG],
  ['longlong', LONG],
  ['ulonglong', ULONG],
  ['float', FLOAT],
  ['double', { kind: 'float', name: 'double' }],
]);

/** CUDA's vector types (`float4`, `int2`, `uint3`, `dim3`…) as structs of x, y, z, w. */
export function vectorType(name: string): StructCType | null {
  if (name === 'dim3') return vectorType('uint3');
  const m = /^([a-z]+)([1-4])$/.exec(name);
  const base = m === null ? undefined : VECTOR_BASES.get(m[1]!);
  if (m === null || base === undefined) return null;
  return { kind: 'struct', name, fields: VECTOR_FIELDS.slice(0, Number(m[2])).map((f) => ({ name: f, type: base })) };
}

/** The type a primitive or sized type specifier's words name (`unsigned`, `long long`, `size_t`…), or null. */
export function primitiveType(words: readonly string[]): CType | null {
  const w = words.filter((x) => x !== 'signed' || words.length === 1);
  const unsigned = w.includes('unsigned');
  const rest = w.filter((x) => x !== 'unsigned' && x !== 'signed');
  const key = rest.join(' ');
  if (words.length === 1) {
    const named = NAMED_INTS.get(key);
    if (named) return named;
    if (FLOAT_NAMES.has(key)) return { kind: 'float', name: key };
    if (key === 'bool') return BOOL;
    if (key === 'void') return VOID;
  }
  if (key === 'double' || key === 'long double') return { kind: 'float', name: key };
  const name = words.join(' ');
  switch (key) {
    case '':
    case 'int':
      return int(32, !unsigned, name);
    case 'char':
      return int(8, !unsigned, name);
    case 'short':
    case 'short int':
      return int(16, !unsigned, name);
    case 'long':
    case 'long int':
    case 'long long':
    case 'long long int':
      return int(64, !unsigned, name);
    default:
      return null;
  }
}

/** The machine type an integer type computes in after the integer promotions (C11 6.3.1.1). */
export function promoted(t: IntCType | { kind: 'bool' }): MachineType {
  if (t.kind === 'bool' || t.bits < 32) return 'i32';
  return machineOf(t);
}

export function machineOf(t: IntCType): MachineType {
  if (t.bits === 64) return t.signed ? 'i64' : 'u64';
  if (t.bits === 32) return t.signed ? 'i32' : 'u32';
  return 'i32';
}

export const isSigned = (t: MachineType): boolean => t === 'i32' || t === 'i64';
export const widthOf = (t: MachineType): 32 | 64 => (t === 'i32' || t === 'u32' ? 32 : 64);

/** The usual arithmetic conversions of two promoted operand types (C11 6.3.1.8). */
export function commonType(a: MachineType, b: MachineType): MachineType {
  if (a === b) return a;
  if (isSigned(a) === isSigned(b)) return widthOf(a) >= widthOf(b) ? a : b;
  const [s, u] = isSigned(a) ? [a, b] : [b, a];
  if (widthOf(u) >= widthOf(s)) return u;
  // the signed type is wider, so it holds every value of the unsigned one
  return s;
}

export function rangeOf(t: MachineType): { min: bigint; max: bigint } {
  const w = BigInt(widthOf(t));
  return isSigned(t) ? { min: -(1n << (w - 1n)), max: (1n << (w - 1n)) - 1n } : { min: 0n, max: (1n << w) - 1n };
}

export function inRange(value: bigint, t: MachineType): boolean {
  const r = rangeOf(t);
  return value >= r.min && value <= r.max;
}

/** The value reduced modulo 2^width into the type's range, as a C conversion does. */
export function wrapped(value: bigint, t: MachineType): bigint {
  const w = BigInt(widthOf(t));
  const m = ((value % (1n << w)) + (1n << w)) % (1n << w);
  return isSigned(t) && m >= 1n << (w - 1n) ? m - (1n << w) : m;
}

/** The leaves of a struct, nested structs flattened, in declaration order: the extra index component counts these. */
export function leavesOf(t: CType): readonly { readonly path: string; readonly type: CType }[] {
  if (t.kind !== 'struct') return [{ path: '', type: t }];
  const under = (name: string, l: { path: string; type: CType }) => ({ path: l.path === '' ? name : `${name}.${l.path}`, type: l.type });
  return t.fields.flatMap((f) =>
    f.length === undefined ? leavesOf(f.type).map((l) => under(f.name, l)) : Array.from({ length: f.length }, (_, k) => leavesOf(f.type).map((l) => under(`${f.name}[${k}]`, l))).flat(),
  );
}

/** A core array's `fields` for elements of type `t` (core/ast.ts ArrayDecl): a struct's leaf paths, nothing for a scalar. */
export function leafNames(t: CType): { readonly fields?: readonly string[] } {
  return t.kind === 'struct' ? { fields: leavesOf(t).map((l) => l.path) } : {};
}

/** What a path of fields and constant indices (`in.b`, `keys[2].a`, `keys`) names in a struct: its first leaf and its type; `length` when it is a whole array field. */
export interface Part {
  readonly first: number;
  readonly type: CType;
  readonly length?: number;
}

export function partAt(t: CType, path: string): Part | null {
  let type: CType = t;
  let first = 0;
  let length: number | undefined;
  for (const step of path.split('.')) {
    const m = /^(\w+)(?:\[(\d+)\])?$/.exec(step);
    if (m === null || type.kind !== 'struct' || length !== undefined) return null;
    const at = type.fields.findIndex((f) => f.name === m[1]);
    if (at < 0) return null;
    for (const f of type.fields.slice(0, at)) first += leavesOf(f.type).length * (f.length ?? 1);
    const f = type.fields[at]!;
    type = f.type;
    if (m[2] !== undefined) {
      if (f.length === undefined || Number(m[2]) >= f.length) return null;
      first += Number(m[2]) * leavesOf(f.type).length;
    } else length = f.length;
  }
  return length === undefined ? { first, type } : { first, type, length };
}

/** Bytes, for sizeof and for telling whether two views of one memory agree on its elements. */
export function sizeOf(t: CType): number | null {
  switch (t.kind) {
    case 'int':
      return t.bits / 8;
    case 'bool':
      return 1;
    case 'float':
      return t.name === 'double' || t.name === 'long double' ? 8 : t.name.includes('half') || t.name.includes('bfloat') ? 2 : 4;
    case 'pointer':
      return 8;
    case 'reference':
      return sizeOf(t.to);
    case 'struct': {
      let total = 0;
      for (const f of t.fields) {
        const s = sizeOf(f.type);
        if (s === null) return null;
        total += s * (f.length ?? 1);
      }
      return total;
    }
    case 'void':
    case 'opaque':
      return null;
  }
}

/** Whether a literal's text (digit separators removed) is a floating constant: a decimal with `.`, an exponent or `f`, a hexadecimal with `.` or `p`. */
export function isFloatingLiteral(text: string): boolean {
  return /^0[xX]/.test(text) ? /[.pP]/.test(text) : /[.eEfF]/.test(text.replace(/[uUlL]+$/, ''));
}

/**
 * An integer literal's value and type (C11 6.4.4.1, C++ [lex.icon], LP64):
 * the first of its suffix's candidate types that holds the value; a decimal
 * literal without `u` is never unsigned. `0xFFFFFFFF` is an `unsigned int`,
 * `3000000000` a `long`, `1ul` an `unsigned long`, `1ll` a `long long`. Null
 * for text that is not an integer literal; a value beyond every candidate is
 * an `unsigned long` as GCC makes it ("so large that it is unsigned"), and
 * beyond that the caller rejects it.
 */
export function integerLiteral(written: string): { readonly value: bigint; readonly type: IntCType } | null {
  const m = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([uUlL]*)$/.exec(written.replace(/'/g, ''));
  if (m === null) return null;
  const digits = m[1]!;
  const value = /^0[bB]/.test(digits) ? BigInt(`0b${digits.slice(2)}`) : /^0[0-7]+$/.test(digits) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  const suffix = m[2]!.toLowerCase();
  const candidates = LITERAL_CANDIDATES.get(`${/^[1-9]/.test(digits) || digits === '0' ? 'dec' : 'other'}:${suffix}`);
  if (candidates === undefined) return null;
  const type = candidates.find((t) => inRange(value, machineOf(t))) ?? ULONG;
  return { value, type };
}

const LONG_LONG = int(64, true, 'long long');
const ULONG_LONG = int(64, false, 'unsigned long long');
/** The candidate types of an integer literal by base (decimal or not) and suffix, in order. */
const LITERAL_CANDIDATES: ReadonlyMap<string, readonly IntCType[]> = new Map(
  (['dec', 'other'] as const).flatMap((base) => {
    const dec = base === 'dec';
    const rows: [string, IntCType[]][] = [
      ['', dec ? [INT, LONG, LONG_LONG] : [INT, UINT, LONG, ULONG, LONG_LONG, ULONG_LONG]],
      ['u', [UINT, ULONG, ULONG_LONG]],
      ['l', dec ? [LONG, LONG_LONG] : [LONG, ULONG, LONG_LONG, ULONG_LONG]],
      ['ul', [ULONG, ULONG_LONG]],
      ['ll', dec ? [LONG_LONG] : [LONG_LONG, ULONG_LONG]],
      ['ull', [ULONG_LONG]],
    ];
    // the suffix's letters in any order and case the grammar allows: `lu`, `LLU`, `uLL`
    const spellings = (s: string): string[] => (s === 'ul' ? ['ul', 'lu'] : s === 'ull' ? ['ull', 'llu'] : [s]);
    return rows.flatMap(([s, types]) => spellings(s).map((sp): [string, readonly IntCType[]] => [`${base}:${sp}`, types]));
  }),
);

/**
 * A key equal for two integer types C++ takes as one type (LP64 Linux:
 * `unsigned` is `unsigned int`, `size_t` and `uint64_t` are `unsigned long`,
 * `int8_t` is `signed char`; `long` and `long long` differ, as do `char`,
 * `signed char` and `unsigned char`), so overload resolution can see an
 * exact match whatever the spelling.
 */
export function integerTypeKey(t: IntCType): string {
  const longLong = t.bits === 64 && /long long/.test(t.name);
  const plainChar = t.bits === 8 && t.name === 'char';
  return `${t.signed ? 'i' : 'u'}${t.bits}${longLong ? 'll' : ''}${plainChar ? 'c' : ''}`;
}

export function typeName(t: CType): string {
  switch (t.kind) {
    case 'int':
    case 'float':
    case 'struct':
    case 'opaque':
      return t.name;
    case 'bool':
      return 'bool';
    case 'void':
      return 'void';
    case 'pointer':
      return `${typeName(t.to)} *`;
    case 'reference':
      return `${typeName(t.to)} &`;
  }
}

export const isInteger = (t: CType): t is IntCType | { kind: 'bool' } => t.kind === 'int' || t.kind === 'bool';
