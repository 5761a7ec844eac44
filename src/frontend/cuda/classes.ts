/**
 * C++ classes: the structs and classes the file defines by name, with their
 * member functions, constructors, member types, static constants and
 * template arguments. A class is a struct type (its data members are its
 * fields, in declaration order, as for a C struct) that also knows its
 * members (`StructCType.cls`). A class template is instantiated where its
 * arguments are known (`View<float>`, `Buf<256>`), choosing the full
 * specialisation (`template <> struct Traits<float>`) that matches them.
 *
 * Member types (`Traits<float>::Type`, `typename T::value_type` with `T` a
 * class) are resolved through the class. Where the arguments are not known
 * (a template type parameter the analysis keeps opaque), a member type is
 * opaque when the primary template and every full specialisation make it a
 * type that is not a reference, and unresolved otherwise; a class with a
 * partial specialisation is never instantiated. An unresolved type may be a
 * reference, so no variable may be declared with it (types.ts).
 *
 * What this module does not model makes a class's objects unusable, said at
 * the construct (`ClassInfo.problem`): a base class, virtual functions, a
 * destructor with a body, user-provided copy and move constructors and
 * assignment operators (C++ calls them implicitly, and may elide them), and
 * `mutable` members (a const member function could change them).
 */
import type { Node } from './parse.js';
import { Scope, type Binding } from './context.js';
import { typeName, type CType, type IntCType, type StructCType, type StructField } from './ctypes.js';
import type { FunctionDef, Unit } from './unit.js';
import { cudaAttributes } from './parse.js';
import { baseType, declared, typedefType, typeOfDescriptor, type TypeEnv } from './types.js';
import { constantValue, fieldsOf } from './unit.js';

/** A struct or class definition of the file: a class, a class template, or a specialisation of one. */
export interface ClassDef {
  readonly name: string;
  readonly node: Node;
  readonly body: Node;
  /** the template parameter list of a class template or of a partial specialisation; null for a class */
  readonly template: Node | null;
  /** a specialisation's arguments (`Traits<float>`); null for a class or the primary template */
  readonly specialised: Node | null;
}

/** A member function defined outside its class (`float V<T>::get(int i) const {…}`), with the template parameters it is written under. */
export interface OutOfClassMember {
  readonly node: Node;
  readonly template: Node | null;
}

/** What a class type knows beyond its fields. */
export interface ClassInfo {
  readonly def: ClassDef;
  /** the template parameters, bound to the instance's arguments (types and integer constants) */
  readonly bindings: ReadonlyMap<string, Binding>;
  /** why the class's objects are not modelled, at the construct that says so; null when they are */
  readonly problem: { readonly at: Node; readonly what: string } | null;
  /** the class a nested class is defined in (`BlockSum<int, 128>::TempStorage`), whose names it sees */
  readonly outer?: StructCType;
}

/** A member function or constructor of a class instance, ready to inline. */
export interface Member {
  /** `name`: the member's name (`get`, `operator[]`; the class's name for a constructor) */
  readonly def: FunctionDef;
  /** the class's template parameters under the names this definition uses (an out-of-class definition may rename them) */
  readonly bindings: ReadonlyMap<string, Binding>;
  readonly kind: 'method' | 'constructor';
  readonly isStatic: boolean;
  readonly isConst: boolean;
  /** a constructor declared `= default`: it initialises as the implicit one would */
  readonly defaulted: boolean;
}

const named = (n: Node): Node[] => n.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
const normal = (text: string): string => text.replace(/\s+/g, '');

/** Records a struct or class definition with a body (a class template's or a specialisation's too). */
export function defineClass(unit: Unit, c: Node, template: Node | null): void {
  const nameNode = c.childForFieldName('name');
  const body = c.childForFieldName('body');
  if (nameNode === null || body === null) return;
  const specialised = nameNode.type === 'template_type' ? nameNode.childForFieldName('arguments') : null;
  const name = nameNode.type === 'template_type' ? (nameNode.childForFieldName('name')?.text ?? nameNode.text) : nameNode.text;
  const def: ClassDef = { name, node: c, body, template: template !== null && named(template).length > 0 ? template : null, specialised };
  unit.classDefs.set(name, [...(unit.classDefs.get(name) ?? []), def]);
  // a class (not a template) is a type as soon as it is defined: what the file's later declarations name
  if (def.template === null && specialised === null) unit.types.set(name, instance(unit, def, name, new Map()));
}

