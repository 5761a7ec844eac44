/**
 * Launch and number options as a user types them (`faial-ts -p N=4
 * --block-dim 32,8`, the playground's option fields). A bad value is a
 * UsageError: the CLI prints it with exit code 2, the playground beside its
 * field; neither shows a stack trace.
 */
import { typeMax } from '../core/arith.js';
import { INPUT_BOUND, type Launch } from '../core/launch.js';
import type { Param } from '../core/ast.js';
import { bitPattern, floatLiteral, negated as negatedFloat, type FloatConstant } from '../frontend/cuda/floats.js';
import type { KernelMap } from '../map/map.js';

export class UsageError extends Error {
  constructor(
    message: string,
    readonly hints: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** `N`, `X,Y`, `X,Y,Z`, `[X,Y,Z]` or `(X,Y,Z)`; missing components are 1, as in CUDA's dim3. */
export function dimOf(text: string, option: string): [bigint, bigint, bigint] {
  const inner = text.trim().replace(/^\[(.*)\]$/s, '$1').replace(/^\((.*)\)$/s, '$1');
  const parts = inner.split(',').map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) {
    throw new UsageError(`${option} ${text}: expected N, X,Y,Z or [X,Y,Z] with natural numbers`);
  }
  const values = parts.map((p) => BigInt(p));
  if (values.some((v) => v < 1n)) throw new UsageError(`${option} ${text}: every dimension must be at least 1`);
  return [values[0] ?? 1n, values[1] ?? 1n, values[2] ?? 1n];
}

/** `-p NAME=VALUE`, repeatable; the same name twice is a mistake, not an override. */
export function paramsOf(specs: readonly string[]): Map<string, bigint> {
  const params = new Map<string, bigint>();
  for (const spec of specs) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\d+)\s*$/.exec(spec);
    if (m === null) throw new UsageError(`-p ${spec}: expected NAME=VALUE with a natural number VALUE`);
    const name = m[1]!;
    if (params.has(name)) throw new UsageError(`-p ${spec}: parameter '${name}' is given twice`);
    params.set(name, BigInt(m[2]!));
  }
  return params;
}

/** `run`'s `-p NAME=VALUE`, repeatable: each value's text, read per kernel by {@link runParamValue} (a float parameter takes a float). */
export function paramTextsOf(specs: readonly string[]): Map<string, string> {
  const params = new Map<string, string>();
  for (const spec of specs) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\S+)\s*$/.exec(spec);
    if (m === null) throw new UsageError(`-p ${spec}: expected NAME=VALUE`);
    const name = m[1]!;
    if (params.has(name)) throw new UsageError(`-p ${spec}: parameter '${name}' is given twice`);
    params.set(name, m[2]!);
  }
  return params;
}

/**
 * The value `run` gives a parameter from its text: a natural number, or for
 * a CUDA `float` or `double` parameter (held as its bit pattern) a decimal
 * floating value (`1.5`, `-2e-3`, `0.1f`, `inf`) rounded once to the type, or
 * the pattern itself in hexadecimal (`0x3fc00000`).
 */
export function runParamValue(name: string, text: string, param: Param | undefined): bigint {
  if (param?.ieee === undefined) {
    if (!/^\d+$/.test(text)) throw new UsageError(`-p ${name}=${text}: expected a natural number`);
    return BigInt(text);
  }
  const ieee = param.ieee;
  const width = ieee === 'float' ? 32 : 64;
  const hints = [`a ${ieee} parameter takes a decimal value (1.5, -2e-3, inf) or its ${width}-bit pattern in hexadecimal (${ieee === 'float' ? '0x3fc00000' : '0x3ff8000000000000'} is 1.5)`];
  if (/^0[xX][0-9a-fA-F]+$/.test(text)) {
    const bits = BigInt(text);
    if (bits >= 1n << BigInt(width)) throw new UsageError(`-p ${name}=${text}: a ${ieee}'s bit pattern has ${width} bits`, hints);
    return bits;
  }
  const m = /^([-+]?)(.*?)([fF]?)$/.exec(text)!;
  const negative = m[1] === '-';
  const body = m[2]!;
  let value: FloatConstant | null;
  if (/^inf(inity)?$/i.test(body)) value = { type: ieee, value: Infinity };
  else {
    value = floatLiteral(ieee === 'float' ? `${body}f` : body);
    if (value === null && /^(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(body)) {
      // a decimal halfway between two floats once read as a double: rounding twice could differ from once
      throw new UsageError(`-p ${name}=${text}: cannot be rounded to a ${ieee} exactly once here`, [`give its bit pattern in hexadecimal (-p ${name}=0x…)`]);
    }
  }
  if (value === null) throw new UsageError(`-p ${name}=${text}: expected a ${ieee} value for the ${ieee} parameter '${name}'`, hints);
  if (!Number.isFinite(value.value) && !/^inf/i.test(body)) throw new UsageError(`-p ${name}=${text}: beyond the range of ${ieee}`, hints);
  return bitPattern(negative ? negatedFloat(value) : value);
}

export function naturalOf(text: string, option: string, least = 0): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new UsageError(`${option} ${text}: expected a natural number`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < least) throw new UsageError(`${option} ${text}: expected a number of at least ${least}`);
  return n;
}

