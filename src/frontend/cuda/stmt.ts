/**
 * C statements → core statements. Control leaves a block early through
 * `return`, `break` and `continue`: each is a flag (a slot, joined like a
 * local), and the statements after one that may set a flag run under
 * `if (!flag)`. So a thread that returned reaches no later barrier, and a
 * barrier some threads skip is barrier divergence, as in CUDA.
 */
import type { Node } from './parse.js';
import type { BExpr, Expr } from '../../core/ast.js';
import { castTo, constant, not, or } from './build.js';
import {
  branch,
  emitIf,
  FALSE,
  fresh,
  isFalse,
  isTrue,
  havocked,
  reject,
  Scope,
  slotMachine,
  spanOf,
  TRUE,
  unsupported,
  type ArrayRef,
  type Ctx,
  type Slot,
  type Value,
} from './context.js';
import { cudaAttributes } from './parse.js';
import { condition, convert, intOf, load, named, nameValue, placeOrPointer, referencePointer, referent, rvalue, structOfUnknown } from './expr.js';
import { leafNames, leavesOf, sizeOf, typeName, type CType } from './ctypes.js';
import { classOf } from './classes.js';
import { braced, construct } from './members.js';
import { baseType, declared, isUnresolved, typedefType, typeOfDescriptor, type Declared, type TypeEnv } from './types.js';
import { doLoop, forLoop, whileLoop } from './loops.js';
import { launchOnlyExpr } from './launch.js';
import { groupCType } from './groups.js';
import { observed } from './observe.js';
import { nested } from './nesting.js';
import { switchStatement } from './switch.js';
import { localArrayDeclared } from './locals.js';

/** Runs `body` in a new scope; the locals declared in it are forgotten when it ends. */
export function withScope<T>(ctx: Ctx, body: () => T): T {
  const scope = new Scope(ctx.scope);
  const saved = ctx.scope;
  ctx.scope = scope;
  try {
    return body();
  } finally {
    ctx.scope = saved;
    for (const slot of scope.slots) ctx.values.delete(slot);
  }
}

function flagCond(ctx: Ctx, slot: Slot | undefined): BExpr {
  if (slot === undefined) return FALSE;
  const v = ctx.values.get(slot);
  return v?.kind === 'bool' ? v.cond : FALSE;
}

/** Whether control may have left the current block: returned, broken out of or continued. */
export function exitCondition(ctx: Ctx): BExpr {
  return or(flagCond(ctx, ctx.fn.returned), or(flagCond(ctx, ctx.loop?.broke), flagCond(ctx, ctx.loop?.continued)));
}

export function setFlag(ctx: Ctx, slot: Slot, value: BExpr): void {
  ctx.values.set(slot, { kind: 'bool', cond: value });
}

/** A list of statements; the ones after an early exit run only on the paths that did not take it. */
export function lowerStatements(ctx: Ctx, nodes: readonly Node[]): void {
  for (let i = 0; i < nodes.length; i++) {
    const exit = exitCondition(ctx);
    if (isTrue(exit)) return;
    if (!isFalse(exit)) {
      const rest = nodes.slice(i);
      const span = { start: rest[0]!.startIndex, end: rest[rest.length - 1]!.endIndex };
      const flags = [ctx.fn.returned, ctx.loop?.broke, ctx.loop?.continued].filter((s): s is Slot => s !== undefined);
      const stays = branch(ctx, () => {
        for (const f of flags) setFlag(ctx, f, FALSE);
        nested(ctx, rest[0]!, () => lowerStatements(ctx, rest));
      });
      emitIf(ctx, not(exit), stays, branch(ctx, () => undefined), span);
      return;
    }
    lowerStatement(ctx, nodes[i]!);
  }
}

export function lowerStatement(ctx: Ctx, n: Node): void {
  nested(ctx, n, () => observed(ctx, 'statement', n, () => statement(ctx, n)));
}