/** A member function defined outside its class, `T C::f(…) {…}`: recorded under C when C is a class of the file. */
export function defineOutOfClass(unit: Unit, c: Node, template: Node | null): boolean {
  const scope = qualifiedDeclarator(c)?.childForFieldName('scope');
  if (scope === null || scope === undefined) return false;
  const cls = scope.type === 'template_type' ? scope.childForFieldName('name')?.text : scope.text;
  if (cls === undefined || !unit.classDefs.has(cls)) return false;
  unit.outOfClass.set(cls, [...(unit.outOfClass.get(cls) ?? []), { node: c, template }]);
  return true;
}

function functionDeclarator(fn: Node): Node | null {
  let d = fn.childForFieldName('declarator');
  while (d !== null && d.type !== 'function_declarator') d = d.childForFieldName('declarator') ?? named(d).find((x) => x.type === 'function_declarator') ?? null;
  return d;
}

function qualifiedDeclarator(fn: Node): Node | null {
  const d = functionDeclarator(fn)?.childForFieldName('declarator');
  return d?.type === 'qualified_identifier' ? d : null;
}

// ---------------------------------------------------------------- templates and instances

interface TemplateParam {
  readonly name: string;
  readonly kind: 'type' | 'value';
  /** a value parameter's type */
  readonly ctype: CType;
  readonly fallback: Node | null;
}

function templateParams(env: TypeEnv, list: Node | null): TemplateParam[] | null {
  if (list === null) return [];
  const out: TemplateParam[] = [];
  for (const p of named(list)) {
    switch (p.type) {
      case 'type_parameter_declaration':
      case 'optional_type_parameter_declaration': {
        const id = p.childForFieldName('name') ?? named(p).find((c) => c.type === 'type_identifier');
        if (id === undefined || id === null) return null;
        out.push({ name: id.text, kind: 'type', ctype: { kind: 'opaque', name: id.text }, fallback: p.childForFieldName('default_type') });
        break;
      }
      case 'parameter_declaration':
      case 'optional_parameter_declaration': {
        const d = declared(baseType(env, p.childForFieldName('type')!), p.childForFieldName('declarator'));
        if (d.name === null || d.ctype.kind !== 'int') return null;
        out.push({ name: d.name.text, kind: 'value', ctype: d.ctype, fallback: p.childForFieldName('default_value') });
        break;
      }
      default:
        // a variadic pack or a template template parameter
        return null;
    }
  }
  return out;
}

type TemplateArg = { readonly kind: 'type'; readonly ctype: CType } | { readonly kind: 'value'; readonly value: bigint; readonly ctype: IntCType };

const argText = (a: TemplateArg): string => (a.kind === 'type' ? typeName(a.ctype) : String(a.value));

const bindingOf = (a: TemplateArg): Binding =>
  a.kind === 'type' ? { kind: 'type', ctype: a.ctype } : { kind: 'value', value: { kind: 'int', expr: { kind: 'int', value: a.value, type: a.ctype.bits === 64 ? (a.ctype.signed ? 'i64' : 'u64') : a.ctype.signed ? 'i32' : 'u32', span: { start: 0, end: 0 } }, type: a.ctype.bits === 64 ? (a.ctype.signed ? 'i64' : 'u64') : a.ctype.signed ? 'i32' : 'u32' } };

/** The arguments for `params` (defaults filled in, each evaluated with the earlier ones bound); null when one is missing or not a constant. */
function templateArgs(env: TypeEnv, params: readonly TemplateParam[], given: readonly Node[]): TemplateArg[] | null {
  const scope = new Scope(env.scope);
  const out: TemplateArg[] = [];
  for (const [i, p] of params.entries()) {
    const node = given[i] ?? p.fallback;
    if (node === null) return null;
    const here = { unit: env.unit, scope };
    if (p.kind === 'type') {
      const ctype = typeOfDescriptor(here, node);
      out.push({ kind: 'type', ctype });
    } else {
      const v = constantValue(env.unit, node, p.ctype, scope);
      if (v?.kind !== 'int' || v.expr.kind !== 'int') return null;
      out.push({ kind: 'value', value: v.expr.value, ctype: p.ctype as IntCType });
    }
    scope.define(p.name, bindingOf(out[out.length - 1]!));
  }
  return given.length > params.length ? null : out;
}

