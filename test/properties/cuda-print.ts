/**
 * A core kernel printed as CUDA C, for the round trip through the CUDA front
 * end (roundtrip.test.ts): core → CUDA C → lowered core.
 *
 * Machine-typed expressions print as the C they mean: each typed operator
 * with its operands cast to its type (so C's conversions change nothing),
 * typed constants with their suffix, `cast` as a C cast, `ite` as `?:`.
 * BabyCUDA's naturals have no C type; they print as `unsigned long long`
 * values, with truncated subtraction, `x / 0 = 0` and `x % 0 = x` as small
 * device functions (which the front end inlines), so the text means what the
 * kernel means wherever no value reaches 2^63. A natural loop down by `- k`
 * counts in a `long long` (and binds the natural inside the body): in
 * `unsigned long long` the variable would wrap around below k where the
 * naturals' truncated subtraction stops at 0 (exact where the bound is at
 * least 1; a natural loop down to 0 never ends either way). Each array's
 * elements take the type of the values written to it (else of its reads'
 * locals), each read's local the type it is used with, so what a thread
 * writes and reads back is the kernel's value. A `havoc` is a call of a
 * device function without a body, which the front end reads as an unknown
 * value. Global arrays of one dimension are pointer parameters, others are
 * `__device__` arrays at file scope; shared arrays are `__shared__` arrays.
 *
 * With `opaqueConstants`, every constant is written `(zero + c)` for a
 * parameter `zero` the kernel requires to be 0: the same kernel, whose
 * constants the front end cannot fold, so that no code it proves dead (and
 * rightly leaves out) hides the accesses a test looks for.
 */
import type { AtomicOp, BExpr, Expr, IntType, Kernel, MachineType, Stmt } from '../../src/core/ast.js';
import { bexprOperands, exprLeaves } from '../../src/core/exprs.js';
import type { Span } from '../../src/core/source.js';
import { typeOf } from '../../src/core/types.js';
import { assertNever } from '../../src/util/assert.js';

const C_TYPE: Record<IntType, string> = { nat: 'unsigned long long', i32: 'int', u32: 'unsigned', i64: 'long long', u64: 'unsigned long long' };
const SUFFIX: Record<MachineType, string> = { i32: '', u32: 'u', i64: 'll', u64: 'ull' };
const MIN: Partial<Record<MachineType, string>> = { i32: '(-2147483647 - 1)', i64: '(-9223372036854775807ll - 1)' };

/** Natural-number operators C does not have. */
const NAT_HELPERS: Record<string, string> = {
  nat_sub: 'return a >= b ? a - b : 0;',
  nat_div: 'return b == 0 ? 0 : a / b;',
  nat_mod: 'return b == 0 ? a : a % b;',
};

/** The element size of every array the printer declares: only the interpreter's initial contents read it. */
const SIZE = 16;

const exprType = typeOf;

/** An access or a barrier as printed: its line in the C text, and what it is (`S0 write, 1 loop deep`, `barrier`). */
export interface PrintedEvent {
  readonly line: number;
  readonly what: string;
}

/** Where each statement of the kernel was printed: its span and 1-based line. */
interface PrintedSite {
  readonly start: number;
  readonly end: number;
  readonly line: number;
}

export const accessText = (array: string, mode: 'read' | 'write' | 'atomic', loops: number): string => `${array} ${mode}, ${loops} loops deep`;

/** CUDA's function for each atomic operation. */
const ATOMIC_FUNCTION: Record<AtomicOp, string> = {
  add: 'atomicAdd', sub: 'atomicSub', max: 'atomicMax', min: 'atomicMin', and: 'atomicAnd', or: 'atomicOr', xor: 'atomicXor',
  exch: 'atomicExch', cas: 'atomicCAS', inc: 'atomicInc', dec: 'atomicDec',
};

class Printer {
  readonly helpers = new Set<string>();
  readonly unknowns = new Set<IntType>();
  private readonly lines: string[] = [];
  /** by index into `lines` */
  readonly events: { readonly index: number; readonly what: string }[] = [];
  /** each statement's span, by index into `lines` */
  readonly sites: { readonly span: Span; readonly index: number }[] = [];
  private loops = 0;

  constructor(
    private readonly dims: ReadonlyMap<string, number>,
    private readonly zero: string | null,
    private readonly types: ValueTypes,
  ) {}

  private constant(text: string, type: IntType): string {
    return this.zero === null ? text : `((${C_TYPE[type]}) ${this.zero} + ${text})`;
  }

