/**
 * Member functions, constructors and operators of the file's classes
 * (classes.ts), inlined as free functions are (calls.ts) with `this` the
 * object they are called on. The object is a place (a local, an element, a
 * field, a temporary), and inside the member a data member's name is a
 * place of it: so a member's reads and writes of its data members are reads
 * and writes of that place, in memory or in a local, exactly as if they were
 * written `o.x` at the call.
 *
 * A constructor initialises a temporary: each data member from its member
 * initialiser, else its default member initialiser, in declaration order,
 * then the body runs; a class without a user constructor is initialised as
 * an aggregate (`P p{1, 2}`, the remaining members from their defaults or
 * zero). Operators a class defines as members (`operator[]`, `operator()`,
 * `operator+`, `operator+=`) are member calls.
 */
import type { Node } from './parse.js';
import type { Span } from '../../core/source.js';
import { constant } from './build.js';
import { reject, Scope, spanOf, unsupported, type Binding, type Ctx, type Slot, type Value } from './context.js';
import { classOf, classScope, constructorsOf, defaultInitialisers, membersOf, methodsNamed, type ClassInfo, type Member } from './classes.js';
import { isInteger, leavesOf, typeName, type CType, type StructCType } from './ctypes.js';
import { inlined, isPlace, parametersOf, type CallResult, type GivenArg, type Receiver } from './calls.js';
import {
  bindReferenceMember,
  child,
  convert,
  elementOf,
  fieldElement,
  isPlaceable,
  load,
  named,
  placeOrPointer,
  placeType,
  rvalue,
  staticType,
  store,
  structOfUnknown,
  valueType,
  withField,
  type FieldArray,
  type Place,
} from './expr.js';
import { asPointer } from './expr.js';
import { baseType, declared } from './types.js';

export type ClassType = StructCType & { readonly cls: ClassInfo };

const normal = (text: string): string => text.replace(/\s+/g, '');

const short = (n: Node): string => {
  const text = n.text.replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
};

/** The class's objects are not modelled (classes.ts problemOf): rejected where one is used. */
export function usable(ctx: Ctx, t: ClassType, at: Node): void {
  const p = t.cls.problem;
  if (p !== null) unsupported(ctx, at, `${p.what}, which faial-ts does not model, used here (${short(at)})`);
}

// ---------------------------------------------------------------- names inside a member function

/**
 * The scope a member function's body runs in, under its parameters: `this`,
 * the data members as places of the object, the class's template parameters
 * (as this definition names them), member types and static constants, then
 * the file's names.
 */
export function objectScope(ctx: Ctx, r: Receiver): Scope {
  const cls = classScope(ctx.unit, r.type);
  return new Scope(ctx.k.root, (name) => {
    if (name === 'this') return { kind: 'object', place: r.place, ctype: r.type };
    const bound = r.bindings.get(name);
    if (bound !== undefined) return bound;
    if (r.place !== null && r.type.fields.some((f) => f.name === name)) return memberBinding(ctx, r.place, name);
    return cls.lookup(name);
  });
}

/** A data member's name inside a member function: a place of the object, or an array member (whose elements are places). */
function memberBinding(ctx: Ctx, object: Place, field: string): Binding {
  const p = withField(ctx, object, field, object.span, 'this');
  return p.kind === 'fieldArray' ? { kind: 'fieldArray', field: p } : { kind: 'alias', place: p };
}

/** The object `this` points to, in a member function (`*this`, `this->x`). */
export function thisPlace(ctx: Ctx, at: Node): Place {
  const b = ctx.scope.lookup('this');
  if (b?.kind !== 'object') return reject(ctx, 'misuse', at, '`this` outside a member function');
  if (b.place === null) return reject(ctx, 'misuse', at, '`this` in a static member function');
  return { ...b.place, span: spanOf(at) };
}

const unparenthesised = (n: Node): Node => (n.type === 'parenthesized_expression' ? unparenthesised(named(n)[0]!) : n);

/** Whether `n` is `this` (in parentheses or not). */
export const isThis = (n: Node): boolean => unparenthesised(n).type === 'this';

/** A value held in a temporary, as a place (a member function called on a call's result). */
export function temporary(ctx: Ctx, v: Value, n: Node): Place {
  const span = spanOf(n);
  const slot: Slot = { name: 'tmp', ctype: valueType(v), span, what: `the temporary \`${short(n)}\`` };
  ctx.values.set(slot, v);
  ctx.scope.slots.push(slot);
  return { kind: 'slot', slot, leaf: null, span };
}