function statement(ctx: Ctx, n: Node): void {
  const span = spanOf(n);
  switch (n.type) {
    case 'compound_statement':
      return withScope(ctx, () => lowerStatements(ctx, named(n)));
    case 'declaration':
      return declaration(ctx, n);
    case 'expression_statement': {
      const e = named(n)[0];
      if (e !== undefined) rvalue(ctx, e);
      return;
    }
    case 'if_statement':
      return ifStatement(ctx, n);
    case 'for_statement':
      return forLoop(ctx, n);
    case 'while_statement':
      return whileLoop(ctx, n);
    case 'do_statement':
      return doLoop(ctx, n);
    case 'return_statement': {
      const e = named(n)[0];
      if (e !== undefined && ctx.fn.reference === true) {
        // a function returning a reference returns the place its expression names
        ctx.values.set(ctx.fn.result!, referencePointer(ctx, e));
      } else if (e !== undefined) {
        const v = e.type === 'initializer_list' && ctx.fn.result !== null ? braced(ctx, ctx.fn.result.ctype, e, e) : rvalue(ctx, e);
        if (ctx.fn.result !== null) ctx.values.set(ctx.fn.result, convert(ctx, v, ctx.fn.result.ctype, span));
      }
      setFlag(ctx, ctx.fn.returned, TRUE);
      return;
    }
    case 'break_statement':
      if (ctx.loop === null) return reject(ctx, 'misuse', n, 'break outside a loop');
      return setFlag(ctx, ctx.loop.broke, TRUE);
    case 'continue_statement':
      if (ctx.loop === null) return reject(ctx, 'misuse', n, 'continue outside a loop');
      return setFlag(ctx, ctx.loop.continued, TRUE);
    case 'switch_statement':
      return switchStatement(ctx, n);
    case 'goto_statement':
    case 'labeled_statement':
      return unsupported(ctx, n, 'goto');
    case 'for_range_loop':
      return unsupported(ctx, n, 'range-based for');
    case 'try_statement':
    case 'throw_statement':
      return unsupported(ctx, n, 'exceptions');
    case 'type_definition':
    case 'alias_declaration':
      return localType(ctx, n);
    case 'struct_specifier':
      // `struct S;` declares a name and lowers to nothing; a definition with fields is rejected like `struct S {…} s;` (declaration)
      if (n.childForFieldName('body') !== null) return unsupported(ctx, n, 'a struct defined inside a function');
      return;
    case 'static_assert_declaration':
    case 'comment':
    case 'attributed_statement':
      if (n.type === 'attributed_statement') return lowerStatement(ctx, named(n).filter((c) => c.type !== 'attribute_declaration')[0]!);
      return;
    default:
      if (n.type.endsWith('_expression')) {
        rvalue(ctx, n);
        return;
      }
      return unsupported(ctx, span, `the statement ${n.type.replace(/_/g, ' ')}`);
  }
}

/**
 * The node naming the value an `if` or `switch` tests, after lowering its
 * clause's initialiser (`if (init; x)`) and declaration (`switch (int v = f())`,
 * whose variable is the value). Call inside the statement's own scope.
 */
export function clauseSubject(ctx: Ctx, n: Node): Node {
  const clause = n.childForFieldName('condition')!;
  const init = clause.childForFieldName('initializer');
  if (init !== null) lowerStatement(ctx, init);
  const valueNode = clause.childForFieldName('value') ?? named(clause)[named(clause).length - 1]!;
  if (valueNode.type !== 'declaration') return valueNode;
  declaration(ctx, valueNode);
  return declared(baseType(ctx, valueNode.childForFieldName('type')!), valueNode.childForFieldName('declarator')).name ?? valueNode;
}

function ifStatement(ctx: Ctx, n: Node): void {
  const span = spanOf(n);
  withScope(ctx, () => {
    const cond = condition(ctx, clauseSubject(ctx, n));
    const consequence = n.childForFieldName('consequence')!;
    const alternative = n.childForFieldName('alternative');
    const elseStmt = alternative === null ? null : (named(alternative).find((c) => c.type !== 'comment') ?? null);
    const then = branch(ctx, () => withScope(ctx, () => lowerStatement(ctx, consequence)));
    const other = branch(ctx, () => (elseStmt === null ? undefined : withScope(ctx, () => lowerStatement(ctx, elseStmt))));
    emitIf(ctx, cond, then, other, span);
  });
}

