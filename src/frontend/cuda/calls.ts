/**
 * Calls of the file's own functions, inlined: arguments are evaluated in the
 * caller, pointers passed as pointers (an array and an offset), numbers as
 * fresh lets named after the parameter; the body runs in a scope of its own
 * with its own `return` flag. Recursion cannot be inlined and is rejected.
 */
import type { Node } from './parse.js';
import type { Span } from '../../core/source.js';
import { KernelRejected, cudaDiagnostic } from './codes.js';
import { FALSE, reject, Scope, spanOf, unsupported, type Ctx, type FnFrame, type Slot, type Value } from './context.js';
import { convert, named, nameValue, referent, rvalue, type Referent } from './expr.js';
import { syntaxErrorIn } from './parse.js';
import { bindsValues, dynamicShared, lowerStatements, setFlag, unresolvedType } from './stmt.js';
import { baseType, declared, isUnresolved, typeOfDescriptor } from './types.js';
import type { FunctionDef } from './unit.js';
import { INT, type CType } from './ctypes.js';

/** The parameters of a function definition: declarations with a name (or none), and default values. */
export function parametersOf(def: FunctionDef): Node[] {
  const declarator = def.node.childForFieldName('declarator');
  let f = declarator;
  while (f !== null && f.type !== 'function_declarator') f = f.childForFieldName('declarator');
  const list = f?.childForFieldName('parameters');
  return list === null || list === undefined ? [] : named(list).filter((p) => p.type !== 'variadic_parameter_declaration' && p.text !== 'void');
}

/** The function called: the definition whose parameter count fits the arguments. */
function chosen(defs: readonly FunctionDef[], args: number): FunctionDef | null {
  return (
    defs.find((d) => parametersOf(d).length === args) ??
    defs.find((d) => {
      const ps = parametersOf(d);
      const required = ps.filter((p) => p.type !== 'optional_parameter_declaration').length;
      return args >= required && args <= ps.length;
    }) ??
    null
  );
}

export function checkSyntax(ctx: { readonly file: import('../../core/source.js').SourceFile }, def: FunctionDef): void {
  const bad = syntaxErrorIn(def.node);
  if (bad === null) return;
  const what = bad.isMissing ? `syntax error: missing ${bad.type}` : `syntax error: unexpected ${JSON.stringify(bad.text.slice(0, 20))}`;
  throw new KernelRejected(cudaDiagnostic('syntax', ctx.file, spanOf(bad), what, { hints: [`in ${def.name}, which faial-ts must analyse; host code around it need not parse`] }));
}

/** An argument already evaluated (an operator's operands): it binds a value parameter or a `const T &`, never a non-const reference. */
export interface GivenArg {
  readonly kind: 'given';
  readonly value: Value;
}

const isGiven = (a: Node | GivenArg): a is GivenArg => (a as GivenArg).kind === 'given';

export function inlineCall(ctx: Ctx, name: string, defs: readonly FunctionDef[], templateArgs: readonly Node[], args: readonly (Node | GivenArg)[], n: Node): Value {
  const span = spanOf(n);
  const def = chosen(defs, args.length);
  if (def === null) return reject(ctx, 'misuse', n, `no definition of ${name} takes ${args.length} arguments`);
  if (def.attributes.has('global')) return unsupported(ctx, n, 'a kernel launched from a kernel (dynamic parallelism)');
  if (ctx.k.calls.includes(name)) return unsupported(ctx, n, `recursion (${name} calls itself)`);
  checkSyntax(ctx, def);
  const scope = new Scope(ctx.k.root);
  bindTemplate(ctx, def, templateArgs, scope, n);
  const params = parametersOf(def);
  const savedScope = ctx.scope;
  // the parameters' types are the callee's (its template parameters bound); the arguments are the caller's
  ctx.scope = scope;
  const decls = params.map((p) => declared(baseType(ctx, p.childForFieldName('type')!), p.childForFieldName('declarator')));
  ctx.scope = savedScope;
  decls.forEach((d, i) => (isUnresolved(d.ctype) ? unresolvedType(ctx, params[i]!, d.ctype) : undefined));
  const givens = args.map((a, i): Referent => {
    const d = decls[i];
    if (isGiven(a)) {
      if (d?.reference === true && !bindsValues(params[i]!, params[i]!.childForFieldName('declarator'))) return unsupported(ctx, params[i]!, `a non-const reference parameter of ${name} bound to an operand`);
      return { kind: 'value', value: a.value };
    }
    if (d?.reference !== true) return { kind: 'value', value: rvalue(ctx, a) };
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
  const returnType = declared(baseType(ctx, def.node.childForFieldName('type')!), def.node.childForFieldName('declarator')).ctype;
  const frame: FnFrame = {
    name,
    returned: { name: 'return', ctype: { kind: 'bool' }, span },
    result: returnType.kind === 'void' ? null : { name: `${name}_result`, ctype: returnType, span },
  };
  const savedFn = ctx.fn;
  const savedLoop = ctx.loop;
  ctx.fn = frame;
  ctx.loop = null;
  ctx.k.calls.push(name);
  setFlag(ctx, frame.returned, FALSE);
  // no value until a return sets one (the join of a set and an unset result is the set one)
  if (frame.result !== null) ctx.values.set(frame.result, { kind: 'void' });
  try {
    const body = def.node.childForFieldName('body')!;
    lowerStatements(ctx, named(body));
  } finally {
    ctx.k.calls.pop();
    ctx.fn = savedFn;
    ctx.loop = savedLoop;
    ctx.scope = savedScope;
  }
  const returned = frame.result === null ? undefined : ctx.values.get(frame.result);
  const result: Value = frame.result === null ? { kind: 'void' } : returned?.kind === 'void' || returned === undefined ? { kind: 'unknown', ctype: returnType, what: `the result of ${name}, which does not return a value`, span } : returned;
  for (const s of [...slots, frame.returned, ...(frame.result === null ? [] : [frame.result])]) ctx.values.delete(s);
  return result;
}

/** A function template's parameters: types as given (or opaque), numbers as given (or unknown). */
function bindTemplate(ctx: Ctx, def: FunctionDef, templateArgs: readonly Node[], scope: Scope, n: Node): void {
  if (def.template === null) return;
  named(def.template).forEach((p, i) => {
    const given = templateArgs[i];
    if (p.type === 'type_parameter_declaration' || p.type === 'optional_type_parameter_declaration') {
      const id = named(p).find((c) => c.type === 'type_identifier');
      if (id === undefined) return;
      scope.define(id.text, { kind: 'type', ctype: given === undefined ? { kind: 'opaque', name: id.text } : typeOfDescriptor(ctx, given) });
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
 * shared memory; other classes with methods are rejected where they are used.
 */
export function sharedMemoryOf(ctx: Ctx, name: string, n: Node): Value | null {
  const cls = ctx.unit.classes.get(name);
  if (cls === undefined) return null;
  const m = /extern\s+\[\[shared\]\][^;]*?(\w+)\s*\[\s*\]/.exec(cls.text);
  if (m === null) return unsupported(ctx, n, `C++ classes with methods or operators (${name})`);
  const array = dynamicShared(ctx, m[1]!, { kind: 'opaque', name: 'T' }, spanOf(n) as Span);
  return { kind: 'pointer', target: array, prefix: [], offset: null, elem: array.elem, leaf: null };
}