  expr(e: Expr): string {
    switch (e.kind) {
      case 'nat':
        return this.constant(`${e.value}ull`, 'nat');
      case 'int': {
        const min = e.value === (e.type === 'i32' ? -(2n ** 31n) : -(2n ** 63n)) ? MIN[e.type] : undefined;
        return this.constant(min ?? (e.value < 0n ? `(${e.value}${SUFFIX[e.type]})` : `${e.value}${SUFFIX[e.type]}`), e.type);
      }
      case 'var':
        return e.name;
      case 'builtin':
        return `${e.name}.${e.axis}`;
      case 'cast':
        return `((${C_TYPE[e.type]}) ${this.expr(e.operand)})`;
      case 'ite':
        return `(${this.cond(e.cond)} ? ${this.expr(e.then)} : ${this.expr(e.else)})`;
      case 'binary': {
        const t = C_TYPE[e.type ?? 'nat'];
        const a = `((${t}) ${this.expr(e.left)})`;
        const b = e.op === '<<' || e.op === '>>' ? this.expr(e.right) : `((${t}) ${this.expr(e.right)})`;
        if (e.type === undefined) {
          const helper = e.op === '-' ? 'nat_sub' : e.op === '/' ? 'nat_div' : e.op === '%' ? 'nat_mod' : null;
          if (helper !== null) {
            this.helpers.add(helper);
            return `${helper}(${a}, ${b})`;
          }
        }
        return `(${a} ${e.op} ${b})`;
      }
      default:
        return assertNever(e);
    }
  }

  /** Both sides of a comparison in one C type: the typed side's, or the naturals'. */
  cond(c: BExpr): string {
    switch (c.kind) {
      case 'bool':
        return c.value ? 'true' : 'false';
      case 'cmp': {
        const types = [exprType(c.left), exprType(c.right)].filter((t) => t !== 'nat');
        const t = C_TYPE[types[0] ?? 'nat'];
        return `(((${t}) ${this.expr(c.left)}) ${c.op} ((${t}) ${this.expr(c.right)}))`;
      }
      case 'and':
        return `(${this.cond(c.left)} && ${this.cond(c.right)})`;
      case 'or':
        return `(${this.cond(c.left)} || ${this.cond(c.right)})`;
      case 'not':
        return `(!${this.cond(c.operand)})`;
      default:
        return assertNever(c);
    }
  }

  private line(depth: number, text: string, event: string | null = null): void {
    if (event !== null) this.events.push({ index: this.lines.length, what: event });
    this.lines.push(`${'  '.repeat(depth)}${text}`);
  }

  private access(array: string, index: readonly Expr[]): string {
    // a pointer parameter takes one index; the others are declared with as many dimensions as used
    return `${array}${index.map((i) => `[${this.expr(i)}]`).join('')}`;
  }

  stmts(body: readonly Stmt[], depth: number): void {
    for (const s of body) this.stmt(s, depth);
  }