function localType(ctx: Ctx, n: Node): void {
  const typeNode = n.childForFieldName('type');
  if (typeNode === null) return;
  const base = baseType(ctx, typeNode);
  for (const d of n.childrenForFieldName('declarator')) {
    if (d === null) continue;
    const decl = declared(base, d);
    if (decl.name !== null) ctx.scope.define(decl.name.text, { kind: 'type', ctype: typedefType(decl) });
  }
  const name = n.childForFieldName('name');
  if (n.type === 'alias_declaration' && name !== null) ctx.scope.define(name.text, { kind: 'type', ctype: typeOfDescriptor(ctx, typeNode) });
}

// ---------------------------------------------------------------- declarations

export function declaration(ctx: Ctx, n: Node): void {
  const attributes = cudaAttributes(n);
  const storage = n.children.filter((c): c is Node => c?.type === 'storage_class_specifier').map((c) => c.text);
  const typeNode = n.childForFieldName('type');
  if (typeNode === null) return unsupported(ctx, n, 'this declaration');
  if (typeNode.type === 'struct_specifier' && typeNode.childForFieldName('body') !== null) return unsupported(ctx, typeNode, 'a struct defined inside a function');
  // `decltype(auto)` deduces a reference from an lvalue in parentheses
  if (typeNode.type === 'placeholder_type_specifier' && typeNode.descendantsOfType('decltype').length > 0) return unsupported(ctx, typeNode, 'decltype(auto)');
  const auto = typeNode.type === 'placeholder_type_specifier';
  const base: CType = auto ? { kind: 'opaque', name: 'auto' } : baseType(ctx, typeNode);
  // a declaration in a condition (`if (int v = f())`) holds its initialiser itself, not in an init_declarator
  const conditionValue = n.childForFieldName('value');
  for (const d of n.childrenForFieldName('declarator')) {
    if (d === null) continue;
    // `View<float> v(a);` reads as a function declaration whose parameter types are the arguments' names: C++ declares a variable
    if (d.type === 'function_declarator') {
      localObject(ctx, base, d);
      continue;
    }
    const own = declared(base, d);
    const decl = own.init === null && conditionValue !== null ? { ...own, init: conditionValue } : own;
    if (decl.name === null) continue;
    if (isUnresolved(decl.ctype)) return unresolvedType(ctx, d, decl.ctype);
    if (decl.reference) {
      localReference(ctx, decl, auto, bindsValues(n, d), d);
      continue;
    }
    if (attributes.has('shared')) sharedDeclaration(ctx, decl, storage.includes('extern'), d);
    else if (attributes.has('constant') || attributes.has('device') || attributes.has('managed') || storage.includes('static')) {
      return unsupported(ctx, d, 'a static or __device__ variable declared inside a function');
    } else if (decl.dims.length > 0) localArray(ctx, decl);
    else localScalar(ctx, decl, auto, d);
  }
}

/** Whether a reference declared here may hold a value: `const T &` (a temporary's lifetime is extended) or `T &&`. */
export function bindsValues(declaration: Node, declarator: Node | null): boolean {
  const constant = declaration.children.some((c) => c?.type === 'type_qualifier' && c.text === 'const');
  const rvalueRef = declarator !== null && [declarator, ...declarator.descendantsOfType('reference_declarator')].some((r) => r?.type === 'reference_declarator' && r.child(0)?.type === '&&');
  return constant || rvalueRef;
}

/** `T &r = init;`: another name for init's place, or a local holding its value (`const T &r = x + 1`). */
function localReference(ctx: Ctx, decl: Declared, auto: boolean, values: boolean, d: Node): void {
  const name = decl.name!.text;
  const span = spanOf(d);
  if (decl.dims.length > 0) return unsupported(ctx, d, 'an array of references, or a reference to an array');
  if (decl.init === null) return reject(ctx, 'misuse', d, `the reference '${name}' needs an initialiser`);
  if (decl.init.type === 'initializer_list' || decl.init.type === 'argument_list') return unsupported(ctx, decl.init, 'a reference bound to a braced initialiser');
  const r = referent(ctx, decl.ctype, values, decl.init, d);
  if (r.kind === 'alias') return ctx.scope.define(name, { kind: 'alias', place: r.place });
  const ctype = auto ? valueType(r.value) : decl.ctype;
  const slot: Slot = { name, ctype, span: spanOf(decl.name!) };
  ctx.values.set(slot, nameValue(ctx, name, r.value, span));
  ctx.scope.define(name, { kind: 'local', slot });
  ctx.scope.slots.push(slot);
}

