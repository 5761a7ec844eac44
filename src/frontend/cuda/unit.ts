/**
 * A CUDA translation unit → a core program: every `__global__` function is a
 * kernel, lowered on its own. A kernel that uses a construct on the reject
 * list (or has a syntax error, in itself or in a function it calls) is
 * reported in error and the others are still lowered; host code is skipped
 * and need not parse.
 */
import type { Node } from './parse.js';
import type { BExpr, Kernel, Param, Program } from '../../core/ast.js';
import type { SourceFile, Span } from '../../core/source.js';
import { diagnosticOf, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { compare, constant, or } from './build.js';
import { checkSyntax, parametersOf } from './calls.js';
import { cudaDiagnostic, KernelRejected } from './codes.js';
import { Builder, FALSE, fresh, notice, Scope, spanOf, unsupported, type ArrayRef, type Ctx, type KernelState, type Slot, type Value } from './context.js';
import { INT, isInteger, leafNames, leavesOf, LONG, machineOf, typeName, type CType, type StructField } from './ctypes.js';
import { convert, named, rvalue } from './expr.js';
import { cudaAttributes, syntaxErrorIn, type CudaAttribute } from './parse.js';
import { kernelHeads } from './heads.js';
import { ieeeTypeOf, patternType } from './floats.js';
import { dynamicSharedView, lowerStatements, setFlag, unresolvedType, withScope } from './stmt.js';
import { launchLimits } from './limits.js';
import { observedDeclaration, type Observer } from './observe.js';
import { excessRejection } from './nesting.js';
import { baseType, declared, isUnresolved, typedefType, typeOfDescriptor } from './types.js';
import { classOf, defineClass, defineOutOfClass, type ClassDef, type OutOfClassMember } from './classes.js';
import { usable } from './members.js';

export interface FunctionDef {
  /** the name calls use: unqualified, as the function is called inside its namespace or class */
  readonly name: string;
  /** the name a kernel is reported and selected (`--kernel`) by: with its namespaces and class, `ns::S::k`; an anonymous namespace adds nothing */
  readonly qualified: string;
  readonly node: Node;
  /** the template parameter list of a function template */
  readonly template: Node | null;
  readonly attributes: ReadonlySet<CudaAttribute>;
}

interface GlobalVar {
  readonly name: string;
  readonly space: 'global' | 'shared' | 'constant';
  readonly ctype: CType;
  readonly dims: readonly (Node | null)[];
  readonly external: boolean;
  readonly span: Span;
  /** the initialiser, and whether the variable is const: a table of function pointers is read from them (declareGlobal) */
  readonly init: Node | null;
  readonly constant: boolean;
}

export interface Unit {
  readonly file: SourceFile;
  readonly functions: Map<string, FunctionDef[]>;
  readonly types: Map<string, CType>;
  /** the structs and classes the file defines, by name: a class, or a class template and its specialisations (classes.ts) */
  readonly classDefs: Map<string, ClassDef[]>;
  /** member functions defined outside their class, by the class's name */
  readonly outOfClass: Map<string, OutOfClassMember[]>;
  /** the class types made so far, by name with template arguments (`View<float>`) */
  readonly instances: Map<string, CType>;
  readonly constants: Map<string, Value>;
  /** file-level integer constants whose initialiser is no constant faial-ts computes, with why: a use names it (not "unknown name") */
  readonly uncomputed: Map<string, string>;
  readonly globals: GlobalVar[];
  /** template arguments a kernel is instantiated with (explicit instantiations, launches in host code) */
  readonly instantiations: Map<string, Node[]>;
  /** kernels whose syntax is so broken that the parser did not see a function definition */
  readonly broken: { readonly name: string; readonly node: Node }[];
  /** told what came of each declaration, statement and call (the silent-drop test); absent in normal runs */
  readonly observer?: Observer;
}

export interface RejectedKernel {
  readonly name: string;
  readonly span: Span;
  readonly diagnostic: Diagnostic;
}

export interface LoweredUnit {
  readonly program: Program;
  readonly rejected: readonly RejectedKernel[];
  readonly notices: readonly Diagnostic[];
  /** errors about the whole file (no kernel) */
  readonly errors: readonly Diagnostic[];
  /** each kernel's integer parameters (the core's), by their position in its C parameter list (null: another kind): what a launch's arguments fix (lower.ts) */
  readonly argumentParams?: ReadonlyMap<string, readonly (Param | null)[]>;
}

/** Lowers every kernel of the parsed unit; `file` is the text the tree was parsed from. */
export function lowerUnit(file: SourceFile, root: Node, observer?: Observer): LoweredUnit {
  const unit: Unit = { file, functions: new Map(), types: new Map(), classDefs: new Map(), outOfClass: new Map(), instances: new Map(), constants: new Map(), uncomputed: new Map(), globals: [], instantiations: new Map(), broken: [], ...(observer === undefined ? {} : { observer }) };
  const notices: Diagnostic[] = [];
  collect(unit, root, null, notices, '');
  launchedInstantiations(unit, root);
  const kernels: Kernel[] = [];
  const rejected: RejectedKernel[] = [];
  const argumentParams = new Map<string, readonly (Param | null)[]>();
  const defs = [...unit.functions.values()].flat().filter((d) => d.attributes.has('global'));
  for (const def of defs) {
    const kernelNotices: Diagnostic[] = [];
    try {
      const { kernel, args } = lowerKernel(unit, def, kernelNotices);
      argumentParams.set(def.qualified, args);
      const excess = excessRejection(file, kernel);
      if (excess !== null) throw new KernelRejected(excess);
      kernels.push(kernel);
      notices.push(...kernelNotices);
    } catch (e) {
      // any failure lowering one kernel is that kernel's error, at its name: the file's other kernels keep their results
      const diagnostic = e instanceof KernelRejected ? e.diagnostic : loweringFailed(file, def, e);
      rejected.push({ name: def.qualified, span: nameSpan(def), diagnostic });
    }
  }
  for (const b of unit.broken) {
    const at = syntaxErrorIn(b.node) ?? b.node;
    const message = at.isMissing ? `syntax error: missing ${at.type}` : 'syntax error: this kernel does not parse as a function definition';
    rejected.push({ name: b.name, span: spanOf(b.node), diagnostic: cudaDiagnostic('syntax', file, spanOf(at), message) });
  }
  const unseen = unseenKernels(file, root, [...defs.map((d) => spanOf(d.node)), ...unit.broken.map((b) => spanOf(b.node))]);
  rejected.push(...unseen);
  const errors =
    defs.length === 0 && unit.broken.length === 0 && unseen.length === 0
      ? [cudaDiagnostic('noKernel', file, { start: 0, end: 0 }, 'no __global__ kernel in this file', { hints: ['faial-ts verifies the kernels of a .cu file: functions declared __global__'] })]
      : [];
  return { program: { file, kernels }, rejected, notices, errors, argumentParams };
}

/** The error of a kernel whose lowering failed inside faial-ts (a construct the front end mishandles): an internal error, at the kernel. */
function loweringFailed(file: SourceFile, def: FunctionDef, e: unknown): Diagnostic {
  const message = e instanceof Error ? e.message : String(e);
  return diagnosticOf('internal', file, nameSpan(def), `internal error while lowering the kernel ${def.qualified}: ${message}`, {
    hints: ['this is a bug in faial-ts; please report it with the input file', "the file's other kernels are verified"],
  });
}

/**
 * The kernels the text has (by the second scan, heads.ts) that no kernel
 * read from the tree accounts for, each in error where the parser went
 * wrong: every `__global__` definition is verified or reported, never
 * missing. A kernel read from the tree accounts for the first head inside it.
 */
function unseenKernels(file: SourceFile, root: Node, seen: readonly Span[]): RejectedKernel[] {
  const used = new Set<Span>();
  const out: RejectedKernel[] = [];
  for (const head of kernelHeads(file.text)) {
    const by = seen.find((s) => !used.has(s) && s.start <= head.span.start && head.span.end <= s.end);
    if (by !== undefined) {
      used.add(by);
      continue;
    }
    const bad = firstErrorIn(root, head.head);
    const hints = [`faial-ts reads a kernel here (${head.name}), but the parser did not read a function definition: the kernel is not verified`];
    if (bad !== null && file.text.slice(bad.startIndex, bad.endIndex).includes('\uFFFD')) hints.push('� stands for bytes that are not valid UTF-8 (each invalid sequence is read as one U+FFFD)');
    const diagnostic =
      bad === null
        ? cudaDiagnostic('unsupported', file, head.span, `unsupported: a kernel declared where faial-ts does not read kernels (${head.name})`, { hints })
        : cudaDiagnostic('syntax', file, spanOf(bad), bad.isMissing ? `syntax error: missing ${bad.type}` : `syntax error: unexpected ${JSON.stringify(file.text.slice(bad.startIndex, bad.endIndex).slice(0, 20))}`, { hints });
    out.push({ name: head.name, span: head.span, diagnostic });
  }
  return out;
}

/** The first ERROR or MISSING node of the tree that overlaps `span`, the innermost of nested ones (an invalid byte rather than the head around it). */
function firstErrorIn(n: Node, span: Span): Node | null {
  if (!n.hasError || n.endIndex < span.start || n.startIndex > span.end) return null;
  for (const c of n.children) {
    const found = firstErrorIn(c, span);
    if (found !== null) return found;
  }
  return n.isError || n.isMissing ? n : null;
}

function nameSpan(def: FunctionDef): Span {
  let d = def.node.childForFieldName('declarator');
  while (d !== null && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const name = d?.childForFieldName('declarator');
  return name ? spanOf(name) : spanOf(def.node);
}

// ---------------------------------------------------------------- the file's declarations

function functionName(n: Node): string | null {
  let d = n.childForFieldName('declarator');
  while (d !== null && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const name = d?.childForFieldName('declarator');
  if (name === null || name === undefined) return null;
  if (name.type === 'template_function') return name.childForFieldName('name')?.text ?? null;
  // `operator+`, however spaced: what a struct operand's operator calls (expr.ts structOperator)
  if (name.type === 'operator_name') return name.text.replace(/\s+/g, '');
  return name.type === 'identifier' || name.type === 'qualified_identifier' || name.type === 'field_identifier' ? name.text : null;
}

/** A minimal kernel context to evaluate constants of the file (enumerators, `const int N = …`), with the names of `scope` (a class's template arguments). */
function constantContext(unit: Unit, scope: Scope | null): Ctx {
  const root = new Scope(scope);
  const k: KernelState = { arrays: [], arrayRefs: new Map(), params: [], requires: [], stated: [], used: new Set(), builtins: new Set(), defs: new Map(), notices: [], calls: [], root };
  const returned: Slot = { name: 'return', ctype: { kind: 'bool' }, span: { start: 0, end: 0 } };
  return { file: unit.file, unit, k, b: new Builder(), scope: root, values: new Map(), fn: { name: '', returned, result: null }, loop: null };
}

export function constantValue(unit: Unit, n: Node, ctype: CType, scope: Scope | null = null, why?: (reason: string) => void): Value | null {
  try {
    const ctx = constantContext(unit, scope);
    const v = convert(ctx, rvalue(ctx, n), ctype, spanOf(n));
    if (ctx.b.items.length === 0 && (v.kind === 'int' ? v.expr.kind === 'int' : v.kind === 'bool' ? v.cond.kind === 'bool' : false)) return v;
    why?.('it is not made of literals, constants and operators alone');
    return null;
  } catch (e) {
    if (!(e instanceof KernelRejected)) throw e;
    why?.(e.diagnostic.message.replace(/^unsupported: /, ''));
    return null;
  }
}

/** `scope` is the prefix of the names declared in `n`: `ns::` inside `namespace ns`, '' at file level. */
function collect(unit: Unit, n: Node, template: Node | null, notices: Diagnostic[], scope: string): void {
  for (const c of named(n)) {
    observedDeclaration(unit, notices, unit.observer, c, () => {
    switch (c.type) {
      case 'function_definition':
        defineFunction(unit, c, template, scope);
        if (!cudaAttributes(c).has('global')) defineOutOfClass(unit, c, template);
        break;
      case 'template_declaration': {
        const params = c.childForFieldName('parameters');
        // `template __global__ void k<256>(…);`: an explicit instantiation
        if (params === null) explicitInstantiation(unit, c);
        collect(unit, c, params, notices, scope);
        break;
      }
      case 'template_instantiation':
        explicitInstantiation(unit, c);
        break;
      case 'declaration':
      case 'ERROR':
        if (c.hasError && /\[\[global\]\]/.test(c.text)) {
          const name = /\[\[global\]\][^(]*?(\w+)\s*\(/.exec(c.text)?.[1] ?? 'kernel';
          unit.broken.push({ name: `${scope}${name}`, node: c });
        } else if (c.type === 'declaration') globalDeclaration(unit, c);
        break;
      case 'struct_specifier':
      case 'class_specifier':
      case 'union_specifier':
        structDefinition(unit, c, template);
        memberKernels(unit, c, template, scope);
        break;
      case 'type_definition':
      case 'alias_declaration':
        typeDefinition(unit, c);
        break;
      case 'enum_specifier':
        enumDefinition(unit, c, scope);
        break;
      case 'namespace_definition': {
        // `namespace a::b {`: the name is a nested_namespace_specifier, written `a::b` (spaces aside)
        const name = c.childForFieldName('name')?.text.replace(/\s+/g, '');
        collect(unit, c.childForFieldName('body') ?? c, template, notices, name === undefined ? scope : `${scope}${name}::`);
        break;
      }
      case 'linkage_specification':
        // `extern "C" { … }` has a declaration_list as its body; `extern "C" __global__ void k(…) {…}` the definition itself, a child like the string
        collect(unit, c, template, notices, scope);
        break;
      case 'declaration_list':
      case 'preproc_if':
      case 'preproc_ifdef':
      case 'preproc_else':
      case 'preproc_elif':
        collect(unit, c.childForFieldName('body') ?? c, template, notices, scope);
        break;
      default:
        break;
    }
    });
  }
}

function defineFunction(unit: Unit, c: Node, template: Node | null, scope: string): void {
  const name = functionName(c);
  if (name === null) return;
  const def: FunctionDef = { name, qualified: `${scope}${name}`, node: c, template, attributes: cudaAttributes(c) };
  unit.functions.set(name, [...(unit.functions.get(name) ?? []), def]);
}

/** The `__global__` static members of a class (CUDA allows no other member kernel), as kernels named `S::k`; its other members are the class's (see structDefinition). */
function memberKernels(unit: Unit, c: Node, template: Node | null, scope: string): void {
  const name = c.childForFieldName('name')?.text;
  const body = c.childForFieldName('body');
  if (name === undefined || body === null) return;
  for (const m of named(body)) {
    const member = m.type === 'template_declaration' ? named(m).find((x) => x.type === 'function_definition') : m;
    if (member?.type !== 'function_definition' || !cudaAttributes(member).has('global')) continue;
    defineFunction(unit, member, m.type === 'template_declaration' ? m.childForFieldName('parameters') : template, `${scope}${name}::`);
  }
}

function explicitInstantiation(unit: Unit, c: Node): void {
  const text = c.descendantsOfType('template_function');
  for (const t of text) {
    if (t === null) continue;
    const name = t.childForFieldName('name')?.text;
    const args = t.childForFieldName('arguments');
    if (name !== undefined && args !== null) unit.instantiations.set(name, [...(unit.instantiations.get(name) ?? []), args]);
  }
}

/**
 * A kernel template launched with explicit template arguments in host code
 * (`spmv<int, float><<<g, b>>>(…)`, a call once the launch's `<<<…>>>` is
 * blanked): those arguments instantiate it, as an explicit instantiation does.
 */
function launchedInstantiations(unit: Unit, root: Node): void {
  for (const call of root.descendantsOfType('call_expression')) {
    const fn = call.childForFieldName('function');
    if (fn?.type !== 'template_function') continue;
    const name = fn.childForFieldName('name')?.text;
    const args = fn.childForFieldName('arguments');
    const kernel = name === undefined ? undefined : unit.functions.get(name)?.find((d) => d.attributes.has('global') && d.template !== null);
    if (kernel !== undefined && args !== null) unit.instantiations.set(name!, [...(unit.instantiations.get(name!) ?? []), args]);
  }
}

/** The most leaves an array field may add to its struct: each is an index value of every access to the struct's elements. */
const MAX_FIELD_LENGTH = 1024;

/** A struct or class definition with a body: a class of the file (classes.ts); a friend function defined in it is a function of the file. */
function structDefinition(unit: Unit, c: Node, template: Node | null = null): void {
  const name = c.childForFieldName('name')?.text;
  const body = c.childForFieldName('body');
  if (name === undefined || body === null) return;
  if (c.type === 'union_specifier') {
    unit.types.set(name, { kind: 'opaque', name: `union ${name}` });
    return;
  }
  defineClass(unit, c, template);
  for (const m of named(body)) {
    if (m.type !== 'friend_declaration') continue;
    for (const f of named(m)) if (f.type === 'function_definition') defineFunction(unit, f, null, '');
  }
}

/**
 * The fields of a struct's body. An array field of one dimension and a
 * constant size is that many fields (its layout is known); any other array
 * field is opaque, and rejected by name where it is accessed.
 */
export function fieldsOf(unit: Unit, body: Node, scope: Scope | null = null): StructField[] {
  const fields: StructField[] = [];
  const env = { unit, scope };
  for (const m of named(body)) {
    // a static member is not stored in the struct's elements
    if (m.type !== 'field_declaration' || m.children.some((x) => x?.type === 'storage_class_specifier' && x.text === 'static')) continue;
    const base = baseType(env, m.childForFieldName('type')!);
    for (const d of m.childrenForFieldName('declarator')) {
      // a method declared in the body (`__device__ int get() const;`) is not a field
      if (d === null || d.type === 'function_declarator' || d.descendantsOfType('function_declarator').length > 0) continue;
      const decl = declared(base, d);
      if (decl.name === null) continue;
      if (decl.reference) {
        // a reference member (`int &r;`) names another object: kept as a reference, so that no access through it is taken for a copy's (expr.ts withField rejects it)
        fields.push({ name: decl.name.text, type: { kind: 'reference', to: decl.ctype } });
        continue;
      }
      if (decl.dims.length === 0) {
        fields.push({ name: decl.name.text, type: decl.ctype });
        continue;
      }
      const size = decl.dims.length === 1 && decl.dims[0] !== null ? constantValue(unit, decl.dims[0]!, LONG, scope) : null;
      const length = size?.kind === 'int' && size.expr.kind === 'int' ? size.expr.value : null;
      const known = length !== null && length > 0n && length <= BigInt(MAX_FIELD_LENGTH) && leavesOf(decl.ctype).length * Number(length) <= MAX_FIELD_LENGTH;
      fields.push(known ? { name: decl.name.text, type: decl.ctype, length: Number(length) } : { name: decl.name.text, type: { kind: 'opaque', name: `${decl.name.text}[]` } });
    }
  }
  return fields;
}

function typeDefinition(unit: Unit, c: Node): void {
  const typeNode = c.childForFieldName('type');
  if (typeNode === null) return;
  if ((typeNode.type === 'struct_specifier' || typeNode.type === 'class_specifier' || typeNode.type === 'union_specifier') && typeNode.childForFieldName('body') !== null) {
    structDefinition(unit, typeNode);
  }
  // `typedef enum { A, B } E;`: its enumerators are constants
  if (typeNode.type === 'enum_specifier') enumDefinition(unit, typeNode);
  const env = { unit, scope: null };
  const base = typeNode.type === 'struct_specifier' && typeNode.childForFieldName('name') === null ? anonymousStruct(unit, typeNode) : baseType(env, typeNode);
  for (const d of c.childrenForFieldName('declarator')) {
    if (d === null) continue;
    const decl = declared(base, d);
    if (decl.name !== null) unit.types.set(decl.name.text, typedefType(decl));
  }
  const alias = c.childForFieldName('name');
  if (c.type === 'alias_declaration' && alias !== null) unit.types.set(alias.text, typeOfDescriptor(env, typeNode));
}

function anonymousStruct(unit: Unit, s: Node): CType {
  const body = s.childForFieldName('body');
  return { kind: 'struct', name: 'struct', fields: body === null ? [] : fieldsOf(unit, body) };
}

/**
 * An enum's enumerators as `int` constants, under each name C++ reaches them
 * by (`A`, `E::A`, `ns::A`, `ns::E::A`; a scoped `enum class` only through its
 * name); a variable of the named enum is of its underlying type (`int`
 * unless one is given).
 */
function enumDefinition(unit: Unit, c: Node, scope = ''): void {
  const body = c.childForFieldName('body');
  const enumName = c.childForFieldName('name')?.text;
  const underlying = c.childForFieldName('base');
  const scoped = c.children.some((x) => x?.type === 'class' || x?.type === 'struct');
  if (enumName !== undefined && !unit.types.has(enumName)) {
    const t = underlying === null ? INT : baseType({ unit, scope: null }, underlying);
    unit.types.set(enumName, isInteger(t) ? t : INT);
  }
  if (body === null) return;
  let next = 0n;
  for (const e of named(body)) {
    if (e.type !== 'enumerator') continue;
    const valueNode = e.childForFieldName('value');
    const value = valueNode === null ? null : constantValue(unit, valueNode, INT);
    if (value?.kind === 'int' && value.expr.kind === 'int') next = value.expr.value;
    const name = e.childForFieldName('name')!.text;
    const enumerator: Value = { kind: 'int', expr: constant(next, 'i32', spanOf(e)), type: 'i32' };
    const names = [...(scoped ? [] : [name, `${scope}${name}`]), ...(enumName === undefined ? [] : [`${enumName}::${name}`, `${scope}${enumName}::${name}`])];
    for (const x of names) unit.constants.set(x, enumerator);
    next += 1n;
  }
}

function globalDeclaration(unit: Unit, c: Node): void {
  const attributes = cudaAttributes(c);
  const typeNode = c.childForFieldName('type');
  if (typeNode === null) return;
  if ((typeNode.type === 'struct_specifier' || typeNode.type === 'class_specifier') && typeNode.childForFieldName('body') !== null) structDefinition(unit, typeNode);
  if (typeNode.type === 'enum_specifier') enumDefinition(unit, typeNode);
  const base = baseType({ unit, scope: null }, typeNode);
  const storage = c.children.filter((x): x is Node => x?.type === 'storage_class_specifier').map((x) => x.text);
  const qualifiers = c.children.filter((x): x is Node => x?.type === 'type_qualifier').map((x) => x.text);
  for (const d of c.childrenForFieldName('declarator')) {
    if (d === null || d.type === 'function_declarator') continue;
    const decl = declared(base, d);
    if (decl.name === null) continue;
    const name = decl.name.text;
    const span = spanOf(decl.name);
    const space = attributes.has('shared') ? 'shared' : attributes.has('constant') ? 'constant' : attributes.has('device') || attributes.has('managed') ? 'global' : null;
    const isConst = qualifiers.includes('const') || qualifiers.includes('constexpr') || storage.includes('constexpr') || constPointer(d);
    if (space !== null) {
      unit.globals.push({ name, space, ctype: decl.ctype, dims: decl.dims, external: storage.includes('extern'), span, init: decl.init, constant: isConst });
      continue;
    }
    if (decl.ctype.kind === 'opaque') {
      // a texture reference, a host object: a name whose value the analysis does not follow
      unit.constants.set(name, { kind: 'unknown', ctype: decl.ctype, what: `the value of ${name}`, span });
      continue;
    }
    if (isConst && decl.init !== null && decl.dims.length === 0 && isInteger(decl.ctype)) {
      const value = constantValue(unit, decl.init, decl.ctype, null, (why) => unit.uncomputed.set(name, why));
      if (value !== null) unit.constants.set(name, value);
    }
  }
}

/**
 * The functions an initialiser names (`f`, `&f`, `{f, &g}`), or null when it
 * is not made of the file's functions alone (read once all are collected).
 */
function functionNames(unit: Unit, init: Node): string[] | null {
  const entries = init.type === 'initializer_list' ? named(init) : [init];
  const names = entries.map((e) => {
    const target = e.type === 'pointer_expression' && e.child(0)?.type === '&' ? e.childForFieldName('argument') : e;
    return target !== null && target.type === 'identifier' && unit.functions.has(target.text) ? target.text : null;
  });
  return names.length > 0 && names.every((x) => x !== null) ? (names as string[]) : null;
}

/** Whether a declarator declares a const pointer (`void (*const f)(int) = g;`). */
function constPointer(d: Node): boolean {
  for (let n: Node | null = d; n !== null; n = n.type === 'parenthesized_declarator' ? (named(n)[0] ?? null) : n.childForFieldName('declarator')) {
    if (n.type === 'pointer_declarator' && n.children.some((c) => c?.type === 'type_qualifier' && c.text === 'const')) return true;
  }
  return false;
}

// ---------------------------------------------------------------- kernels

function lowerKernel(unit: Unit, def: FunctionDef, notices: Diagnostic[]): { readonly kernel: Kernel; readonly args: readonly (Param | null)[] } {
  const root = new Scope(null);
  const k: KernelState = { arrays: [], arrayRefs: new Map(), params: [], requires: [], stated: [], used: new Set(), builtins: new Set(), defs: new Map(), notices, calls: [def.name], root, ...(unit.observer === undefined ? {} : { observer: unit.observer }) };
  const span = spanOf(def.node);
  const returned: Slot = { name: 'return', ctype: { kind: 'bool' }, span };
  const ctx: Ctx = { file: unit.file, unit, k, b: new Builder(), scope: root, values: new Map(), fn: { name: def.name, returned, result: null }, loop: null };
  checkSyntax(ctx, def);
  let file: Node = def.node;
  while (file.parent !== null) file = file.parent;
  for (const g of unit.globals) declareGlobal(ctx, g, file);
  const scope = new Scope(root);
  ctx.scope = scope;
  templateParameters(ctx, def, scope);
  const args = parametersOf(def).map((p) => kernelParameter(ctx, p, scope));
  setFlag(ctx, returned, FALSE);
  withScope(ctx, () => lowerStatements(ctx, named(def.node.childForFieldName('body')!)));
  const nameNode = nameSpan(def);
  const body = ctx.b.stmts();
  const requires = [...launchLimits(body, k.requires, k.builtins, nameNode), ...k.requires];
  const kernel: Kernel = { name: { text: def.qualified, span: nameNode }, params: k.params, launch: null, requires, arrays: k.arrays, body, span, ...(k.stated.length > 0 ? { stated: k.stated } : {}), hostLaunched: true };
  return { kernel, args };
}

/** A file-scope variable in the kernel's names; `file` is the translation unit's tree, which holds every use of it. */
function declareGlobal(ctx: Ctx, g: GlobalVar, file: Node): void {
  if (g.space === 'shared' && g.external) {
    ctx.k.root.define(g.name, { kind: 'array', array: lazyDynamic(ctx, g, dynamicSharedView(ctx, file, g.name, g.span.start, g.ctype)), scalar: false });
    return;
  }
  const name = fresh(ctx, g.name);
  const scope = g.space === 'shared' ? 'shared' : 'global';
  const leaves = g.ctype.kind === 'struct' ? leavesOf(g.ctype).length : 0;
  const sizes = g.dims.length === 0 ? [constant(1n, 'i64', g.span)] : [];
  ctx.k.arrays.push({ name: { text: name, span: g.span }, scope, sizes: leaves > 0 && sizes.length > 0 ? [...sizes, constant(BigInt(leaves), 'i64', g.span)] : sizes, ...leafNames(g.ctype), span: g.span });
  const names = g.init === null ? null : functionNames(ctx.unit, g.init);
  // a table of functions is read-only to the device: a write to it would change the calls through it
  const functions = names === null ? {} : { functions: { names, constant: g.constant } };
  const array: ArrayRef = { name, space: scope, elem: g.ctype, dims: Math.max(1, g.dims.length), readOnly: g.space === 'constant' || names !== null, span: g.span, ...functions };
  ctx.k.arrayRefs.set(`global ${name}`, array);
  ctx.k.root.define(g.name, { kind: 'array', array, scalar: g.dims.length === 0 });
}

function lazyDynamic(ctx: Ctx, g: GlobalVar, elem: CType): ArrayRef {
  const name = fresh(ctx, g.name);
  ctx.k.arrays.push({ name: { text: name, span: g.span }, scope: 'shared', sizes: [], ...leafNames(elem), span: g.span });
  const array: ArrayRef = { name, space: 'shared', elem, dims: 1, readOnly: false, span: g.span };
  ctx.k.arrayRefs.set('extern shared', array);
  return array;
}

/**
 * A kernel template's parameters: a type parameter is opaque; a number is a
 * symbolic parameter (verified for all values), fixed when every
 * instantiation in the file gives it the same value.
 */
function templateParameters(ctx: Ctx, def: FunctionDef, scope: Scope): void {
  if (def.template === null) return;
  const instantiations = ctx.unit.instantiations.get(def.name) ?? [];
  named(def.template).forEach((p, i) => {
    if (p.type === 'type_parameter_declaration' || p.type === 'optional_type_parameter_declaration') {
      const id = named(p).find((c) => c.type === 'type_identifier');
      if (id === undefined) return;
      // an instantiation with a reference would make its variables aliases
      const given: CType[] = [];
      for (const args of instantiations) {
        const arg = named(args)[i];
        const t = arg === undefined ? null : typeOfDescriptor(ctx, arg);
        if (arg !== undefined && t?.kind === 'reference') return unsupported(ctx, arg, `a kernel instantiated with a reference type (${id.text} = ${arg.text})`);
        if (t !== null) given.push(t);
      }
      // the one type every instantiation of the file gives (as an integer parameter is fixed), else verified for every type, as opaque
      const one = given.length === instantiations.length && given.length > 0 && given.every((t) => typeName(t) === typeName(given[0]!)) ? given[0]! : null;
      scope.define(id.text, { kind: 'type', ctype: one ?? { kind: 'opaque', name: id.text } });
      return;
    }
    const d = declared(baseType(ctx, p.childForFieldName('type') ?? p), p.childForFieldName('declarator'));
    if (d.name === null || !isInteger(d.ctype)) return unsupported(ctx, p, 'a template parameter that is neither a type nor an integer');
    const type = d.ctype.kind === 'int' ? machineOf(d.ctype) : 'i32';
    const param: Param = { text: fresh(ctx, d.name.text), span: spanOf(d.name), type };
    ctx.k.params.push(param);
    const v: Value = { kind: 'int', expr: { kind: 'var', name: param.text, type, span: param.span }, type };
    scope.define(d.name.text, { kind: 'value', value: v });
    const values = new Set<bigint>();
    let unknown = false;
    for (const args of instantiations) {
      const arg = named(args)[i];
      const given = arg === undefined ? null : constantValue(ctx.unit, arg, d.ctype);
      if (given?.kind === 'int' && given.expr.kind === 'int') values.add(given.expr.value);
      else unknown = true;
    }
    if (!unknown && values.size > 0) {
      // the values the file instantiates the kernel with, each of them (a kernel is verified at each instantiation)
      const fixed = [...values].map((value): BExpr => compare('==', v.expr, constant(value, type, param.span), param.span)).reduce((a, b) => or(a, b));
      ctx.k.requires.push(fixed);
      if (values.size > 1) notice(ctx, 'symbolicTemplate', param.span, `the template parameter ${d.name.text} is verified for each value the file instantiates the kernel with (${[...values].join(', ')}); fix one with -p ${param.text}=VALUE`);
    } else {
      notice(ctx, 'symbolicTemplate', param.span, `the template parameter ${d.name.text} is verified for all values${instantiations.length > 0 ? ' (an instantiation of the file gives it a value faial-ts cannot compute)' : ''}; fix it with -p ${param.text}=VALUE`);
    }
  });
}

/** A kernel parameter in scope; the core parameter it is, for an integer parameter (else null). */
function kernelParameter(ctx: Ctx, p: Node, scope: Scope): Param | null {
  const typeNode = p.childForFieldName('type');
  if (typeNode === null) return null;
  const d = declared(baseType(ctx, typeNode), p.childForFieldName('declarator'));
  if (d.name === null) return null;
  if (isUnresolved(d.ctype)) return unresolvedType(ctx, p, d.ctype);
  if (d.reference) return unsupported(ctx, p, 'reference parameters');
  const cls = classOf(d.ctype);
  if (cls !== null) usable(ctx, cls, p);
  const name = d.name.text;
  const span = spanOf(d.name);
  const ctype: CType = d.dims.length > 0 ? { kind: 'pointer', to: d.ctype } : d.ctype;
  const slot: Slot = { name, ctype, span };
  const before = ctx.k.params.length;
  const value = parameterValue(ctx, name, ctype, span);
  ctx.values.set(slot, value);
  scope.define(name, { kind: 'local', slot });
  return ctype.kind === 'int' && ctx.k.params.length === before + 1 ? ctx.k.params[before]! : null;
}

/**
 * A kernel parameter's value, one for every thread: a pointer is a global
 * array of its own (pointer parameters do not alias each other), an integer
 * a parameter of the core, a float or double its bit pattern; a struct
 * passed by value (`ParticleArrays p`) is each of its members so, named
 * `p.x`, so that the arrays its pointer members point to are distinct
 * arrays too, as separate pointer parameters would be.
 */
function parameterValue(ctx: Ctx, name: string, ctype: CType, span: Span): Value {
  if (ctype.kind === 'pointer') {
    const core = fresh(ctx, name);
    ctx.k.arrays.push({ name: { text: core, span }, scope: 'global', sizes: [], ...leafNames(ctype.to), span });
    const array: ArrayRef = { name: core, space: 'global', elem: ctype.to, dims: 1, readOnly: false, span, mayBeNull: 'launch' };
    ctx.k.arrayRefs.set(`parameter ${core}`, array);
    return { kind: 'pointer', target: array, prefix: [], offset: null, elem: ctype.to, leaf: null };
  }
  if (isInteger(ctype)) {
    const type = ctype.kind === 'int' ? machineOf(ctype) : 'i32';
    const param: Param = { text: fresh(ctx, name), span, type };
    ctx.k.params.push(param);
    return convert(ctx, { kind: 'int', expr: { kind: 'var', name: param.text, type, span }, type }, ctype, span);
  }
  if (ctype.kind === 'float' && ieeeTypeOf(ctype.name) !== null) {
    // a float or double parameter is one value for every thread: its bit pattern, a parameter of the core
    const ieee = ieeeTypeOf(ctype.name)!;
    const param: Param = { text: fresh(ctx, name), span, type: patternType(ieee), ieee };
    ctx.k.params.push(param);
    return { kind: 'unknown', ctype, what: `the parameter ${name}`, span, pattern: { type: ieee, bits: { kind: 'var', name: param.text, type: param.type!, span } } };
  }
  if (ctype.kind === 'struct') return { kind: 'struct', ctype, fields: leavesOf(ctype).map((l) => parameterValue(ctx, `${name}.${l.path}`, l.type, span)) };
  return { kind: 'unknown', ctype, what: `the parameter ${name}`, span };
}
