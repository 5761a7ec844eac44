/**
 * Command-line values: dimensions, `-p NAME=VALUE`, numbers, and the input
 * files (directories stand for every `.bcu` below them). A bad value is a
 * UsageError, reported without a stack trace and with exit code 2.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

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

export function naturalOf(text: string, option: string, least = 0): number {
  if (!/^\s*\d+\s*$/.test(text)) throw new UsageError(`${option} ${text}: expected a natural number`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < least) throw new UsageError(`${option} ${text}: expected a number of at least ${least}`);
  return n;
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Every input file, in a stable order: directories give their `.bcu` and `.cu` files, sorted (headers, `.cuh`, are read through includes). */
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
    const found = await kernelFilesBelow(arg);
    if (found.length === 0) throw new UsageError(`no .bcu or .cu file in directory '${arg}'`);
    out.push(...found);
  }
  return out;
}

async function kernelFilesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const out: string[] = [];
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, e.name);
    if (e.isDirectory()) out.push(...(await kernelFilesBelow(path)));
    else if (e.isFile() && (e.name.endsWith('.bcu') || e.name.endsWith('.cu'))) out.push(path);
  }
  return out;
}