/** A variable declared with a type faial-ts cannot resolve: it might be a reference, and a copy would drop its writes. */
export function unresolvedType(ctx: Ctx, at: Node, t: CType): never {
  return unsupported(ctx, at, `a variable of the type ${typeName(t)}, which faial-ts cannot resolve (it may be a reference)`, ['name the type it stands for']);
}

/**
 * `T v(a, b);` parsed as a function declaration: the "parameter types" are
 * names of values in scope (a variable direct-initialised with them); a real
 * declaration of a function inside a function is rejected by name.
 */
function localObject(ctx: Ctx, base: CType, d: Node): void {
  const nameNode = d.childForFieldName('declarator');
  const params = named(d.childForFieldName('parameters')!);
  const args = params.map((p) => (p.type === 'parameter_declaration' && p.childForFieldName('declarator') === null ? p.childForFieldName('type') : null));
  const isValue = (a: Node | null): boolean => {
    if (a === null || (a.type !== 'type_identifier' && a.type !== 'qualified_identifier')) return false;
    const b = ctx.scope.lookup(a.text);
    return b !== undefined ? b.kind !== 'type' : ctx.unit.constants.has(a.text) || ctx.unit.functions.has(a.text);
  };
  if (nameNode?.type !== 'identifier' || params.length === 0 || !args.every(isValue)) return unsupported(ctx, d, 'a function declared inside a function');
  const list = d.childForFieldName('parameters')!;
  const decl: Declared = { name: nameNode, ctype: base, dims: [], init: list, reference: false };
  localScalar(ctx, { ...decl, init: null }, false, d, args as Node[]);
}

function localScalar(ctx: Ctx, decl: Declared, auto: boolean, d: Node, parsedAsParameters: readonly Node[] | null = null): void {
  const name = decl.name!.text;
  const span = spanOf(d);
  let value: Value;
  const cls = auto ? null : classOf(decl.ctype);
  if (parsedAsParameters !== null) {
    value = cls !== null ? construct(ctx, cls, { kind: 'args', args: parsedAsParameters, braces: false }, d, name) : parsedAsParameters.length === 1 ? rvalue(ctx, parsedAsParameters[0]!) : reject(ctx, 'misuse', d, `${parsedAsParameters.length} values for one ${typeName(decl.ctype)}`);
  } else if (decl.init === null && cls !== null) {
    // `P p;`: its default constructor, or its members' default initialisers
    value = construct(ctx, cls, { kind: 'default' }, d, name);
  } else if (decl.init === null) {
    if (auto) return reject(ctx, 'misuse', d, `'auto ${name}' needs an initialiser`);
    value = decl.ctype.kind === 'struct' ? structOfUnknown(decl.ctype, `the uninitialised ${name}`, span) : { kind: 'unknown', ctype: decl.ctype, what: `the uninitialised ${name}`, span };
  } else {
    value = initialValue(ctx, decl.ctype, decl.init, name);
  }
  const ctype = auto ? valueType(value) : decl.ctype;
  const given = auto || decl.init === null || parsedAsParameters !== null ? value : convert(ctx, value, ctype, span);
  // an integer unknown (`unsigned h = f();`) is drawn where C evaluates its initialiser, once, not at each first use in a branch
  const machine = slotMachine(ctype);
  const converted: Value =
    decl.init !== null && given.kind === 'unknown' && given.local === undefined && machine !== null
      ? { kind: 'int', expr: havocked(ctx, name, machine, { kind: 'value', what: given.what, span: given.span }, span), type: machine }
      : given;
  const slot: Slot = { name, ctype, span: spanOf(decl.name!) };
  ctx.values.set(slot, nameValue(ctx, name, converted, span));
  ctx.scope.define(name, { kind: 'local', slot });
  ctx.scope.slots.push(slot);
}