  stmt(s: Stmt, depth: number): void {
    if (s.kind !== 'skip') this.sites.push({ span: s.span, index: this.lines.length });
    switch (s.kind) {
      case 'skip':
        return;
      case 'write': {
        const element = C_TYPE[this.types.elementOf(s.array.text)];
        return this.line(depth, `${this.access(s.array.text, s.index)} = (${element}) ${this.expr(s.value)};`, accessText(s.array.text, 'write', this.loops));
      }
      case 'read': {
        const local = this.types.localOf(s.local.text);
        const element = this.types.elementOf(s.array.text);
        const value = this.access(s.array.text, s.index);
        this.line(depth, `${C_TYPE[local]} ${s.local.text} = ${local === element ? value : `(${C_TYPE[local]}) ${value}`};`, accessText(s.array.text, 'read', this.loops));
        return this.stmt(s.body, depth);
      }
      case 'let':
        this.line(depth, `${C_TYPE[exprType(s.value)]} ${s.local.text} = ${this.expr(s.value)};`);
        return this.stmt(s.body, depth);
      case 'atomic': {
        // on the array's own element type, as the front end lowers a call by its pointer's element
        const element = C_TYPE[this.types.elementOf(s.array.text)];
        const call = `${ATOMIC_FUNCTION[s.op]}(&${this.access(s.array.text, s.index)}, ${s.operands.map((e) => `(${element}) ${this.expr(e)}`).join(', ')})`;
        this.line(depth, s.local === null ? `${call};` : `${element} ${s.local.text} = ${call};`, accessText(s.array.text, 'atomic', this.loops));
        return this.stmt(s.body, depth);
      }
      case 'havoc':
        this.unknowns.add(s.type);
        this.line(depth, `${C_TYPE[s.type]} ${s.local.text} = unknown_${s.type}();`);
        return this.stmt(s.body, depth);
      case 'if':
        this.line(depth, `if (${this.cond(s.cond)}) {`);
        this.stmts(s.then, depth + 1);
        if (s.else !== null) {
          this.line(depth, '} else {');
          this.stmts(s.else, depth + 1);
        }
        return this.line(depth, '}');
      case 'for': {
        const op = s.step?.op ?? (s.direction === 'up' ? '+' : '-');
        // a natural counted down by subtraction stops at 0, where unsigned long long would wrap around
        const signed = s.type === undefined && op === '-';
        const t = signed ? 'long long' : C_TYPE[s.type ?? 'nat'];
        const x = signed ? `${s.var.text}_` : s.var.text;
        const amount = s.step === null ? `((${t}) 1)` : `((${t}) ${this.expr(s.step.amount)})`;
        const test = s.direction === 'up' ? `${x} < ((${t}) ${this.expr(s.to)})` : `${x} >= ((${t}) ${this.expr(s.to)})`;
        this.line(depth, `for (${t} ${x} = ((${t}) ${this.expr(s.from)}); ${test}; ${x} ${op}= ${amount}) {`);
        if (signed) this.line(depth + 1, `${C_TYPE.nat} ${s.var.text} = (${C_TYPE.nat}) ${x};`);
        this.loops++;
        this.stmts(s.body, depth + 1);
        this.loops--;
        return this.line(depth, '}');
      }
      case 'sync':
        return this.line(depth, '__syncthreads();', 'barrier');
      case 'syncwarp':
        return this.line(depth, '__syncwarp();', 'barrier');
      case 'assume':
        return this.line(depth, `__assume(${this.cond(s.cond)});`);
      default:
        return assertNever(s);
    }
  }

  text(): string[] {
    return this.lines;
  }

  dimsOf(array: string): number {
    return this.dims.get(array) ?? 1;
  }
}

/** The C types of arrays' elements and of reads' locals: what is written to each array, and what each local is used as. */
interface ValueTypes {
  elementOf(array: string): IntType;
  localOf(local: string): IntType;
}

function valueTypes(k: Kernel): ValueTypes {
  const written = new Map<string, IntType>();
  const used = new Map<string, IntType>();
  const readInto = new Map<string, string[]>();
  for (const s of statements(k.body)) {
    for (const leaf of stmtExprs(s).flatMap(exprLeaves)) {
      if (leaf.kind === 'var' && !used.has(leaf.name)) used.set(leaf.name, leaf.type ?? 'nat');
    }
    if (s.kind === 'write' && !written.has(s.array.text)) written.set(s.array.text, exprType(s.value));
    if (s.kind === 'read') readInto.set(s.array.text, [...(readInto.get(s.array.text) ?? []), s.local.text]);
  }
  // a local nobody uses takes C's int, an array nobody writes its reads' type
  const localOf = (local: string): IntType => used.get(local) ?? 'i32';
  const elementOf = (array: string): IntType => written.get(array) ?? [...(readInto.get(array) ?? [])].map((l) => used.get(l)).find((t) => t !== undefined) ?? 'i32';
  return { elementOf, localOf };
}

/** The expressions a statement evaluates itself (not those of the statements in it). */
function stmtExprs(s: Stmt): Expr[] {
  switch (s.kind) {
    case 'write':
      return [...s.index, s.value];
    case 'read':
      return [...s.index];
    case 'atomic':
      return [...s.index, ...s.operands];
    case 'let':
      return [s.value];
    case 'if':
    case 'assume':
      return bexprOperands(s.cond);
    case 'for':
      return [s.from, s.to, ...(s.step === null ? [] : [s.step.amount])];
    case 'havoc':
    case 'skip':
    case 'sync':
    case 'syncwarp':
      return [];
    default:
      return assertNever(s);
  }
}

/** Every statement of a body and of the statements in it, in program order. */
function statements(body: readonly Stmt[]): Stmt[] {
  return body.flatMap((s): Stmt[] => {
    switch (s.kind) {
      case 'read':
      case 'atomic':
      case 'let':
      case 'havoc':
        return [s, ...statements([s.body])];
      case 'if':
        return [s, ...statements(s.then), ...statements(s.else ?? [])];
      case 'for':
        return [s, ...statements(s.body)];
      case 'write':
      case 'skip':
      case 'sync':
      case 'syncwarp':
      case 'assume':
        return [s];
      default:
        return assertNever(s);
    }
  });
}

