/**
 * Command-line values: dimensions, `-p NAME=VALUE`, numbers, and the input
 * files (directories stand for every `.bcu` below them). A bad value is a
 * UsageError, reported without a stack trace and with exit code 2.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { INPUT_BOUND, type Launch } from '../encode/query.js';

export class UsageError extends Error {
  constructor(
    message: string,
    readonly hints: readonly string[] = [],
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * What the verifier's launch options must stay below: its inputs are below
 * 2^32, so a larger value would make every query vacuously unsat.
 */
const VERIFIER_BOUND = `2^32 (${INPUT_BOUND}), the bound of the verifier's inputs`;

/**
 * `N`, `X,Y`, `X,Y,Z`, `[X,Y,Z]` or `(X,Y,Z)`; missing components are 1, as in
 * CUDA's dim3. With `bounded`, each component must be below 2^32.
 */
export function dimOf(text: string, option: string, bounded: 'bounded' | 'unbounded' = 'unbounded'): [bigint, bigint, bigint] {
  const inner = text.trim().replace(/^\[(.*)\]$/s, '$1').replace(/^\((.*)\)$/s, '$1');
  const parts = inner.split(',').map((p) => p.trim());
  if (parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) {
    throw new UsageError(`${option} ${text}: expected N, X,Y,Z or [X,Y,Z] with natural numbers`);
  }
  const values = parts.map((p) => BigInt(p));
  if (values.some((v) => v < 1n)) throw new UsageError(`${option} ${text}: every dimension must be at least 1`);
  if (bounded === 'bounded' && values.some((v) => v >= INPUT_BOUND)) throw new UsageError(`${option} ${text}: every dimension must be below ${VERIFIER_BOUND}`);
  return [values[0] ?? 1n, values[1] ?? 1n, values[2] ?? 1n];
}

/** `-p NAME=VALUE`, repeatable; the same name twice is a mistake, not an override. With `bounded`, VALUE is below 2^32. */
export function paramsOf(specs: readonly string[], bounded: 'bounded' | 'unbounded' = 'unbounded'): Map<string, bigint> {
  const params = new Map<string, bigint>();
  for (const spec of specs) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(\d+)\s*$/.exec(spec);
    if (m === null) throw new UsageError(`-p ${spec}: expected NAME=VALUE with a natural number VALUE`);
    const name = m[1]!;
    if (params.has(name)) throw new UsageError(`-p ${spec}: parameter '${name}' is given twice`);
    const value = BigInt(m[2]!);
    if (bounded === 'bounded' && value >= INPUT_BOUND) throw new UsageError(`-p ${spec}: the value must be below ${VERIFIER_BOUND}`);
    params.set(name, value);
  }
  return params;
}

export function naturalOf(text: string, option: string, least = 0): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new UsageError(`${option} ${text}: expected a natural number`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < least) throw new UsageError(`${option} ${text}: expected a number of at least ${least}`);
  return n;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The launch facts that concern one kernel: parameters it does not have are left out. */
export function launchFor(params: readonly string[], given: Launch): Launch {
  const own = new Map([...given.params].filter(([name]) => params.includes(name)));
  return { params: own, blockDim: given.blockDim, gridDim: given.gridDim };
}

/** Every input file, in a stable order: directories give their `.bcu` files, sorted. */
export async function inputFiles(args: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const arg of args) {
    let info;
    try {
      info = await stat(arg);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(`cannot read '${arg}': ${code === 'ENOENT' ? 'no such file or directory' : e instanceof Error ? e.message : String(e)}`);
    }
    if (!info.isDirectory()) {
      out.push(arg);
      continue;
    }
    const found = await bcuFilesBelow(arg);
    if (found.length === 0) throw new UsageError(`no .bcu file in directory '${arg}'`);
    out.push(...found);
  }
  return out;
}

async function bcuFilesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await bcuFilesBelow(path)));
    else if (e.isFile() && e.name.endsWith('.bcu')) out.push(path);
  }
  return out;
}