/** Whether a type leaves something to be known: a template type parameter kept opaque, or a type built on one. */
function dependsOnUnknown(t: CType): boolean {
  switch (t.kind) {
    case 'opaque':
      return true;
    case 'pointer':
    case 'reference':
      return dependsOnUnknown(t.to);
    default:
      return false;
  }
}

/** What a class template's name with arguments names: one instance, any of several (an argument not known and specialisations that could match), or nothing faial-ts can instantiate. */
type Instantiation = { readonly kind: 'one'; readonly type: StructCType } | { readonly kind: 'any'; readonly types: readonly StructCType[] } | null;

/** The class `name<args>` (or `name` for a class, args null). */
export function instantiated(env: TypeEnv, name: string, args: Node | null): Instantiation {
  const defs = env.unit.classDefs.get(name);
  const primary = defs?.find((d) => d.specialised === null);
  if (defs === undefined || primary === undefined) return null;
  if (primary.template === null) {
    const t = env.unit.instances.get(name);
    return t !== undefined && t.kind === 'struct' && args === null ? { kind: 'one', type: t } : null;
  }
  const params = templateParams({ unit: env.unit, scope: null }, primary.template);
  const given = templateArgs(env, params ?? [], args === null ? [] : named(args));
  if (params === null || given === null) return null;
  const specs = defs.filter((d) => d.specialised !== null);
  // a partial specialisation would have to be matched against the arguments: not done, so never guessed
  if (specs.some((d) => d.template !== null)) return null;
  const key = `${name}<${given.map(argText).join(', ')}>`;
  const primaryInstance = (): StructCType => instance(env.unit, primary, key, new Map(params.map((p, i) => [p.name, bindingOf(given[i]!)])));
  if (given.some((a) => a.kind === 'type' && dependsOnUnknown(a.ctype))) {
    if (specs.length === 0) return { kind: 'one', type: primaryInstance() };
    const all = [primaryInstance(), ...specs.map((d) => specialisation(env, d, params)).filter((t): t is StructCType => t !== null)];
    return { kind: 'any', types: all };
  }
  for (const d of specs) {
    const spec = templateArgs({ unit: env.unit, scope: null }, params, named(d.specialised!));
    if (spec !== null && spec.map(argText).join(', ') === given.map(argText).join(', ')) return { kind: 'one', type: instance(env.unit, d, key, new Map()) };
  }
  return { kind: 'one', type: primaryInstance() };
}

function specialisation(env: TypeEnv, d: ClassDef, params: readonly TemplateParam[]): StructCType | null {
  const spec = templateArgs({ unit: env.unit, scope: null }, params, named(d.specialised!));
  return spec === null ? null : instance(env.unit, d, `${d.name}<${spec.map(argText).join(', ')}>`, new Map());
}

/** The class type of a definition with its template parameters bound, made once per name. */
function instance(unit: Unit, def: ClassDef, key: string, bindings: ReadonlyMap<string, Binding>, outer?: StructCType): StructCType {
  const known = unit.instances.get(key);
  if (known !== undefined && known.kind === 'struct') return known;
  const fields: StructField[] = [];
  const t: StructCType = { kind: 'struct', name: key, fields, cls: { def, bindings, problem: problemOf(def), ...(outer === undefined ? {} : { outer }) } };
  // made known before its fields are read: a field may point to the class itself (`Node *next`)
  unit.instances.set(key, t);
  fields.push(...fieldsOf(unit, def.body, classScope(unit, t)));
  return t;
}

