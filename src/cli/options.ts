/**
 * Command-line values (dimensions, `-p NAME=VALUE` and numbers are read by
 * src/api/options.ts, which the playground shares) and the input files
 * (directories stand for every `.bcu` below them). A bad value is a
 * UsageError, reported without a stack trace and with exit code 2.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../api/options.js';

export { UsageError, dimOf, naturalOf, paramsOf } from '../api/options.js';

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
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