function signature(map: KernelMap): string {
  return `${map.name}(${map.params.join(', ')})`;
}

/** The launch the options fix; a `-p` that no selected kernel has is a usage error. */
export function launchOfOptions(params: readonly string[], blockDim: string | undefined, gridDim: string | undefined, kernels: readonly KernelMap[], warpSize?: number): Launch {
  const values = paramsOf(params);
  for (const name of values.keys()) {
    if (kernels.length > 0 && !kernels.some((k) => k.params.includes(name))) {
      const which = kernels.length === 1 ? `kernel ${kernels[0]!.name} has` : 'no kernel has';
      throw new UsageError(`-p ${name}: ${which} no parameter '${name}'`, [
        `parameters: ${kernels.map((k) => (k.params.length === 0 ? `${k.name} has none` : signature(k))).join('; ')}`,
      ]);
    }
  }
  for (const [name, value] of values) {
    for (const k of kernels) {
      if (!k.params.includes(name)) continue;
      const info = k.vars.get(name);
      const type = info?.kind === 'param' ? info.type : undefined;
      // a larger value could never be the parameter's: every query would hold vacuously
      if (type === undefined ? value >= INPUT_BOUND : value > typeMax(type)) {
        const bound = type === undefined ? VERIFIER_BOUND : `${typeMax(type) + 1n}, the bound of its type ${type} in kernel ${k.name}`;
        throw new UsageError(`-p ${name}=${value}: the value must be below ${bound}`);
      }
    }
  }
  return {
    params: values,
    blockDim: blockDim === undefined ? null : boundedDim(dimOf(blockDim, '--block-dim'), '--block-dim', blockDim),
    gridDim: gridDim === undefined ? null : boundedDim(dimOf(gridDim, '--grid-dim'), '--grid-dim', gridDim),
    ...(warpSize === undefined ? {} : { warpSize }),
  };
}

/** `--warp-size N` or GPUVerify's `--warp-sync=N` (lockstep warps of N threads); both given must agree. */
export function warpSizeOf(warpSize: string | undefined, warpSync: string | undefined): number | undefined {
  const size = warpSize === undefined ? undefined : naturalOf(warpSize, '--warp-size', 1);
  const sync = warpSync === undefined ? undefined : naturalOf(warpSync, '--warp-sync', 1);
  if (size !== undefined && sync !== undefined && size !== sync) throw new UsageError(`--warp-size ${size} and --warp-sync ${sync} disagree: give one`);
  const n = size ?? sync;
  if (n !== undefined && n > 1024) throw new UsageError(`--warp-size ${n}: a warp has at most 1024 threads (a block's limit)`);
  return n;
}

/** The architecture verdicts are for when none is named: a current GPU (Hopper). */
export const DEFAULT_ARCH = 90;

/** `--arch`: `sm_XX`, `compute_XX` or `XX` (nvcc's spellings), as the number XX. */
export function archOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_ARCH;
  const m = /^(?:sm_|compute_)?(\d{2,3})[a-z]?$/i.exec(text.trim());
  if (m === null) throw new UsageError(`--arch ${text}: expected sm_XX (sm_60, sm_70, sm_90…)`);
  return Number(m[1]);
}

/**
 * The lockstep warps the command line asks for, on the architecture named:
 * before sm_70 the threads of a warp run together, as `--warp-size N` models;
 * from Volta (sm_70) on they are scheduled independently, so there a warp
 * size means warps of 32 for `__syncwarp()`, the default, and never lockstep.
 */
export function lockstepOf(warpSize: number | undefined, arch: number): { readonly warpSize: number | undefined; readonly note: string | null } {
  if (warpSize === undefined || arch < 70) return { warpSize, note: null };
  if (warpSize !== 32) throw new UsageError(`--warp-size ${warpSize} on sm_${arch}: a warp has 32 threads there, scheduled independently`, ['lockstep warps are a model of GPUs before sm_70: add --arch sm_60']);
  return { warpSize: undefined, note: `--warp-size 32 on sm_${arch}: warps do not run in lockstep since sm_70, so threads are verified as independent (__syncwarp() orders warps of 32); for pre-Volta lockstep warps add --arch sm_60` };
}

/** What the verifier's sizes and untyped parameters stay below: a larger value would make every query vacuously unsat. */
const VERIFIER_BOUND = `2^32 (${INPUT_BOUND}), the bound of the verifier's inputs`;

function boundedDim(dim: [bigint, bigint, bigint], option: string, text: string): [bigint, bigint, bigint] {
  if (dim.some((v) => v >= INPUT_BOUND)) throw new UsageError(`${option} ${text}: every dimension must be below ${VERIFIER_BOUND}`);
  return dim;
}