/** Why a class's objects are not modelled (see the module comment), or null. */
function problemOf(def: ClassDef): ClassInfo['problem'] {
  const base = named(def.node).find((c) => c.type === 'base_class_clause');
  if (base !== undefined) return { at: base, what: `a class with a base class (${def.name} ${normal(base.text).replace(/^:/, ': ')})` };
  for (const m of named(def.body)) {
    const fn = m.type === 'template_declaration' ? (named(m).find((c) => c.type === 'function_definition' || c.type === 'field_declaration' || c.type === 'declaration') ?? m) : m;
    if (fn.children.some((c) => c?.type === 'virtual') || /\bvirtual\b/.test(fn.text.split('(')[0]!)) return { at: fn, what: `a virtual member function of ${def.name}` };
    if (m.type === 'field_declaration' && m.children.some((c) => c?.type === 'type_qualifier' && c.text === 'mutable')) return { at: m, what: `a mutable member of ${def.name}` };
    if (fn.type !== 'function_definition') continue;
    const d = functionDeclarator(fn);
    const inner = d?.childForFieldName('declarator');
    const body = fn.childForFieldName('body');
    if (inner?.type === 'destructor_name' && body !== null && named(body).length > 0) return { at: fn, what: `the destructor of ${def.name}` };
    if (body === null) continue;
    const params = d === null ? [] : named(d.childForFieldName('parameters')!);
    const takesSelf = params.length === 1 && new RegExp(`\\b${def.name}\\b`).test(params[0]!.childForFieldName('type')?.text ?? '') && params[0]!.descendantsOfType('reference_declarator').length + (params[0]!.childForFieldName('declarator')?.type === 'reference_declarator' ? 1 : 0) > 0;
    if (inner?.type === 'identifier' && inner.text === def.name && takesSelf) return { at: fn, what: `a user-defined copy or move constructor of ${def.name}` };
    if (inner?.type === 'operator_name' && normal(inner.text) === 'operator=') return { at: fn, what: `a user-defined assignment operator of ${def.name}` };
  }
  return null;
}

// ---------------------------------------------------------------- names inside a class

const classScopes = new WeakMap<StructCType, Scope>();

/**
 * The names a class's members see besides their own: its template
 * parameters, its own name, its member types and its static constants
 * (each resolved when it is first asked for).
 */
export function classScope(unit: Unit, t: StructCType): Scope {
  const known = classScopes.get(t);
  if (known !== undefined) return known;
  const info = t.cls!;
  const types = new Map<string, CType | null>();
  // a nested class sees the names of the class it is defined in
  const scope: Scope = new Scope(info.outer === undefined ? null : classScope(unit, info.outer), (name) => {
    if (name === info.def.name) return { kind: 'type', ctype: t };
    const bound = info.bindings.get(name);
    if (bound !== undefined) return bound;
    if (!types.has(name)) {
      // a member type's own definition may name the class's other members: guarded against a cycle
      types.set(name, null);
      types.set(name, ownMemberType(unit, t, name, scope));
    }
    const ctype = types.get(name);
    if (ctype !== null && ctype !== undefined) return { kind: 'type', ctype };
    const value = staticConstant(unit, t, name, scope);
    return value === null ? undefined : { kind: 'value', value };
  });
  classScopes.set(t, scope);
  return scope;
}

/** The type a member typedef or alias (`typedef T Type;`, `using value_type = T;`), or a class defined in the class (`struct TempStorage {…};`), names, in the class's scope. */
function ownMemberType(unit: Unit, t: StructCType, member: string, scope: Scope): CType | null {
  const env = { unit, scope };
  for (const m of named(t.cls!.def.body)) {
    const nested = m.type === 'field_declaration' ? m.childForFieldName('type') : null;
    const body = nested?.childForFieldName('body') ?? null;
    if ((nested?.type === 'struct_specifier' || nested?.type === 'class_specifier') && body !== null && nested.childForFieldName('name')?.text === member) {
      return instance(unit, { name: member, node: nested, body, template: null, specialised: null }, `${t.name}::${member}`, t.cls!.bindings, t);
    }
    // a union's members share its storage: a type of its own, rejected by name where a member is accessed (expr.ts withField)
    if (nested?.type === 'union_specifier' && nested.childForFieldName('name')?.text === member) return { kind: 'opaque', name: `union ${t.name}::${member}` };
    if (m.type === 'alias_declaration' && m.childForFieldName('name')?.text === member) return typeOfDescriptor(env, m.childForFieldName('type')!);
    if (m.type !== 'type_definition') continue;
    for (const d of m.childrenForFieldName('declarator')) {
      const decl = declared(baseType(env, m.childForFieldName('type')!), d);
      if (decl.name?.text === member) return typedefType(decl);
    }
  }
  return null;
}

