/**
 * Types as written in the syntax tree → C types: specifiers, typedefs,
 * structs, CUDA's vector types, template type parameters (opaque), and the
 * declarators around a name (pointers, arrays, references).
 */
import type { Node } from './parse.js';
import type { Scope } from './context.js';
import type { Unit } from './unit.js';
import { NAMED_INTS, primitiveType, vectorType, INT, type CType } from './ctypes.js';
import { instantiated, memberTypeOf } from './classes.js';

export interface TypeEnv {
  readonly unit: Unit;
  readonly scope: Scope | null;
}

const OPAQUE_TEMPLATES = /^(?:texture|surface|cuda::|cooperative_groups)/;

/** The type a type specifier names. */
export function baseType(env: TypeEnv, n: Node): CType {
  switch (n.type) {
    case 'primitive_type':
      return primitiveType([n.text]) ?? { kind: 'opaque', name: n.text };
    case 'sized_type_specifier': {
      const words = n.children.filter((c): c is Node => c !== null).flatMap((c) => (c.type === 'comment' ? [] : c.text.split(/\s+/)));
      return primitiveType(words) ?? { kind: 'opaque', name: n.text };
    }
    case 'type_identifier':
      return namedType(env, n.text);
    case 'qualified_type_identifier':
    case 'qualified_identifier': {
      // a member type of a class of the file (`Traits<float>::Type`, `T::value_type` with T a class), resolved through it
      const member = classMemberType(env, n);
      if (member !== undefined) return member ?? unresolved(n);
      // a member type of another class template (`Traits<T>::ref`) may be a reference: it is not resolved
      if (memberOfTemplate(n)) return unresolved(n);
      if (n.type === 'qualified_identifier') return { kind: 'opaque', name: n.text };
      return namedType(env, n.text.replace(/^(?:std|::)+::/, '').replace(/^::/, ''));
    }
    case 'decltype':
      return decltypeOf(env, n);
    case 'dependent_type': {
      // `typename X::Y`: what faial-ts can name through a class of the file; anything else may be a reference
      const inner = n.namedChildren.find((c) => c !== null && c.type !== 'comment');
      const member = inner === undefined || inner === null ? undefined : classMemberType(env, inner);
      return member ?? unresolved(n);
    }
    case 'template_type': {
      const name = n.childForFieldName('name')?.text ?? n.text;
      if (OPAQUE_TEMPLATES.test(name)) return { kind: 'opaque', name: n.text };
      if (env.unit.classDefs.has(name)) {
        const inst = instantiated(env, name, n.childForFieldName('arguments'));
        // a class whose arguments or specialisation faial-ts cannot settle: its objects are values it does not follow
        return inst?.kind === 'one' ? inst.type : { kind: 'opaque', name: n.text };
      }
      return env.unit.types.get(name) ?? { kind: 'opaque', name: n.text };
    }
    case 'struct_specifier':
    case 'class_specifier': {
      const name = n.childForFieldName('name')?.text;
      return (name === undefined ? undefined : env.unit.types.get(name)) ?? { kind: 'opaque', name: n.text };
    }
    case 'enum_specifier':
      return INT;
    default:
      return { kind: 'opaque', name: n.text };
  }
}

const unresolved = (n: Node): CType => ({ kind: 'opaque', name: n.text, unresolved: true });

/** `C::X`, `C<args>::X`, `ns::C<args>::X` with C a class of the file: its member type (null: none faial-ts can name); undefined when C is not one. */
function classMemberType(env: TypeEnv, n: Node): CType | null | undefined {
  if (n.type !== 'qualified_identifier' && n.type !== 'qualified_type_identifier') return undefined;
  const scope = n.childForFieldName('scope');
  const name = n.childForFieldName('name');
  if (scope === null || name === null) return undefined;
  // a namespace before the class changes nothing: classes are known by their own names
  if (name.type === 'qualified_identifier' || name.type === 'qualified_type_identifier') return classMemberType(env, name);
  if (name.type !== 'type_identifier' && name.type !== 'identifier') return undefined;
  return memberTypeOf(env, scope, name.text);
}

/** `A<T>::x` (a member of a class template), not `cg::thread_block_tile<32>` (a template in a namespace). */
function memberOfTemplate(n: Node): boolean {
  const scope = n.childForFieldName('scope');
  if (scope !== null && (scope.type === 'template_type' || scope.descendantsOfType('template_type').length > 0)) return true;
  const name = n.childForFieldName('name');
  return name !== null && (name.type === 'qualified_identifier' || name.type === 'qualified_type_identifier') && memberOfTemplate(name);
}

