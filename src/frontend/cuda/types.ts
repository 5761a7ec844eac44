/**
 * Types as written in the syntax tree → C types: specifiers, typedefs,
 * structs, CUDA's vector types, template type parameters (opaque), and the
 * declarators around a name (pointers, arrays, references).
 */
import type { Node } from './parse.js';
import type { Scope } from './context.js';
import { NAMED_INTS, primitiveType, vectorType, INT, type CType } from './ctypes.js';

export interface TypeEnv {
  readonly unit: { readonly types: ReadonlyMap<string, CType> };
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
      return namedType(env, n.text.replace(/^(?:std|::)+::/, '').replace(/^::/, ''));
    case 'template_type': {
      const name = n.childForFieldName('name')?.text ?? n.text;
      if (OPAQUE_TEMPLATES.test(name)) return { kind: 'opaque', name: n.text };
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
  let ctype = base;
  const dims: (Node | null)[] = [];
  let init: Node | null = null;
  let reference = false;
  let name: Node | null = null;
  for (let n = d; n !== null; ) {
    switch (n.type) {
      case 'identifier':
      case 'field_identifier':
      case 'qualified_identifier':
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

/** The type of a type descriptor (`(float)x`, `static_cast<int *>`, `sizeof(T)`). */
export function typeOfDescriptor(env: TypeEnv, n: Node): CType {
  if (n.type !== 'type_descriptor') return baseType(env, n);
  const base = baseType(env, n.childForFieldName('type')!);
  const d = declared(base, n.childForFieldName('declarator'));
  return d.dims.length > 0 ? { kind: 'pointer', to: d.ctype } : d.ctype;
}