/** A static integer constant of the class (`static const int N = 4;`, `static constexpr`, an enumerator of an enum in the class). */
function staticConstant(unit: Unit, t: StructCType, name: string, scope: Scope): import('./context.js').Value | null {
  const env = { unit, scope };
  for (const m of named(t.cls!.def.body)) {
    if (m.type !== 'field_declaration') continue;
    const type = m.childForFieldName('type');
    if (type?.type === 'enum_specifier') {
      let next = 0n;
      for (const e of named(type.childForFieldName('body') ?? type)) {
        if (e.type !== 'enumerator') continue;
        const valueNode = e.childForFieldName('value');
        const v = valueNode === null ? null : constantValue(unit, valueNode, { kind: 'int', bits: 32, signed: true, name: 'int' }, scope);
        if (v?.kind === 'int' && v.expr.kind === 'int') next = v.expr.value;
        if (e.childForFieldName('name')?.text === name) return { kind: 'int', expr: { kind: 'int', value: next, type: 'i32', span: { start: e.startIndex, end: e.endIndex } }, type: 'i32' };
        next += 1n;
      }
      continue;
    }
    const isStatic = m.children.some((c) => c?.type === 'storage_class_specifier' && c.text === 'static');
    if (!isStatic || type === null) continue;
    const defaults = defaultsOf(m);
    for (const [d, init] of defaults) {
      const decl = declared(baseType(env, type), d);
      if (decl.name?.text !== name || init === null || decl.ctype.kind !== 'int') continue;
      return constantValue(unit, init.type === 'initializer_list' ? (named(init)[0] ?? init) : init, decl.ctype, scope);
    }
  }
  return null;
}

/** A field declaration's declarators, each with the default member initialiser written after it (`int a = 1, b{2};`), or null. */
function defaultsOf(m: Node): [Node, Node | null][] {
  const out: [Node, Node | null][] = [];
  m.children.forEach((c, i) => {
    if (m.fields[i] === 'declarator') out.push([c, null]);
    else if (m.fields[i] === 'default_value' && out.length > 0) out[out.length - 1]![1] = c;
  });
  return out;
}

/**
 * The type of `Class::member` or `Class<args>::member`: undefined when the
 * scope is not a class of the file, null when it is and the member type is
 * not one faial-ts can name (none, or one of several classes makes it a
 * reference).
 */
export function memberTypeOf(env: TypeEnv, scope: Node, member: string): CType | null | undefined {
  const types = scopeClasses(env, scope);
  if (types === null) return undefined;
  const found = types.map((t) => classScope(env.unit, t).lookup(member));
  if (found.some((b) => b?.kind !== 'type')) return null;
  const ctypes = found.map((b) => (b as Binding & { kind: 'type' }).ctype);
  if (ctypes.length === 1) return ctypes[0]!;
  // several classes may be the one (an argument not known): a name none of them makes a reference is an opaque type
  return ctypes.some((c) => c.kind === 'reference' || (c.kind === 'opaque' && c.unresolved === true)) ? null : { kind: 'opaque', name: `${scope.text}::${member}` };
}

/** The classes a scope names: `C`, `C<args>`, or a template parameter bound to a class (`T` in `typename T::value_type`). */
function scopeClasses(env: TypeEnv, scope: Node): StructCType[] | null {
  if (scope.type === 'template_type') {
    const inst = instantiated(env, scope.childForFieldName('name')?.text ?? '', scope.childForFieldName('arguments'));
    return inst === null ? null : inst.kind === 'one' ? [inst.type] : [...inst.types];
  }
  if (scope.type !== 'namespace_identifier' && scope.type !== 'type_identifier') return null;
  const t = typeOfName(env, scope.text);
  return t?.kind === 'struct' && t.cls !== undefined ? [t] : null;
}

function typeOfName(env: TypeEnv, name: string): CType | undefined {
  const bound = env.scope?.lookup(name);
  if (bound?.kind === 'type') return bound.ctype;
  return env.unit.types.get(name);
}

/** A static integer constant named `C::N` or `C<args>::N`, when the scope is a class of the file. */
export function classConstant(env: TypeEnv, scope: Node, name: string): import('./context.js').Value | null {
  const types = scopeClasses(env, scope);
  if (types === null || types.length !== 1) return null;
  const b = classScope(env.unit, types[0]!).lookup(name);
  return b?.kind === 'value' ? b.value : null;
}

// ---------------------------------------------------------------- member functions

const membersOfType = new WeakMap<StructCType, readonly Member[]>();