/** The object a `.` member access is made on: a place where it has one (a local, an element, a field, `*this`), else a temporary holding its value. */
export function objectOf(ctx: Ctx, n: Node): Place {
  const u = unparenthesised(n);
  if (u.type === 'pointer_expression' && u.child(0)?.type === '*' && isThis(child(u, 'argument'))) return thisPlace(ctx, u);
  if (isPlaceable(ctx, u) || u.type === 'call_expression') {
    const p = placeOrPointer(ctx, u);
    if (p.kind === 'pointer' || p.kind === 'either' || p.kind === 'null') return reject(ctx, 'misuse', n, `'${short(n)}' is an array, not an object`);
    return p;
  }
  return temporary(ctx, rvalue(ctx, u), u);
}

/** The object `p->f(…)` is called on: the element the pointer points to, or `*this`. */
function pointee(ctx: Ctx, n: Node): Place {
  if (isThis(n)) return thisPlace(ctx, n);
  const span = spanOf(n);
  const p = asPointer(ctx, rvalue(ctx, n));
  if (p.kind !== 'pointer' && p.kind !== 'either' && p.kind !== 'null') return reject(ctx, 'unplaced', n, `cannot dereference '${short(n)}': it is not a pointer into an array`);
  const at = elementOf(ctx, p, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
  if (at.kind === 'pointer' || at.kind === 'either' || at.kind === 'null') return reject(ctx, 'misuse', n, `'${short(n)}' points to a row, not an object`);
  return at;
}

// ---------------------------------------------------------------- calls of member functions

/** The name a member access's field names, and its explicit template arguments (`o.template get<int>(…)`). */
function memberName(field: Node): { readonly name: string; readonly templateArgs: readonly Node[] } {
  const f = field.type === 'dependent_name' ? (named(field)[0] ?? field) : field;
  if (f.type === 'template_method' || f.type === 'template_function') return { name: child(f, 'name').text, templateArgs: named(child(f, 'arguments')) };
  return { name: f.text, templateArgs: [] };
}

/** `o.f(…)`, `p->f(…)`, `this->f(…)`, `a[i].f(…)`: the member function f of the object's class, called on it. */
export function memberCall(ctx: Ctx, fn: Node, args: readonly Node[], n: Node): CallResult {
  const arg = child(fn, 'argument');
  const { name, templateArgs } = memberName(child(fn, 'field'));
  const object = fn.child(1)?.type === '->' ? pointee(ctx, arg) : objectOf(ctx, arg);
  const t = classOf(placeType(object));
  if (t === null) return unsupported(ctx, fn, `a member function call on a ${typeName(placeType(object))} (${short(fn)})`, ['faial-ts calls the member functions of the classes the file defines']);
  const methods = methodsNamed(ctx.unit, t, name);
  if (methods.length > 0) return callMember(ctx, object, t, methods, templateArgs, args, n, `${t.name}::${name}`);
  // a data member that is an object with operator(): `o.op(x)`
  const field = t.fields.find((f) => f.name === name);
  const inner = field === undefined ? null : classOf(field.type);
  if (inner !== null) {
    const p = withField(ctx, object, name, spanOf(fn), short(arg));
    if (p.kind !== 'fieldArray') return callOperator(ctx, p, inner, args, n);
  }
  return reject(ctx, 'misuse', fn, `${t.name} has no member function ${name} faial-ts can call`);
}

/** `f(…)` inside a member function, f a member function of its class: called on the same object (or, static, on none); null when f is not one. */
export function siblingCall(ctx: Ctx, name: string, templateArgs: readonly Node[], args: readonly Node[], n: Node): CallResult | null {
  const self = ctx.scope.lookup('this');
  if (self?.kind !== 'object') return null;
  const t = classOf(self.ctype);
  const methods = t === null ? [] : methodsNamed(ctx.unit, t, name);
  if (t === null || methods.length === 0) return null;
  if (self.place === null && methods.every((m) => !m.isStatic)) return reject(ctx, 'misuse', n, `${name} needs an object: it is called from a static member function`);
  return callMember(ctx, self.place, t, methods, templateArgs, args, n, `${t.name}::${name}`);
}

/** `C::f(…)`, `C<T>::f(…)`: a static member function of a class of the file; null when the scope is not one. */
export function staticMemberCall(ctx: Ctx, fn: Node, templateArgs: readonly Node[], args: readonly Node[], n: Node): CallResult | null {
  const scope = fn.childForFieldName('scope');
  const nameNode = fn.childForFieldName('name');
  if (scope === null || nameNode === null || (nameNode.type !== 'identifier' && nameNode.type !== 'template_function')) return null;
  const t = scopeClass(ctx, scope);
  if (t === null) return null;
  const name = nameNode.type === 'template_function' ? child(nameNode, 'name').text : nameNode.text;
  const methods = methodsNamed(ctx.unit, t, name).filter((m) => m.isStatic);
  if (methods.length === 0) {
    // a non-static member called with its class's name, from a member function of that class
    const self = ctx.scope.lookup('this');
    if (self?.kind === 'object' && self.ctype === t) return siblingCall(ctx, name, templateArgs, args, n);
    return reject(ctx, 'misuse', fn, `${t.name} has no static member function ${name}`);
  }
  return callMember(ctx, null, t, methods, nameNode.type === 'template_function' ? named(child(nameNode, 'arguments')) : templateArgs, args, n, `${t.name}::${name}`);
}

function scopeClass(ctx: Ctx, scope: Node): ClassType | null {
  if (scope.type === 'template_type') return classOf(baseType(ctx, scope));
  if (scope.type !== 'namespace_identifier' && scope.type !== 'type_identifier') return null;
  const bound = ctx.scope.lookup(scope.text);
  const t = bound?.kind === 'type' ? bound.ctype : ctx.unit.types.get(scope.text);
  return t === undefined ? null : classOf(t);
}

/** A call of one of the member functions `candidates` (overloads of one name) on `object`. */
function callMember(ctx: Ctx, object: Place | null, t: ClassType, candidates: readonly Member[], templateArgs: readonly Node[], args: readonly (Node | GivenArg)[], n: Node, what: string): CallResult {
  usable(ctx, t, n);
  const m = overload(ctx, t, candidates, args, n, what);
  if (!m.isStatic && object === null) return reject(ctx, 'misuse', n, `${what} needs an object`);
  return inlined(ctx, what, [m.def], templateArgs, args, n, { receiver: { place: m.isStatic ? null : object, type: t, bindings: m.bindings } });
}

/**
 * The overload a call takes: by the number of arguments, then by their
 * types where faial-ts knows them (a class by its name, a pointer, a
 * number). A const and a non-const overload of the same parameters and the
 * same body are one; any other tie is rejected, never guessed.
 */
function overload(ctx: Ctx, t: ClassType, candidates: readonly Member[], args: readonly (Node | GivenArg)[], n: Node, what: string): Member {
  const fits = candidates.filter((m) => {
    const ps = parametersOf(m.def);
    const required = ps.filter((p) => p.type !== 'optional_parameter_declaration').length;
    return args.length >= required && args.length <= ps.length;
  });
  if (fits.length === 0) return reject(ctx, 'misuse', n, `no overload of ${what} takes ${args.length} arguments`);
  if (fits.length === 1) return fits[0]!;
  const given = args.map((a) => argType(ctx, a));
  const scored = fits.map((m) => ({ m, score: matchScore(ctx, t, m, given) })).filter((x) => x.score >= 0);
  const best = Math.max(...scored.map((x) => x.score));
  const top = scored.filter((x) => x.score === best).map((x) => x.m);
  if (top.length === 1) return top[0]!;
  if (top.length > 1 && new Set(top.map((m) => normal(m.def.node.childForFieldName('body')?.text ?? ''))).size === 1) return top.find((m) => !m.isConst) ?? top[0]!;
  return unsupported(ctx, n, `the call of ${what}: ${top.length === 0 ? 'no overload' : 'several overloads'} faial-ts can tell apart take these arguments`);
}

function argType(ctx: Ctx, a: Node | GivenArg): CType | null {
  if ((a as GivenArg).kind === 'given') return valueType((a as GivenArg & { kind: 'given' }).value);
  if ((a as GivenArg).kind === 'givenPlace') return placeType((a as GivenArg & { kind: 'givenPlace' }).place);
  return staticType(ctx, a as Node);
}

/** How well a member's parameters take the arguments' types: -1 when one cannot, else how many match exactly. */
function matchScore(ctx: Ctx, t: ClassType, m: Member, given: readonly (CType | null)[]): number {
  const env = { unit: ctx.unit, scope: memberNames(ctx, t, m) };
  let score = 0;
  for (const [i, p] of parametersOf(m.def).entries()) {
    const a = given[i];
    if (a === undefined || a === null) continue;
    const d = declared(baseType(env, p.childForFieldName('type')!), p.childForFieldName('declarator'));
    const want: CType = d.dims.length > 0 ? { kind: 'pointer', to: d.ctype } : d.ctype;
    if (want.kind === 'opaque') continue;
    const shape = (x: CType): string => (x.kind === 'struct' ? `struct ${x.name}` : x.kind === 'pointer' ? 'pointer' : x.kind === 'int' || x.kind === 'bool' || x.kind === 'float' ? 'number' : x.kind);
    if (shape(want) !== shape(a)) return -1;
    if (typeName(want) === typeName(a)) score++;
  }
  return score;
}

/** The names a member's parameter types see: its class's template parameters as it names them, then the class's. */
function memberNames(ctx: Ctx, t: ClassType, m: Member): Scope {
  const cls = classScope(ctx.unit, t);
  return new Scope(null, (name) => m.bindings.get(name) ?? cls.lookup(name));
}

// ---------------------------------------------------------------- operators

/** `o[i]` on an object whose class defines `operator[]`: the place it returns a reference to, or a temporary holding its value. */
export function subscriptOperator(ctx: Ctx, object: Place, t: ClassType, indices: readonly Node[], n: Node): Place {
  const methods = methodsNamed(ctx.unit, t, 'operator[]');
  if (methods.length === 0) return reject(ctx, 'unplaced', n, `cannot subscript an object of ${t.name}: it defines no operator[]`);
  const r = callMember(ctx, object, t, methods, [], indices, n, `${t.name}::operator[]`);
  return isPlace(r) ? r : temporary(ctx, r, n);
}

/** `o(…)` on an object whose class defines `operator()`. */
export function callOperator(ctx: Ctx, object: Place, t: ClassType, args: readonly (Node | GivenArg)[], n: Node): CallResult {
  const methods = methodsNamed(ctx.unit, t, 'operator()');
  if (methods.length === 0) return reject(ctx, 'misuse', n, `an object of ${t.name} called: it defines no operator()`);
  return callMember(ctx, object, t, methods, [], args, n, `${t.name}::operator()`);
}

/** The member `operator<op>` of the first operand's class taking the others, or null when it defines none. */
export function memberOperator(ctx: Ctx, op: string, operands: readonly Value[], n: Node): Value | null {
  const first = operands[0]!;
  const t = first.kind === 'struct' ? classOf(first.ctype) : null;
  if (t === null) return null;
  const methods = methodsNamed(ctx.unit, t, `operator${op}`).filter((m) => parametersOf(m.def).length === operands.length - 1);
  if (methods.length === 0) return null;
  // the operand is a value here: a member that could change its object would change a copy, which C++ would not
  const changing = methods.find((m) => mayChangeObject(ctx, t, m));
  if (changing !== undefined) return unsupported(ctx, n, `${t.name}::operator${op}, a member that may change its object, applied to a value`);
  const r = callMember(ctx, temporary(ctx, first, n), t, methods, [], operands.slice(1).map((value) => ({ kind: 'given', value })), n, `${t.name}::operator${op}`);
  return isPlace(r) ? load(ctx, r, spanOf(n)) : r;
}

/** `o op= v` on an object whose class defines `operator op=` as a member: called on the object's place; null when it defines none. */
export function compoundOperator(ctx: Ctx, object: Place, op: string, right: Value, n: Node): Value | null {
  const t = classOf(placeType(object));
  const methods = t === null ? [] : methodsNamed(ctx.unit, t, `operator${op}`);
  if (t === null || methods.length === 0) return null;
  const r = callMember(ctx, object, t, methods, [], [{ kind: 'given', value: right }], n, `${t.name}::operator${op}`);
  return isPlace(r) ? load(ctx, r, spanOf(n)) : r;
}

// ---------------------------------------------------------------- construction

/** How an object is initialised: `T x;` (default), or from arguments in parentheses (`T x(a)`, `T(a)`) or braces (`T x{a}`, `T x = {a}`). */
type Init = { readonly kind: 'default' } | { readonly kind: 'args'; readonly args: readonly (Node | GivenArg)[]; readonly braces: boolean };

/**
 * An object of class `t` as C++ initialises it: a user constructor (chosen
 * by its arguments), a copy of an object of the class, or, for a class
 * without one, an aggregate (`{1, 2}`, members left out take their default
 * member initialiser or zero) or default initialisation (members with a
 * default member initialiser take it, the others are uninitialised).
 */
export function construct(ctx: Ctx, t: ClassType, init: Init, n: Node, name = 'tmp'): Value {
  usable(ctx, t, n);
  const span = spanOf(n);
  const ctors = constructorsOf(ctx.unit, t);
  const user = ctors.filter((c) => !c.defaulted);
  const args = init.kind === 'args' ? init.args : [];
  if (args.length === 1) {
    // a copy of an object of the class (its implicit copy constructor; a user-defined one is rejected, classes.ts): `P q(p)`, `P q = p`
    const a = args[0]!;
    const type = argType(ctx, a);
    if (type?.kind === 'struct' && type.name === t.name) return convert(ctx, givenValue(ctx, a), t, span);
  }
  const slot: Slot = { name, ctype: t, span, what: `the ${t.name} being constructed` };
  const place: Place = { kind: 'slot', slot, leaf: null, span };
  const uninitialised = structOfUnknown(t, `an uninitialised member of ${name}`, span);
  try {
    if (user.length === 0) {
      if (init.kind === 'args' && args.length > 0) {
        ctx.values.set(slot, aggregate(ctx, t, args, n));
      } else {
        // `T x;` leaves members uninitialised; `T()`, `T{}` zero them first (value initialisation)
        ctx.values.set(slot, init.kind === 'default' ? uninitialised : zeroOf(ctx, t, span));
        initialiseMembers(ctx, null, t, place, span);
      }
    } else {
      ctx.values.set(slot, uninitialised);
      const ctor = overload(ctx, t, user, args, n, `the constructor of ${t.name}`);
      inlined(ctx, t.name, [ctor.def], [], args, n, { receiver: { place, type: t, bindings: ctor.bindings }, constructs: true });
    }
    return ctx.values.get(slot)!;
  } finally {
    ctx.values.delete(slot);
  }
}

const isGivenArg = (a: Node | GivenArg): a is GivenArg => (a as GivenArg).kind === 'given' || (a as GivenArg).kind === 'givenPlace';

function givenValue(ctx: Ctx, a: Node | GivenArg): Value {
  if ((a as GivenArg).kind === 'given') return (a as GivenArg & { kind: 'given' }).value;
  if ((a as GivenArg).kind === 'givenPlace') return load(ctx, (a as GivenArg & { kind: 'givenPlace' }).place, (a as GivenArg & { kind: 'givenPlace' }).place.span);
  return rvalue(ctx, a as Node);
}

/**
 * The data members of the object at `object`, initialised as a constructor
 * does before its body: in declaration order, each from the constructor's
 * member initialiser (`: x(a), y{b}`), else its default member initialiser;
 * the others keep their value. `def` null: no constructor (defaults only).
 */
export function initialiseMembers(ctx: Ctx, def: { readonly node: Node } | null, t: StructCType, object: Place, span: Span): void {
  const given = new Map<string, Node>();
  const list = def === null ? undefined : named(def.node).find((c) => c.type === 'field_initializer_list');
  for (const f of list === undefined ? [] : named(list)) {
    const [name, value] = named(f);
    if (name?.type !== 'field_identifier' || value === undefined || !t.fields.some((x) => x.name === name.text)) {
      return unsupported(ctx, f, `the member initialiser ${short(f)}, which is not a data member of ${t.name} (a base class or another constructor)`);
    }
    given.set(name.text, value);
  }
  const defaults = classOf(t) === null ? new Map<string, Node>() : defaultInitialisers(t);
  for (const f of t.fields) {
    const init = given.get(f.name) ?? defaults.get(f.name);
    if (init !== undefined) initialiseMember(ctx, object, f.name, init, span);
  }
}

/** One data member initialised from `x(a)`, `x{a}`, `x = a` or `x = {a}` (the node after the name). */
function initialiseMember(ctx: Ctx, object: Place, field: string, init: Node, span: Span): void {
  const list = init.type === 'argument_list' || init.type === 'initializer_list' ? named(init) : [init];
  const braces = init.type === 'initializer_list';
  if (isReferenceMember(object, field)) {
    if (list.length !== 1) return reject(ctx, 'misuse', init, `the reference member ${field} is bound to one object`);
    return bindReferenceMember(ctx, object, field, list[0]!, span);
  }
  const target = withField(ctx, object, field, span, 'this');
  if (target.kind === 'fieldArray') return initialiseArrayMember(ctx, target, list, init, span);
  const type = placeType(target);
  const cls = classOf(type);
  if (cls !== null) {
    store(ctx, target, construct(ctx, cls, { kind: 'args', args: list, braces }, init, field), span);
    return;
  }
  if (type.kind === 'struct') {
    store(ctx, target, list.length === 1 && !braces ? rvalue(ctx, list[0]!) : aggregate(ctx, type, list, init), span);
    return;
  }
  if (list.length > 1) return reject(ctx, 'misuse', init, `${list.length} values for the member ${field}`);
  store(ctx, target, list.length === 0 ? zeroOf(ctx, type, span) : rvalue(ctx, list[0]!), span);
}

function initialiseArrayMember(ctx: Ctx, f: FieldArray, list: readonly Node[], at: Node, span: Span): void {
  if (list.length > f.length) return reject(ctx, 'misuse', at, `${list.length} values for the ${f.length} elements of ${f.path}`);
  for (let k = 0; k < f.length; k++) {
    const place = fieldElement(ctx, f, { expr: constant(BigInt(k), 'i32', span), type: 'i32' }, at);
    const item = list[k];
    const cls = classOf(f.elem);
    const v = item === undefined ? zeroOf(ctx, f.elem, span) : cls !== null ? construct(ctx, cls, { kind: 'args', args: [item], braces: false }, item) : rvalue(ctx, item);
    store(ctx, place, v, span);
  }
}

/**
 * A struct initialised as an aggregate: one value per data member in order
 * (a member that is a struct or an array from a nested brace list), the
 * members left out from their default member initialiser or zero; or, with
 * the nested braces left out, one value per scalar leaf.
 */
function aggregate(ctx: Ctx, t: StructCType, args: readonly (Node | GivenArg)[], n: Node): Value {
  const span = spanOf(n);
  const leaves = leavesOf(t);
  const isList = (a: Node | GivenArg): boolean => (a as Node).type === 'initializer_list';
  if (args.length === leaves.length && leaves.length !== t.fields.length && !args.some(isList)) {
    return { kind: 'struct', ctype: t, fields: args.map((a, i) => convert(ctx, givenValue(ctx, a), leaves[i]!.type, span)) };
  }
  if (args.length > t.fields.length) return reject(ctx, 'misuse', span, `${args.length} values for the ${t.fields.length} members of ${t.name}`);
  const slot: Slot = { name: 'agg', ctype: t, span, what: `the ${t.name} being initialised` };
  const place: Place = { kind: 'slot', slot, leaf: null, span };
  ctx.values.set(slot, zeroOf(ctx, t, span));
  try {
    const defaults = classOf(t) === null ? new Map<string, Node>() : defaultInitialisers(t);
    t.fields.forEach((f, k) => {
      const a = args[k];
      if (a === undefined) {
        const d = defaults.get(f.name);
        if (d !== undefined) initialiseMember(ctx, place, f.name, d, span);
        return;
      }
      if (isList(a) || f.type.kind === 'reference') {
        if (isGivenArg(a)) return unsupported(ctx, n, `the reference member ${f.name} of ${t.name} bound to a value`);
        return initialiseMember(ctx, place, f.name, a, span);
      }
      if (f.length !== undefined) return reject(ctx, 'misuse', span, `the array member ${f.name} of ${t.name} needs a brace list`);
      const target = withField(ctx, place, f.name, span, t.name);
      if (target.kind === 'fieldArray') return;
      const cls = classOf(f.type);
      const v = cls !== null ? construct(ctx, cls, { kind: 'args', args: [a], braces: false }, isGivenArg(a) ? n : a) : givenValue(ctx, a);
      store(ctx, target, v, span);
    });
    return ctx.values.get(slot)!;
  } finally {
    ctx.values.delete(slot);
  }
}

/**
 * A value of type `t` from a brace list (or the parenthesised arguments of a
 * declaration), as a declaration, a compound literal (`P{1, 2}`) or a
 * `return {…}` gives it: a class is constructed, another struct is an
 * aggregate, a number takes its one value (zero for `{}`).
 */
export function braced(ctx: Ctx, t: CType, list: Node, n: Node, name = 'tmp'): Value {
  const items = named(list);
  const cls = classOf(t);
  if (cls !== null) return construct(ctx, cls, { kind: 'args', args: items, braces: list.type === 'initializer_list' }, n, name);
  if (t.kind === 'struct') return aggregate(ctx, t, items, n);
  if (items.length > 1) return reject(ctx, 'misuse', list, `${items.length} values for one ${typeName(t)}`);
  return items.length === 0 ? zeroOf(ctx, t, spanOf(n)) : convert(ctx, rvalue(ctx, items[0]!), t, spanOf(n));
}

/** Whether `field` of the object at `object` is a reference member. */
function isReferenceMember(object: Place, field: string): boolean {
  const t = placeType(object);
  return t.kind === 'struct' && t.fields.some((f) => f.name === field && f.type.kind === 'reference');
}

/** The value C++ zero-initialises an object of type `t` to: 0, a null pointer, +0.0, each member so. */
export function zeroOf(ctx: Ctx, t: CType, span: Span): Value {
  if (t.kind === 'struct') return { kind: 'struct', ctype: t, fields: leavesOf(t).map((l) => zeroOf(ctx, l.type, span)) };
  if (isInteger(t) || t.kind === 'float' || t.kind === 'pointer') return convert(ctx, { kind: 'int', expr: constant(0n, 'i32', span), type: 'i32' }, t, span);
  return { kind: 'unknown', ctype: t, what: 'zero', span };
}

// ---------------------------------------------------------------- what a member may change

const changeMemo = new WeakMap<Member, boolean>();

/**
 * Whether a member function may change the object it is called on, read off
 * its syntax (so that a loop calling it counts the object as assigned): a
 * const or static one cannot (mutable members are not modelled, classes.ts);
 * a constructor does; another may when its body writes a data member or
 * `*this` (assigned, incremented, its address taken, passed to a function
 * that may take it by reference, a reference bound to it or returned to
 * it), calls a member function that may, or uses `this` otherwise than to
 * read a member through it.
 */
function mayChangeObject(ctx: Ctx, t: ClassType, m: Member): boolean {
  if (m.isConst || m.isStatic) return false;
  if (m.kind === 'constructor') return true;
  const known = changeMemo.get(m);
  if (known !== undefined) return known;
  // a call of itself (or a cycle) adds nothing to what the rest of the body does
  changeMemo.set(m, false);
  const body = m.def.node.childForFieldName('body');
  const returnsReference = declared(baseType({ unit: ctx.unit, scope: null }, m.def.node.childForFieldName('type') ?? m.def.node), m.def.node.childForFieldName('declarator')).reference;
  const changes = body === null ? false : codeChangesObject(ctx, t, [body], returnsReference);
  changeMemo.set(m, changes);
  return changes;
}

/** Whether this code, run in a member function of `t`, may change the object (`mayChangeObject`'s rules). */
function codeChangesObject(ctx: Ctx, t: ClassType, nodes: readonly Node[], returnsReference = false): boolean {
  const fields = new Map(t.fields.map((f) => [f.name, f]));
  /** Whether an lvalue (or an expression whose place escapes) is part of the object: a data member or `*this`, not memory a pointer member points to. */
  const ofObject = (n: Node): boolean => {
    let x = n;
    let through = false;
    for (;;) {
      if (x.type === 'parenthesized_expression') x = named(x)[0]!;
      else if (x.type === 'field_expression' && x.child(1)?.type === '.') x = child(x, 'argument');
      else if (x.type === 'field_expression' && isThis(child(x, 'argument'))) {
        // this->f: the member f
        const f = fields.get(child(x, 'field').text);
        return f !== undefined && !(through && f.type.kind === 'pointer');
      } else if (x.type === 'subscript_expression' || (x.type === 'pointer_expression' && x.child(0)?.type === '*')) {
        if (isThis(child(x, 'argument'))) return true;
        through = true;
        x = child(x, 'argument');
      } else break;
    }
    if (x.type === 'this') return true;
    if (x.type !== 'identifier') return false;
    const f = fields.get(x.text);
    // an element through a pointer member is memory the object points to, not the object
    return f !== undefined && !(through && f.type.kind === 'pointer');
  };
  const siblingChanges = (name: string): boolean => methodsNamed(ctx.unit, t, name).some((m) => mayChangeObject(ctx, t, m));
  const visit = (n: Node, parent: Node | null): boolean => {
    switch (n.type) {
      case 'this':
        // `this->x` read, `*this` as an lvalue (checked where it is one): anything else lets the object escape
        if (!(parent?.type === 'field_expression' || (parent?.type === 'pointer_expression' && parent.child(0)?.type === '*') || parent?.type === 'parenthesized_expression')) return true;
        break;
      case 'assignment_expression':
        if (ofObject(child(n, 'left'))) return true;
        break;
      case 'update_expression':
        if (ofObject(child(n, 'argument'))) return true;
        break;
      case 'pointer_expression':
        if (n.child(0)?.type === '&' && ofObject(child(n, 'argument'))) return true;
        break;
      case 'call_expression': {
        const fn = child(n, 'function');
        if (named(child(n, 'arguments')).some(ofObject)) return true;
        if (fn.type === 'field_expression') {
          const receiver = child(fn, 'argument');
          if ((fn.child(1)?.type === '->' && isThis(receiver) && siblingChanges(memberName(child(fn, 'field')).name)) || (fn.child(1)?.type === '.' && ofObject(receiver))) return true;
        }
        if (fn.type === 'identifier' && fields.has(fn.text)) return true;
        if ((fn.type === 'identifier' || fn.type === 'template_function') && siblingChanges(fn.type === 'identifier' ? fn.text : child(fn, 'name').text)) return true;
        break;
      }
      case 'subscript_expression': {
        // `m[i]` of a member that is an object: its operator[] may hand out a place inside it
        const base = unparenthesised(child(n, 'argument'));
        const f = base.type === 'identifier' ? fields.get(base.text) : undefined;
        if (f !== undefined && classOf(f.type) !== null) return true;
        break;
      }
      case 'declaration':
        for (const d of n.childrenForFieldName('declarator')) {
          const init = d.type === 'init_declarator' ? d.childForFieldName('value') : null;
          if (init !== null && d.descendantsOfType('reference_declarator').length + (d.childForFieldName('declarator')?.type === 'reference_declarator' ? 1 : 0) > 0 && ofObject(init)) return true;
        }
        break;
      case 'return_statement': {
        const e = named(n)[0];
        if (returnsReference && e !== undefined && ofObject(e)) return true;
        break;
      }
    }
    return named(n).some((c) => visit(c, n));
  };
  return nodes.some((n) => visit(n, null));
}

// ---------------------------------------------------------------- objects a loop changes

/** A member a piece of code uses on an object: `o.f(…)` (f), `o[i]` (operator[]), `o(…)` (operator()), `o + x`, `-o` (the operator). */
interface MemberUse {
  readonly receiver: Node;
  readonly member: string;
}

const memberUsesOf = new WeakMap<Node, readonly MemberUse[]>();

/** The member uses below n whose object is named by a variable (through fields, elements and parentheses); computed once per node (see loops.ts). */
function memberUses(n: Node): readonly MemberUse[] {
  const known = memberUsesOf.get(n);
  if (known !== undefined) return known;
  const own: MemberUse[] = [];
  const use = (receiver: Node | null, member: string): void => {
    if (receiver !== null && rootName(receiver) !== null) own.push({ receiver, member });
  };
  switch (n.type) {
    case 'call_expression': {
      const fn = child(n, 'function');
      if (fn.type === 'field_expression' && fn.child(1)?.type === '.') use(child(fn, 'argument'), memberName(child(fn, 'field')).name);
      else if (fn.type !== 'field_expression') use(fn, 'operator()');
      break;
    }
    case 'subscript_expression':
      use(child(n, 'argument'), 'operator[]');
      break;
    case 'binary_expression':
      use(child(n, 'left'), `operator${child(n, 'operator').type}`);
      break;
    case 'unary_expression':
      use(child(n, 'argument'), `operator${child(n, 'operator').type}`);
      break;
  }
  const parts = named(n).map(memberUses).filter((p) => p.length > 0);
  const uses = own.length === 0 && parts.length <= 1 ? (parts[0] ?? []) : [...own, ...parts.flat()];
  memberUsesOf.set(n, uses);
  return uses;
}

/** The variable an object expression starts from: `o` of `o`, `o.in`, `o[i]`, `(o)`. */
function rootName(n: Node): string | null {
  let x = n;
  for (;;) {
    if (x.type === 'parenthesized_expression') x = named(x)[0]!;
    else if ((x.type === 'field_expression' && x.child(1)?.type === '.') || x.type === 'subscript_expression') x = child(x, 'argument');
    else break;
  }
  return x.type === 'identifier' ? x.text : null;
}

/** The locals a place is (or is part of): a local, or the cells of a local array. */
function slotsOf(p: Place): Slot[] {
  switch (p.kind) {
    case 'slot':
      return [p.slot];
    case 'memory':
      return [...(p.array.cells?.slots ?? [])];
    case 'choice':
      return [...(p.then === null ? [] : slotsOf(p.then)), ...(p.else === null ? [] : slotsOf(p.else))];
  }
}

/**
 * The locals holding objects that a loop's code may change through their
 * classes' members, which assignments do not show: an object a member
 * function that may change it is called on (or whose operator may; an
 * object whose class faial-ts cannot tell, any member), and, in a member
 * function, its own object when the code may change it.
 */
export function objectsChangedIn(ctx: Ctx, nodes: readonly Node[]): Set<Slot> {
  const out = new Set<Slot>();
  const add = (p: Place): void => {
    for (const s of slotsOf(p)) if (ctx.values.has(s)) out.add(s);
  };
  const self = ctx.scope.lookup('this');
  const own = self?.kind === 'object' ? classOf(self.ctype) : null;
  if (self?.kind === 'object' && self.place !== null && own !== null && codeChangesObject(ctx, own, nodes)) add(self.place);
  for (const u of nodes.flatMap(memberUses)) {
    const b = ctx.scope.lookup(rootName(u.receiver)!);
    const place: Place | null = b?.kind === 'local' ? { kind: 'slot', slot: b.slot, leaf: null, span: b.slot.span } : b?.kind === 'alias' ? b.place : b?.kind === 'array' && b.array.cells ? { kind: 'memory', array: b.array, index: [], leaf: null, elem: b.array.elem, span: b.array.span } : null;
    if (place === null || !holdsClass(ctx, placeType(place))) continue;
    const t = staticType(ctx, u.receiver);
    const cls = t === null ? null : classOf(t);
    if (cls === null ? t === null || holdsClass(ctx, t) : methodsNamed(ctx.unit, cls, u.member).some((m) => mayChangeObject(ctx, cls, m))) add(place);
  }
  return out;
}

/** Whether a value of this type holds an object of a class with member functions somewhere in it. */
function holdsClass(ctx: Ctx, t: CType): boolean {
  const cls = classOf(t);
  if (cls !== null && membersOf(ctx.unit, cls).some((m) => m.kind === 'method')) return true;
  return t.kind === 'struct' && t.fields.some((f) => holdsClass(ctx, f.type));
}