function initialValue(ctx: Ctx, ctype: CType, init: Node, name: string): Value {
  const span = spanOf(init);
  if (init.type === 'initializer_list' || init.type === 'argument_list') {
    if (ctype.kind === 'opaque') {
      // `auto x{…}`, `T x(…)` of a type faial-ts does not follow: the one value, else unknown
      const parts = named(init).map((e) => rvalue(ctx, e));
      return parts.length === 1 ? parts[0]! : { kind: 'unknown', ctype, what: `the initial value of ${name}`, span };
    }
    return braced(ctx, ctype, init, init, name);
  }
  // `P p = v;`: a copy of an object of the class, else a conversion by one of its constructors
  const cls = classOf(ctype);
  if (cls !== null) {
    const v = rvalue(ctx, init);
    return v.kind === 'struct' && v.ctype.name === cls.name ? v : construct(ctx, cls, { kind: 'args', args: [{ kind: 'given', value: v }], braces: false }, init, name);
  }
  // `int x = A[i]` names the read after the local
  if (init.type === 'subscript_expression' || (init.type === 'pointer_expression' && init.child(0)?.type === '*')) {
    const p = placeOrPointer(ctx, init);
    return p.kind === 'pointer' || p.kind === 'either' || p.kind === 'null' ? p : load(ctx, p, span, name);
  }
  return rvalue(ctx, init);
}

function valueType(v: Value): CType {
  switch (v.kind) {
    case 'int':
      return { kind: 'int', bits: v.type === 'i32' || v.type === 'u32' ? 32 : 64, signed: v.type.startsWith('i'), name: v.type };
    case 'bool':
      return { kind: 'bool' };
    case 'unknown':
      return v.ctype;
    case 'pointer':
    case 'either':
    case 'null':
      return { kind: 'pointer', to: v.elem };
    case 'struct':
      return v.ctype;
    case 'group':
      return groupCType(v.group);
    case 'void':
      return { kind: 'void' };
  }
}

/** A thread's own array (`int tmp[4]`): private, so its accesses cannot race; its elements are followed as locals (locals.ts). */
function localArray(ctx: Ctx, decl: Declared): void {
  const array = localArrayDeclared(ctx, decl);
  ctx.scope.define(decl.name!.text, { kind: 'array', array, scalar: false });
}

/** A `__shared__` array (or scalar, a one-element array) of the block, declared once for the kernel even if its function is inlined twice. */
function sharedDeclaration(ctx: Ctx, decl: Declared, external: boolean, d: Node): void {
  const site = `${d.startIndex}`;
  let array = ctx.k.arrayRefs.get(site);
  if (array === undefined) {
    array = external ? dynamicShared(ctx, decl.name!.text, dynamicSharedView(ctx, enclosingBody(d), decl.name!.text, decl.name!.startIndex, decl.ctype), spanOf(decl.name!)) : staticShared(ctx, decl);
    ctx.k.arrayRefs.set(site, array);
  }
  if (decl.init !== null) return unsupported(ctx, decl.init, 'an initialiser on a __shared__ variable');
  ctx.scope.define(decl.name!.text, { kind: 'array', array, scalar: decl.dims.length === 0 });
}

function staticShared(ctx: Ctx, decl: Declared): ArrayRef {
  const name = fresh(ctx, decl.name!.text);
  const span = spanOf(decl.name!);
  const sizes: Expr[] = [];
  for (const size of decl.dims) {
    const s = size === null ? null : intOf(ctx, rvalue(ctx, size), spanOf(size));
    if (s !== null && launchOnlyExpr(ctx, s.expr)) sizes.push(castTo(s.expr, 'i64', spanOf(size!)));
  }
  const dims = Math.max(decl.dims.length, 1);
  const leaves = decl.ctype.kind === 'struct' ? leavesOf(decl.ctype).length : 0;
  const complete = sizes.length === decl.dims.length;
  const declSizes = decl.dims.length === 0 ? [constant(1n, 'i64', span)] : complete ? sizes : [];
  ctx.k.arrays.push({ name: { text: name, span }, scope: 'shared', sizes: leaves > 0 && declSizes.length > 0 ? [...declSizes, constant(BigInt(leaves), 'i64', span)] : declSizes, ...leafNames(decl.ctype), span });
  return { name, space: 'shared', elem: decl.ctype, dims, readOnly: false, span };
}

