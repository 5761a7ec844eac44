/**
 * Calls of the file's own functions, inlined: arguments are evaluated in the
 * caller, pointers passed as pointers (an array and an offset), numbers as
 * fresh lets named after the parameter; the body runs in a scope of its own
 * with its own `return` flag. Recursion cannot be inlined and is rejected.
 */
import type { Node } from './parse.js';
import type { Span } from '../../core/source.js';
import { KernelRejected, cudaDiagnostic } from './codes.js';
import { FALSE, isPointer, reject, Scope, spanOf, unsupported, type Binding, type Ctx, type FnFrame, type Slot, type Value } from './context.js';
import { child, convert, elementOf, load, named, nameValue, placeType, referent, rvalue, staticType, valueType, type Place, type Referent } from './expr.js';
import { constant } from './build.js';
import { classOf } from './classes.js';
import { initialiseMembers, objectScope, usable } from './members.js';
import { syntaxErrorIn } from './parse.js';
import { bindsValues, dynamicShared, lowerStatements, setFlag, unresolvedType } from './stmt.js';
import { baseType, declared, isUnresolved, typeOfDescriptor } from './types.js';
import type { FunctionDef } from './unit.js';
import { FLOAT, INT, integerLiteral, integerTypeKey, isFloatingLiteral, typeName, VOID, type CType, type StructCType } from './ctypes.js';

/** The parameters of a function definition: declarations with a name (or none), and default values. */
export function parametersOf(def: FunctionDef): Node[] {
  const declarator = def.node.childForFieldName('declarator');
  let f = declarator;
  // `float &operator[](int i)`: the function declarator is inside the reference declarator, which has no declarator field
  while (f !== null && f.type !== 'function_declarator') f = f.childForFieldName('declarator') ?? named(f).find((c) => c.type === 'function_declarator') ?? null;
  const list = f?.childForFieldName('parameters');
  return list === null || list === undefined ? [] : named(list).filter((p) => p.type !== 'variadic_parameter_declaration' && p.text !== 'void');
}

/** The definitions a call finds by name, with the name's last part and the template arguments it gives. */
export interface Found {
  readonly name: string;
  readonly defs: readonly FunctionDef[];
  readonly templateArgs: readonly Node[];
}

/**
 * The file's functions a call names (`f`, `f<T>`, `detail::f`, `::f`,
 * `a::b::f<T>`), looked up as C++ does: in the namespaces the call is written
 * in, innermost first, the first that declares the name winning; failing
 * that (a using-directive), every namespace declaring it. Null when the file
 * defines no function of the name's last part, so it is a builtin, a
 * cooperative-groups call or a function without a body. A qualified name
 * that finds none of the file's functions of that name is rejected, since it
 * may be one of them by a path faial-ts does not follow (a namespace alias).
 * Before, `detail::f()` was taken for a function without a body: its
 * barriers and accesses were dropped.
 */
export function fileFunctions(ctx: Ctx, fn: Node, n: Node): Found | null {
  const path: string[] = [];
  let global = false;
  let last: Node = fn;
  while (last.type === 'qualified_identifier') {
    const scope = last.childForFieldName('scope');
    if (scope === null) global = true;
    else path.push(scope.text.replace(/\s+/g, ''));
    const inner = last.childForFieldName('name');
    if (inner === null) return null;
    last = inner;
  }
  if (last.type !== 'identifier' && last.type !== 'template_function') return null;
  const name = last.type === 'template_function' ? child(last, 'name').text : last.text;
  const templateArgs = last.type === 'template_function' ? named(child(last, 'arguments')) : [];
  const all = [...ctx.unit.functions.values()].flat().filter((d) => d.qualified === name || d.qualified.endsWith(`::${name}`));
  if (all.length === 0) return null;
  const target = [...path, name].join('::');
  const written = fn.text.replace(/\s+/g, '');
  const named_ = (defs: readonly FunctionDef[]): Found => ({ name, defs, templateArgs });
  if (global) {
    const defs = all.filter((d) => d.qualified === target);
    return defs.length > 0 ? named_(defs) : unfound(ctx, fn, written, name);
  }
  for (const prefix of enclosingNamespaces(n)) {
    const defs = all.filter((d) => d.qualified === `${prefix}${target}`);
    if (defs.length > 0) return named_(defs);
  }
  const anywhere = all.filter((d) => d.qualified === target || d.qualified.endsWith(`::${target}`));
  return anywhere.length > 0 ? named_(anywhere) : unfound(ctx, fn, written, name);
}