/** The member functions and constructors of a class instance: defined in its body, or outside it. */
export function membersOf(unit: Unit, t: StructCType): readonly Member[] {
  const known = membersOfType.get(t);
  if (known !== undefined) return known;
  const info = t.cls!;
  const out: Member[] = [];
  for (const m of named(info.def.body)) {
    const fn = m.type === 'template_declaration' ? named(m).find((c) => c.type === 'function_definition') : m.type === 'function_definition' ? m : undefined;
    if (fn === undefined) continue;
    const member = memberOf(info, fn, m.type === 'template_declaration' ? m.childForFieldName('parameters') : null, info.bindings, t);
    if (member !== null) out.push(member);
  }
  for (const o of unit.outOfClass.get(info.def.name) ?? []) {
    const scope = qualifiedDeclarator(o.node)!.childForFieldName('scope')!;
    const specialised = scope.type === 'template_type' ? scope.childForFieldName('arguments') : null;
    // `Traits<float>::f` belongs to that specialisation, `V<T>::f` (the template's own parameters) to the primary
    const ofSpecialisation = info.def.specialised !== null;
    if (ofSpecialisation !== (specialised !== null && o.template === null)) continue;
    if (ofSpecialisation && normal(specialised!.text) !== normal(info.def.specialised!.text)) continue;
    const member = memberOf(info, o.node, null, renamed(info, o.template, specialised), t);
    if (member !== null) out.push(member);
  }
  membersOfType.set(t, out);
  return out;
}

/** The class's template bindings under the names an out-of-class definition's own template parameters give them (in order). */
function renamed(info: ClassInfo, template: Node | null, args: Node | null): ReadonlyMap<string, Binding> {
  if (template === null || args === null) return info.bindings;
  const own = [...info.bindings.values()];
  const out = new Map<string, Binding>();
  named(args).forEach((a, i) => {
    const b = own[i];
    if (b !== undefined) out.set(normal(a.text), b);
  });
  return out;
}

function memberOf(info: ClassInfo, fn: Node, memberTemplate: Node | null, bindings: ReadonlyMap<string, Binding>, t: StructCType): Member | null {
  const d = functionDeclarator(fn);
  let inner = d?.childForFieldName('declarator') ?? null;
  if (inner?.type === 'qualified_identifier') inner = inner.childForFieldName('name');
  if (d === null || inner === null) return null;
  const isConstructor = (inner.type === 'identifier' || inner.type === 'field_identifier' || inner.type === 'type_identifier') && inner.text === info.def.name;
  const name = inner.type === 'operator_name' ? normal(inner.text) : inner.type === 'identifier' || inner.type === 'field_identifier' ? inner.text : inner.type === 'template_function' ? (inner.childForFieldName('name')?.text ?? null) : null;
  if (name === null) return null;
  const body = fn.childForFieldName('body');
  const defaulted = body === null && fn.children.some((c) => c?.type === 'default_method_clause');
  if (body === null && !defaulted) return null;
  const def: FunctionDef = { name, qualified: `${t.name}::${name}`, node: fn, template: memberTemplate, attributes: cudaAttributes(fn) };
  return {
    def,
    bindings,
    kind: isConstructor ? 'constructor' : 'method',
    isStatic: fn.children.some((c) => c?.type === 'storage_class_specifier' && c.text === 'static'),
    isConst: d.children.some((c) => c?.type === 'type_qualifier' && c.text === 'const'),
    defaulted,
  };
}

/** The member functions of `t` named `name` (not constructors). */
export function methodsNamed(unit: Unit, t: StructCType, name: string): Member[] {
  return membersOf(unit, t).filter((m) => m.kind === 'method' && m.def.name === name);
}

export function constructorsOf(unit: Unit, t: StructCType): Member[] {
  return membersOf(unit, t).filter((m) => m.kind === 'constructor');
}

/** The default member initialisers of a class's data members, by field name. */
export function defaultInitialisers(t: StructCType): ReadonlyMap<string, Node> {
  const out = new Map<string, Node>();
  for (const m of named(t.cls!.def.body)) {
    if (m.type !== 'field_declaration' || m.children.some((c) => c?.type === 'storage_class_specifier' && c.text === 'static')) continue;
    for (const [d, init] of defaultsOf(m)) {
      const name = d.type === 'field_identifier' ? d.text : (d.descendantsOfType('field_identifier')[0]?.text ?? null);
      if (name !== null && init !== null) out.set(name, init);
    }
  }
  return out;
}

/** The class a type is, when it is one the file defines. */
export const classOf = (t: CType): (StructCType & { readonly cls: ClassInfo }) | null => (t.kind === 'struct' && t.cls !== undefined ? (t as StructCType & { readonly cls: ClassInfo }) : null);