/**
 * `extern __shared__ T a[]`: the dynamic shared memory of the launch. Every
 * such declaration names the same memory, so they are one core array, viewed
 * with the element type of each declaration (which must have the same size).
 */
export function dynamicShared(ctx: Ctx, name: string, elem: CType, span: import('../../core/source.js').Span): ArrayRef {
  const existing = ctx.k.arrayRefs.get('extern shared');
  if (existing !== undefined) {
    const a = sizeOfOrNull(existing.elem);
    const b = sizeOfOrNull(elem);
    if (a !== null && b !== null && a !== b) return unsupported(ctx, span, `extern __shared__ arrays of different element sizes (${existing.name} and ${name})`);
    return { ...existing, elem };
  }
  const core = fresh(ctx, name);
  ctx.k.arrays.push({ name: { text: core, span }, scope: 'shared', sizes: [], ...leafNames(elem), span });
  const array: ArrayRef = { name: core, space: 'shared', elem, dims: 1, readOnly: false, span };
  ctx.k.arrayRefs.set('extern shared', array);
  return array;
}

/**
 * The element type of `extern __shared__ char smem[]` (any one-byte element)
 * when the code only ever uses it cast to pointers to elements of one larger
 * size (`float *s = (float *)smem;`, `reinterpret_cast<int2 *>(smem)`): the
 * dynamic shared memory is then an array of those elements, its indices
 * counting them, as if declared `extern __shared__ float smem[]`. Any other
 * use (an access as bytes, `smem + 16`, casts to different sizes) keeps the
 * declared type, whose casts to larger elements are rejected. `region` holds
 * every use: the function body for a local declaration, the file for one at
 * file scope; `declared` is the offset of the declaration's own name.
 */
/** The body of the function a node is written in (the node itself outside any). */
function enclosingBody(n: Node): Node {
  for (let p = n.parent; p !== null; p = p.parent) if (p.type === 'function_definition') return p.childForFieldName('body') ?? p;
  return n;
}

export function dynamicSharedView(env: TypeEnv, region: Node, name: string, declared: number, ctype: CType): CType {
  if (sizeOf(ctype) !== 1) return ctype;
  let view: CType | null = null;
  for (const use of region.descendantsOfType('identifier')) {
    if (use.text !== name || use.startIndex === declared) continue;
    const target = castTarget(env, use);
    if (target?.kind !== 'pointer') return ctype;
    const size = sizeOf(target.to);
    if (size === null || size <= 1 || (view !== null && sizeOf(view) !== size)) return ctype;
    view ??= target.to;
  }
  return view ?? ctype;
}

/** The type a bare name is cast to, C's `(T *)x` or a named cast `reinterpret_cast<T *>(x)`; null for any other use. */
function castTarget(env: TypeEnv, use: Node): CType | null {
  let at = use;
  while (at.parent?.type === 'parenthesized_expression') at = at.parent;
  const parent = at.parent;
  if (parent?.type === 'cast_expression' && parent.childForFieldName('value') === at) return typeOfDescriptor(env, parent.childForFieldName('type')!);
  const call = parent?.type === 'argument_list' ? parent.parent : null;
  const fn = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
  if (fn?.type !== 'template_function' || named(parent!).length !== 1) return null;
  const castName = fn.childForFieldName('name')?.text;
  const types = named(fn.childForFieldName('arguments')!);
  return (castName === 'reinterpret_cast' || castName === 'static_cast') && types.length === 1 ? typeOfDescriptor(env, types[0]!) : null;
}

function sizeOfOrNull(t: CType): number | null {
  if (t.kind === 'opaque') return null;
  return t.kind === 'int' ? t.bits / 8 : t.kind === 'float' ? (t.name === 'double' ? 8 : 4) : null;
}