function unfound(ctx: Ctx, fn: Node, written: string, name: string): never {
  return unsupported(ctx, fn, `a call of ${written}: the file defines functions named ${name}, but none that this name finds`, [
    'faial-ts looks a qualified name up in the namespaces the call is written in; a namespace alias or a function declared elsewhere is not followed',
  ]);
}

/**
 * The prefixes of the qualified names of the namespaces a node is written in,
 * innermost first and ending with the file's (``): `a::b::`, `a::`, ``. A
 * function defined outside its namespace (`void ns::f() {…}`) is in `ns`.
 */
function enclosingNamespaces(n: Node): string[] {
  const names: string[] = [];
  for (let p = n.parent; p !== null; p = p.parent) {
    if (p.type === 'namespace_definition') {
      const name = p.childForFieldName('name')?.text.replace(/\s+/g, '');
      if (name !== undefined) names.unshift(name);
    } else if (p.type === 'function_definition') {
      let d = p.childForFieldName('declarator');
      while (d !== null && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
      const declName = d?.childForFieldName('declarator');
      const scope = declName?.type === 'qualified_identifier' ? declName.childForFieldName('scope') : null;
      if (scope !== null && scope !== undefined) names.unshift(scope.text.replace(/\s+/g, ''));
    }
  }
  const prefixes: string[] = [];
  for (let k = names.length; k >= 0; k--) prefixes.push(names.slice(0, k).map((x) => `${x}::`).join(''));
  return prefixes;
}

/**
 * The function called among `defs` (the definitions its name finds), chosen
 * as C++'s overload resolution would where faial-ts can tell: those whose
 * parameter count fits the arguments (an exact count first), then those whose
 * parameter types take the arguments' declared types, the most exact matches
 * winning (an explicit specialisation competes with its own parameter
 * types, so `f<float>` runs it, `f<int>` the primary template). Picking the
 * first that fits by count alone inlined
 * `store(int *, int)` for a `float *` argument, another body than the one the
 * program runs, and proved racy kernels DRF. Overloads it cannot tell apart
 * are rejected; definitions alike (one function in both branches of an `#if`)
 * are one.
 */
function chosen(ctx: Ctx, name: string, defs: readonly FunctionDef[], args: readonly (Node | GivenArg)[], n: Node): FunctionDef {
  const exact = defs.filter((d) => parametersOf(d).length === args.length);
  const fits =
    exact.length > 0
      ? exact
      : defs.filter((d) => {
          const ps = parametersOf(d);
          const required = ps.filter((p) => p.type !== 'optional_parameter_declaration').length;
          return args.length >= required && args.length <= ps.length;
        });
  if (fits.length === 0) return reject(ctx, 'misuse', n, `no definition of ${name} takes ${args.length} arguments`);
  if (fits.length === 1) return fits[0]!;
  const given = args.map((a) => argumentType(ctx, a));
  const scored = fits.map((def) => ({ def, score: fitScore(ctx, def, given) })).filter((x) => x.score >= 0);
  const best = Math.max(...scored.map((x) => x.score));
  const top = scored.filter((x) => x.score === best).map((x) => x.def);
  if (top.length === 1) return top[0]!;
  if (top.length > 1 && new Set(top.map((d) => d.node.text.replace(/\s+/g, ' '))).size === 1) return top[0]!;
  return unsupported(ctx, n, `the call of ${name}: ${top.length === 0 ? 'no definition' : 'several definitions'} faial-ts can tell apart take these arguments`, [
    'faial-ts chooses among overloads by the number of arguments and the declared types of the arguments that are names, literals or casts; cast the arguments to the parameter types, or give the functions different names',
  ]);
}

/** An argument's declared type where it shows: a name (an array or pointer parameter is a pointer to its element), a literal, a cast; null otherwise. */
function argumentType(ctx: Ctx, a: Node | GivenArg): CType | null {
  if (isGiven(a)) return a.kind === 'given' ? valueType(a.value) : placeType(a.place);
  const known = staticType(ctx, a);
  if (known !== null) return known;
  if (a.type === 'identifier') {
    const b = ctx.scope.lookup(a.text);
    return b?.kind === 'array' && !b.scalar ? { kind: 'pointer', to: b.array.elem } : null;
  }
  if (a.type === 'number_literal') {
    // typed by C's rules, as the literal's value is (`0xFFFFFFFF` is unsigned, `3000000000` long): a
    // regex on the suffix alone called f(int) for 0xFFFFFFFF where C++ calls f(unsigned)
    const text = a.text.replace(/^[-+]\s*/, '').replace(/'/g, '');
    const hex = /^0[xX]/.test(text);
    if (isFloatingLiteral(text))
      return /[fF]$/.test(text) && !hex ? FLOAT : { kind: 'float', name: /[lL]$/.test(text) ? 'long double' : 'double' };
    return integerLiteral(text)?.type ?? null;
  }
  if (a.type === 'cast_expression') return typeOfDescriptor(ctx, a.childForFieldName('type')!);
  return null;
}

/**
 * How well a function's parameters take the arguments' types: -1 when one
 * cannot (a pointer for a number, pointers to different element types other
 * than void, structs of different names), else how many match exactly. A
 * template's parameters take anything (but an explicit specialisation's).
 */
function fitScore(ctx: Ctx, def: FunctionDef, given: readonly (CType | null)[]): number {
  // an explicit specialisation (`template <> void f<float>(float *)`) has the types it is written with
  if (def.template !== null && named(def.template).length > 0) return 0;
  let score = 0;
  for (const [i, p] of parametersOf(def).entries()) {
    const a = given[i];
    const typeNode = p.childForFieldName('type');
    if (a === undefined || a === null || typeNode === null) continue;
    const d = declared(baseType({ unit: ctx.unit, scope: ctx.k.root }, typeNode), p.childForFieldName('declarator'));
    const want: CType = d.dims.length > 0 ? { kind: 'pointer', to: d.ctype } : d.ctype.kind === 'reference' ? d.ctype.to : d.ctype;
    const have = a.kind === 'reference' ? a.to : a;
    const fit = typeFit(want, have);
    if (fit < 0) return -1;
    score += fit;
  }
  return score;
}

/** 1 for the same type, 0 for a conversion (or a type faial-ts does not follow), -1 for none. */
function typeFit(want: CType, have: CType): number {
  if (want.kind === 'opaque' || have.kind === 'opaque') return 0;
  const shape = (x: CType): string => (x.kind === 'struct' ? `struct ${x.name}` : x.kind === 'int' || x.kind === 'bool' || x.kind === 'float' ? 'number' : x.kind);
  if (shape(want) !== shape(have)) return -1;
  if (want.kind === 'pointer' && have.kind === 'pointer') {
    if (want.to.kind === 'void') return have.to.kind === 'void' ? 1 : 0;
    if (have.to.kind === 'void' || want.to.kind === 'opaque' || have.to.kind === 'opaque') return 0;
    return typeName(want.to) === typeName(have.to) ? 1 : -1;
  }
  // integer types by what C++ takes as one type (`unsigned` and `unsigned int`, `size_t` and `unsigned long`)
  if (want.kind === 'int' && have.kind === 'int') return integerTypeKey(want) === integerTypeKey(have) ? 1 : 0;
  return typeName(want) === typeName(have) ? 1 : 0;
}

export function checkSyntax(ctx: { readonly file: import('../../core/source.js').SourceFile }, def: FunctionDef): void {
  const bad = syntaxErrorIn(def.node);
  if (bad === null) return;
  const what = bad.isMissing ? `syntax error: missing ${bad.type}` : `syntax error: unexpected ${JSON.stringify(bad.text.slice(0, 20))}`;
  throw new KernelRejected(cudaDiagnostic('syntax', ctx.file, spanOf(bad), what, { hints: [`in ${def.name}, which faial-ts must analyse; host code around it need not parse`] }));
}

/**
 * An argument already evaluated: a value (an operator's operands), which binds
 * a value parameter or a `const T &`, never a non-const reference; or a place
 * (the left of a compound assignment), which binds a reference as an alias.
 */
export type GivenArg = { readonly kind: 'given'; readonly value: Value } | { readonly kind: 'givenPlace'; readonly place: Place };

const isGiven = (a: Node | GivenArg): a is GivenArg => (a as GivenArg).kind === 'given' || (a as GivenArg).kind === 'givenPlace';

/** A member function's call: the object it is called on (null for a static member function) and the class's names. */
export interface Receiver {
  readonly place: Place | null;
  readonly type: StructCType;
  /** the class's template parameters under the names the definition uses */
  readonly bindings: ReadonlyMap<string, Binding>;
}

export interface InlineOptions {
  /** a member function: `this`, the data members and the class's names are in scope */
  readonly receiver?: Receiver;
  /** a constructor: the data members are initialised (its member initialisers, else their defaults) before its body */
  readonly constructs?: true;
}

/** What a call gives: a value, or, for a function returning a reference, the place it names. */
export type CallResult = Value | Place;

export const isPlace = (r: CallResult): r is Place => r.kind === 'slot' || r.kind === 'memory' || r.kind === 'choice';

/** The call's value: a function returning a reference reads the place it names. */
export function inlineCall(ctx: Ctx, name: string, defs: readonly FunctionDef[], templateArgs: readonly Node[], args: readonly (Node | GivenArg)[], n: Node, options: InlineOptions = {}): Value {
  const r = inlined(ctx, name, defs, templateArgs, args, n, options);
  return isPlace(r) ? load(ctx, r, spanOf(n)) : r;
}

/**
 * A call of one of the file's functions (or member functions), inlined: its
 * value, or the place it returns a reference to.
 */
export function inlined(ctx: Ctx, name: string, defs: readonly FunctionDef[], templateArgs: readonly Node[], args: readonly (Node | GivenArg)[], n: Node, options: InlineOptions = {}): CallResult {
  const span = spanOf(n);
  const def = chosen(ctx, name, defs, args, n);
  if (def.attributes.has('global')) return unsupported(ctx, n, 'a kernel launched from a kernel (dynamic parallelism)');
  if (ctx.k.calls.includes(def.qualified)) return unsupported(ctx, n, `recursion (${name} calls itself)`);
  checkSyntax(ctx, def);
  const scope = new Scope(options.receiver === undefined ? ctx.k.root : objectScope(ctx, options.receiver));
  const params = parametersOf(def);
  bindTemplate(ctx, def, templateArgs, scope, n, deducedClasses(ctx, def, params, args));
  const savedScope = ctx.scope;
  // the parameters' types are the callee's (its template parameters bound); the arguments are the caller's
  ctx.scope = scope;
  const decls = params.map((p) => declared(baseType(ctx, p.childForFieldName('type')!), p.childForFieldName('declarator')));
  const typeNode = def.node.childForFieldName('type');
  // a constructor has no return type
  const returns = typeNode === null ? null : declared(baseType(ctx, typeNode), def.node.childForFieldName('declarator'));
  ctx.scope = savedScope;
  decls.forEach((d, i) => {
    if (isUnresolved(d.ctype)) unresolvedType(ctx, params[i]!, d.ctype);
    // an object passed by value is copied (and destroyed): a class whose copies faial-ts does not model is rejected
    const cls = d.reference || i >= args.length ? null : classOf(d.ctype);
    if (cls !== null) usable(ctx, cls, params[i]!);
  });
  if (returns !== null && isUnresolved(returns.ctype)) unresolvedType(ctx, typeNode!, returns.ctype);
  const givens = args.map((a, i): Referent => {
    const d = decls[i];
    const bindsRef = d?.reference === true;
    if (isGiven(a)) {
      if (a.kind === 'givenPlace') return bindsRef ? { kind: 'alias', place: a.place } : { kind: 'value', value: load(ctx, a.place, span) };
      if (bindsRef && !bindsValues(params[i]!, params[i]!.childForFieldName('declarator'))) return unsupported(ctx, params[i]!, `a non-const reference parameter of ${name} bound to an operand`);
      return { kind: 'value', value: a.value };
    }
    if (!bindsRef) return { kind: 'value', value: rvalue(ctx, a) };
    if (d.dims.length > 0) return unsupported(ctx, params[i]!, 'a reference to an array');
    return referent(ctx, d.ctype, bindsValues(params[i]!, params[i]!.childForFieldName('declarator')), a, a);
  });
  const slots: Slot[] = [];
  ctx.scope = scope;
  params.forEach((p, i) => {
    const d = decls[i]!;
    const bound = givens[i];
    if (bound?.kind === 'alias') {
      if (d.name !== null) scope.define(d.name.text, { kind: 'alias', place: bound.place });
      return;
    }
    const ctype: CType = d.dims.length > 0 ? { kind: 'pointer', to: d.ctype } : d.ctype;
    const given = bound?.value ?? (p.type === 'optional_parameter_declaration' ? rvalue(ctx, p.childForFieldName('default_value')!) : null);
    if (given === null || d.name === null) return;
    const slot: Slot = { name: d.name.text, ctype, span: spanOf(d.name) };
    ctx.values.set(slot, nameValue(ctx, d.name.text, convert(ctx, given, ctype, span), span));
    scope.define(d.name.text, { kind: 'local', slot });
    slots.push(slot);
  });
  const returnType: CType = returns === null ? VOID : returns.ctype;
  const reference = returns?.reference === true;
  const frame: FnFrame = {
    name,
    returned: { name: 'return', ctype: { kind: 'bool' }, span },
    // a reference returned is a pointer to the place it names
    result: returnType.kind === 'void' && !reference ? null : { name: `${name}_result`, ctype: reference ? { kind: 'pointer', to: returnType } : returnType, span },
    ...(reference ? { reference: true as const } : {}),
  };
  const savedFn = ctx.fn;
  const savedLoop = ctx.loop;
  ctx.fn = frame;
  ctx.loop = null;
  ctx.k.calls.push(def.qualified);
  setFlag(ctx, frame.returned, FALSE);
  // no value until a return sets one (the join of a set and an unset result is the set one)
  if (frame.result !== null) ctx.values.set(frame.result, { kind: 'void' });
  try {
    if (options.constructs === true && options.receiver?.place) initialiseMembers(ctx, def, options.receiver.type, options.receiver.place, span);
    const body = def.node.childForFieldName('body')!;
    lowerStatements(ctx, named(body));
  } finally {
    ctx.k.calls.pop();
    ctx.fn = savedFn;
    ctx.loop = savedLoop;
    ctx.scope = savedScope;
  }
  const returned = frame.result === null ? undefined : ctx.values.get(frame.result);
  for (const s of [...slots, frame.returned, ...(frame.result === null ? [] : [frame.result])]) ctx.values.delete(s);
  if (reference) {
    if (returned === undefined || !isPointer(returned)) return reject(ctx, 'misuse', n, `${name} returns a reference, but not on every path faial-ts follows`);
    const at = elementOf(ctx, returned, { expr: constant(0n, 'i32', span), type: 'i32' }, span);
    return isPlace(at as CallResult) ? (at as Place) : unsupported(ctx, n, `a reference to an array returned by ${name}`);
  }
  return frame.result === null ? { kind: 'void' } : returned?.kind === 'void' || returned === undefined ? { kind: 'unknown', ctype: returnType, what: `the result of ${name}, which does not return a value`, span } : returned;
}

/**
 * The template type parameters C++ deduces from an argument that is an
 * object of a class of the file (`template <class Op> f(Op op, …)` called
 * with `f(Add(), …)`): only classes, whose type the argument says exactly.
 * Other parameters not given stay opaque.
 */
function deducedClasses(ctx: Ctx, def: FunctionDef, params: readonly Node[], args: readonly (Node | GivenArg)[]): Map<string, CType> {
  const out = new Map<string, CType>();
  if (def.template === null) return out;
  params.forEach((p, i) => {
    const type = p.childForFieldName('type');
    const a = args[i];
    if (type?.type !== 'type_identifier' || a === undefined) return;
    const t = isGiven(a) ? (a.kind === 'given' ? (a.value.kind === 'struct' ? a.value.ctype : null) : placeType(a.place)) : staticType(ctx, a);
    if (t !== null && classOf(t) !== null && !out.has(type.text)) out.set(type.text, t);
  });
  return out;
}

/** A function template's parameters: types as given (or deduced from a class argument, or opaque), numbers as given (or unknown). */
function bindTemplate(ctx: Ctx, def: FunctionDef, templateArgs: readonly Node[], scope: Scope, n: Node, deduced: ReadonlyMap<string, CType>): void {
  if (def.template === null) return;
  named(def.template).forEach((p, i) => {
    const given = templateArgs[i];
    if (p.type === 'type_parameter_declaration' || p.type === 'optional_type_parameter_declaration') {
      const id = named(p).find((c) => c.type === 'type_identifier');
      if (id === undefined) return;
      scope.define(id.text, { kind: 'type', ctype: given === undefined ? (deduced.get(id.text) ?? { kind: 'opaque', name: id.text }) : typeOfDescriptor(ctx, given) });
      return;
    }
    const d = declared(baseType(ctx, p.childForFieldName('type') ?? p), p.childForFieldName('declarator'));
    if (d.name === null) return;
    const value: Value =
      given === undefined
        ? { kind: 'unknown', ctype: d.ctype.kind === 'int' ? d.ctype : INT, what: `the template argument ${d.name.text} of ${def.name}, not given at this call`, span: spanOf(n) }
        : convert(ctx, rvalue(ctx, given), d.ctype, spanOf(given));
    scope.define(d.name.text, { kind: 'value', value });
  });
}

/**
 * The `SharedMemory<T>()` idiom: a class whose conversion to `T *` returns an
 * `extern __shared__` array. Its value is a pointer to the launch's dynamic
 * shared memory; any other class is constructed (members.ts).
 */
export function sharedMemoryOf(ctx: Ctx, name: string, n: Node): Value | null {
  const cls = ctx.unit.classDefs.get(name)?.find((d) => d.specialised === null);
  if (cls === undefined) return null;
  const m = /extern\s+\[\[shared\]\][^;]*?(\w+)\s*\[\s*\]/.exec(cls.body.text);
  if (m === null) return null;
  const array = dynamicShared(ctx, m[1]!, { kind: 'opaque', name: 'T' }, spanOf(n) as Span);
  return { kind: 'pointer', target: array, prefix: [], offset: null, elem: array.elem, leaf: null };
}
