/**
 * The CLI's side of the CUDA front end: the grammar's WebAssembly read from
 * node_modules (once per process), included files read from disk, -D/-U/-I
 * from the command line, and the GPUVerify test header a kernel file may
 * start with:
 *
 *   //pass                                   (or //xfail:…)
 *   //--blockDim=[16,16] --gridDim=64 -DN=256
 *
 * which supplies the launch and macros when the command line does not.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Launch } from '../core/launch.js';
import { BCU_ONLY, isCudaPath, type FrontEnds } from '../api/check.js';
import { loadCudaGrammar, type CudaGrammar } from '../frontend/cuda/parse.js';
import { lowerCuda } from '../frontend/cuda/lower.js';
import type { SourceFile } from '../core/source.js';
import { UsageError, dimOf } from './options.js';

export interface CudaFlags {
  define?: string[];
  undefine?: string[];
  include?: string[];
}

let grammar: Promise<CudaGrammar> | undefined;

export function cudaGrammar(): Promise<CudaGrammar> {
  const require = createRequire(import.meta.url);
  grammar ??= loadCudaGrammar({
    runtime: readFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm')),
    cpp: readFileSync(require.resolve('tree-sitter-cpp/tree-sitter-cpp.wasm')),
  });
  return grammar;
}

/** `-DNAME`, `-DNAME=VALUE`, `-D'F(x)=…'` as the preprocessor takes them. */
export function definesOf(specs: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const spec of specs) {
    const m = /^([A-Za-z_]\w*(?:\([^)]*\))?)(?:=(.*))?$/s.exec(spec.trim());
    if (m === null) throw new UsageError(`-D${spec}: expected NAME or NAME=VALUE`);
    out.set(m[1]!, m[2] ?? null);
  }
  return out;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/** What the GPUVerify test header of a file says: launch dimensions and macros. */
export interface TestHeader {
  readonly blockDim: readonly bigint[] | null;
  readonly gridDim: readonly bigint[] | null;
  readonly defines: readonly string[];
  /** the header's second line, as written */
  readonly line: string;
}

/**
 * The GPUVerify test header of a kernel file: a comment on line 1 (`//pass`,
 * `//xfail:…`, or this project's `// expect: …`) and the flags on line 2,
 * `//--blockDim=… --gridDim=… -D…`.
 */
export function testHeader(text: string): TestHeader | null {
  const lines = text.split(/\r?\n/, 2);
  if (lines.length < 2 || !lines[0]!.trim().startsWith('//')) return null;
  const second = lines[1]!.trim();
  if (!/^\/\/--(blockDim|gridDim|block-dim|grid-dim)=/.test(second) && !/^\/\/-D/.test(second)) return null;
  const words = second.slice(2).trim().split(/\s+/).filter((w) => w !== '');
  let blockDim: bigint[] | null = null;
  let gridDim: bigint[] | null = null;
  const defines: string[] = [];
  for (const w of words) {
    const m = /^--(blockDim|gridDim|block-dim|grid-dim)=(.*)$/.exec(w);
    if (m !== null) {
      const dims = dimOf(m[2]!, `--${m[1]!}`);
      if (m[1]!.startsWith('block')) blockDim = dims;
      else gridDim = dims;
    } else if (w.startsWith('-D') && w.length > 2) defines.push(w.slice(2));
  }
  return { blockDim, gridDim, defines, line: second };
}

/** The front ends for one file: for a CUDA file, the grammar, its -D (the test header's, then the command line's), -U and -I. */
export async function frontEndsFor(path: string, text: string, flags: CudaFlags): Promise<FrontEnds> {
  if (!isCudaPath(path)) return BCU_ONLY;
  const defines = definesOf([...(testHeader(text)?.defines ?? []), ...(flags.define ?? [])]);
  const includeDirs = (flags.include ?? []).map((d) => resolve(d));
  return { cuda: { grammar: await cudaGrammar(), defines, undefines: flags.undefine ?? [], includeDirs, readFile: readText } };
}

/** A copy of `value` with every source file in it replaced by `f`'s (results carry the files their spans are in). */
export function withFiles(value: unknown, f: (file: SourceFile) => SourceFile, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = seen.get(value);
  if (known !== undefined) return known;
  if ('lineStarts' in value && 'text' in value && 'path' in value) {
    const file = f(value as SourceFile);
    seen.set(value, file);
    return file;
  }
  let out: unknown;
  if (Array.isArray(value)) out = value.map((x) => withFiles(x, f, seen));
  else if (value instanceof Map) out = new Map([...value].map(([k, x]) => [k, withFiles(x, f, seen)]));
  else if (value instanceof Set) out = value;
  else out = Object.fromEntries(Object.entries(value).map(([k, x]) => [k, withFiles(x, f, seen)]));
  seen.set(value, out);
  return out;
}

/** A source file without its origin map: what a worker process can send (a function cannot be copied). */
export const portableFile = (file: SourceFile): SourceFile => ({ path: file.path, text: file.text, lineStarts: file.lineStarts });

/** The file a worker sent back, with the origin map of the CUDA unit it stands for again. */
export async function restoredFiles<T>(value: T, path: string, flags: CudaFlags): Promise<T> {
  if (!isCudaPath(path)) return value;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return value;
  }
  const frontEnds = await frontEndsFor(path, text, flags);
  if (frontEnds.cuda === null) return value;
  const unit = lowerCuda(frontEnds.cuda, path, text).program.file;
  return withFiles(value, (file) => (file.path === unit.path && file.text === unit.text ? unit : file)) as T;
}

/** The launch of a CUDA file: the command line's, completed by the file's test header; and whether the header gave any. */
export function launchWithHeader(launch: Launch, text: string): { launch: Launch; header: TestHeader | null } {
  const header = testHeader(text);
  if (header === null) return { launch, header: null };
  const fromHeader = (launch.blockDim === null && header.blockDim !== null) || (launch.gridDim === null && header.gridDim !== null);
  return {
    launch: { params: launch.params, blockDim: launch.blockDim ?? header.blockDim, gridDim: launch.gridDim ?? header.gridDim },
    header: fromHeader || header.defines.length > 0 ? header : null,
  };
}