/** How many indices each array is used with (the core's arrays need not declare sizes). */
function usedDims(k: Kernel): Map<string, number> {
  const out = new Map<string, number>(k.arrays.filter((a) => a.sizes.length > 0).map((a) => [a.name.text, a.sizes.length]));
  for (const s of statements(k.body)) if (s.kind === 'write' || s.kind === 'read' || s.kind === 'atomic') out.set(s.array.text, s.index.length);
  return out;
}

/** The parameter `opaqueConstants` adds. */
export const ZERO = 'zero_';

/** The kernel as a CUDA C file with one `__global__` function of the kernel's name. */
export function cudaOfKernel(k: Kernel, options: { readonly opaqueConstants?: boolean } = {}): string {
  return printedKernel(k, options).text;
}

/** The CUDA C text, and where each statement of the kernel is in it. */
export function printedKernel(k: Kernel, options: { readonly opaqueConstants?: boolean } = {}): PrintedKernel {
  const dims = usedDims(k);
  const zero = options.opaqueConstants === true ? ZERO : null;
  const types = valueTypes(k);
  const element = (array: string): string => C_TYPE[types.elementOf(array)];
  const p = new Printer(dims, zero, types);
  const pointers = k.arrays.filter((a) => a.scope === 'global' && p.dimsOf(a.name.text) === 1).map((a) => `${element(a.name.text)} *${a.name.text}`);
  const globals = k.arrays
    .filter((a) => a.scope === 'global' && p.dimsOf(a.name.text) > 1)
    .map((a) => `__device__ ${element(a.name.text)} ${a.name.text}${`[${SIZE}]`.repeat(p.dimsOf(a.name.text))};`);
  // BabyCUDA's parameters are naturals below 2^32: C's unsigned
  const params = [...k.params.map((x) => `${C_TYPE[(x as { type?: MachineType }).type ?? 'u32']} ${x.text}`), ...(zero === null ? [] : [`unsigned long long ${zero}`])];
  const shared = k.arrays.filter((a) => a.scope === 'shared').map((a) => `  __shared__ ${element(a.name.text)} ${a.name.text}${`[${SIZE}]`.repeat(p.dimsOf(a.name.text))};`);
  const requires = [...(zero === null ? [] : [`  __requires(${zero} == 0);`]), ...k.requires.map((r) => `  __requires(${p.cond(r)});`)];
  const launch = k.launch === null ? [] : (['grid', 'block'] as const).flatMap((which) => {
    const d = k.launch![which];
    const name = which === 'grid' ? 'gridDim' : 'blockDim';
    return ([['x', d.x], ['y', d.y], ['z', d.z]] as const).flatMap(([axis, e]) => (e === null ? [] : [`  __requires(${name}.${axis} == ${p.expr(e)});`]));
  });
  p.stmts(k.body, 1);
  const helpers = [...p.helpers].sort().map((h) => `__device__ unsigned long long ${h}(unsigned long long a, unsigned long long b) { ${NAT_HELPERS[h]!} }`);
  const unknowns = [...p.unknowns].sort().map((t) => `__device__ ${C_TYPE[t]} unknown_${t}();`);
  const head = [...helpers, ...unknowns, ...globals, `__global__ void ${k.name.text}(${[...pointers, ...params].join(', ')}) {`, ...shared, ...launch, ...requires];
  const sites: PrintedSite[] = p.sites.map((x) => ({ start: x.span.start, end: x.span.end, line: head.length + x.index + 1 }));
  return {
    text: [...head, ...p.text(), '}', ''].join('\n'),
    events: p.events.map((e) => ({ line: head.length + e.index + 1, what: e.what })),
    // the innermost statement around the span: a binder's span holds its body's
    lineOf: (span) => sites.filter((x) => x.start <= span.start && span.end <= x.end).sort((a, b) => a.end - a.start - (b.end - b.start))[0]?.line ?? null,
  };
}

export interface PrintedKernel {
  readonly text: string;
  /** where each access and barrier of the kernel is in the text (1-based lines, in program order) */
  readonly events: readonly PrintedEvent[];
  /** the line of the statement of the kernel's body that a span of the kernel lies in (null: the kernel's header) */
  lineOf(span: Span): number | null;
}