/**
 * `decltype(e)` where C++ says which type it is without typing expressions:
 * a named local or parameter (its declared type, a reference if it is one),
 * an element of a named array or pointer (an lvalue: a reference to the
 * element type). Anything else is unresolved.
 */
function decltypeOf(env: TypeEnv, n: Node): CType {
  const e = n.namedChildren.find((c) => c !== null && c.type !== 'comment') ?? null;
  if (e === null || env.scope === null) return unresolved(n);
  if (e.type === 'identifier') {
    const b = env.scope.lookup(e.text);
    if (b?.kind === 'local') return b.slot.ctype;
    if (b?.kind === 'array' && b.scalar) return b.array.elem;
    return unresolved(n);
  }
  if (e.type === 'subscript_expression') {
    const base = e.childForFieldName('argument');
    const b = base?.type === 'identifier' ? env.scope.lookup(base.text) : undefined;
    if (b?.kind === 'array' && !b.scalar && b.array.dims === 1) return { kind: 'reference', to: b.array.elem };
    if (b?.kind === 'local' && b.slot.ctype.kind === 'pointer') return { kind: 'reference', to: b.slot.ctype.to };
  }
  return unresolved(n);
}

/** Whether no variable may be declared with this type: it could not be resolved, and may be a reference. */
export const isUnresolved = (t: CType): boolean => t.kind === 'opaque' && t.unresolved === true;

function namedType(env: TypeEnv, name: string): CType {
  const bound = env.scope?.lookup(name);
  if (bound?.kind === 'type') return bound.ctype;
  return env.unit.types.get(name) ?? vectorType(name) ?? NAMED_INTS.get(name) ?? primitiveType([name]) ?? { kind: 'opaque', name };
}

export interface Declared {
  /** the declared name; null for an abstract declarator */
  readonly name: Node | null;
  readonly ctype: CType;
  /** array dimensions, outermost first; a null size is `[]` */
  readonly dims: readonly (Node | null)[];
  readonly init: Node | null;
  readonly reference: boolean;
}

/** What a declarator declares, on a base type. */
export function declared(base: CType, d: Node | null): Declared {
  // a reference reached through an alias is a reference, as one written in the declarator is
  let ctype = base.kind === 'reference' ? base.to : base;
  const dims: (Node | null)[] = [];
  let init: Node | null = null;
  let reference = base.kind === 'reference';
  let name: Node | null = null;
  for (let n = d; n !== null; ) {
    switch (n.type) {
      case 'identifier':
      case 'field_identifier':
      case 'qualified_identifier':
      case 'type_identifier':
        // a typedef's declarator names a type
        name = n;
        n = null;
        break;
      case 'init_declarator':
        init = n.childForFieldName('value');
        n = n.childForFieldName('declarator');
        break;
      case 'pointer_declarator':
      case 'abstract_pointer_declarator':
        ctype = { kind: 'pointer', to: ctype };
        n = n.childForFieldName('declarator');
        break;
      case 'array_declarator':
      case 'abstract_array_declarator':
        dims.unshift(n.childForFieldName('size'));
        n = n.childForFieldName('declarator');
        break;
      case 'reference_declarator':
      case 'abstract_reference_declarator':
        reference = true;
        n = n.namedChildren.find((c) => c !== null && c.type !== 'comment') ?? null;
        break;
      case 'parenthesized_declarator':
      case 'attributed_declarator':
        n = n.namedChildren.find((c) => c !== null && c.type !== 'attribute_declaration' && c.type !== 'comment') ?? null;
        break;
      case 'function_declarator':
        n = n.childForFieldName('declarator');
        break;
      default:
        n = null;
    }
  }
  return { name, ctype, dims, init, reference };
}

/** The type of a type descriptor (`(float)x`, `static_cast<int *>`, `sizeof(T)`, `using R = int &`, a template argument); a reference stays one. */
export function typeOfDescriptor(env: TypeEnv, n: Node): CType {
  if (n.type !== 'type_descriptor') return baseType(env, n);
  const base = baseType(env, n.childForFieldName('type')!);
  const d = declared(base, n.childForFieldName('declarator'));
  const t: CType = d.dims.length > 0 ? { kind: 'pointer', to: d.ctype } : d.ctype;
  return d.reference ? { kind: 'reference', to: t } : t;
}

/** The type a typedef's declarator gives its name: a reference stays one. */
export function typedefType(d: Declared): CType {
  return d.reference ? { kind: 'reference', to: d.ctype } : d.ctype;
}
