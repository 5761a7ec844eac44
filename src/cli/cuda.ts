/**
 * The CLI's side of the CUDA front end: the grammar's WebAssembly read from
 * node_modules (once per process), included files read from disk (confined:
 * includes.ts), -I
 * directories from the working directory (src/api/cuda.ts reads the rest of
 * the flags and the GPUVerify test header), and the origin maps of CUDA
 * units, which cannot cross to a worker process and back.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { BCU_ONLY, isCudaPath, type FrontEnds } from '../api/check.js';
import { compileDatabaseOf, cudaFilesOf, withDatabaseFlags, type CompileDatabase } from '../api/compile-commands.js';
import { cudaFrontEnds, type CudaFlags } from '../api/cuda.js';
import { UsageError } from '../api/options.js';
import { loadCudaGrammar, type CudaGrammar } from '../frontend/cuda/parse.js';
import { lowerCuda, projectLaunchesOf, type ProjectLaunches } from '../frontend/cuda/lower.js';
import { sourceFile, type SourceFile } from '../core/source.js';
import { includeReaderFor, isWithin, type OpenBuffers } from './includes.js';
import { tieringLate } from './wasm-flags.js';

export type { CudaFlags } from '../api/cuda.js';

let grammar: Promise<CudaGrammar> | undefined;

export function cudaGrammar(): Promise<CudaGrammar> {
  const require = createRequire(import.meta.url);
  grammar ??= tieringLate(() =>
    loadCudaGrammar({
      runtime: readFileSync(require.resolve('web-tree-sitter/tree-sitter.wasm')),
      cpp: readFileSync(require.resolve('tree-sitter-cpp/tree-sitter-cpp.wasm')),
    }),
  );
  return grammar;
}

const databases = new Map<string, CompileDatabase>();

/** The compilation database at `path`, read once per process; unreadable or malformed, a usage error. */
export function compileDatabase(path: string): CompileDatabase {
  const known = databases.get(path);
  if (known !== undefined) return known;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UsageError(`--compile-commands: cannot read '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
  // a relative `directory` (not what CMake writes, but what a database kept in a repository needs) starts at the database's own
  const db = compileDatabaseOf(path, text, (directory, file) => canonical(resolve(dirname(path), directory, file)));
  databases.set(path, db);
  return db;
}

/** A path with its symbolic links resolved where it exists, so that a file named two ways finds its database entry. */
function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * The front ends for one file: for a CUDA file, the grammar, its -D (the
 * test header's, then the compilation database's, then the command
 * line's), -U, -I resolved from the working directory, and the reader of
 * its includes, confined to its include roots (reading the editor's
 * `buffers` of open files instead of the disk, for the language server).
 */
export async function frontEndsFor(path: string, text: string, flags: CudaFlags, buffers?: OpenBuffers): Promise<FrontEnds> {
  if (!isCudaPath(path)) return BCU_ONLY;
  const elsewhere = flags.anyLaunch === true ? [] : await Promise.all(projectFilesOf(path, flags).map((other) => projectLaunches(other, flags)));
  return ownFrontEnds(path, text, flags, elsewhere.filter((p) => p.sites.length > 0), buffers);
}

async function ownFrontEnds(path: string, text: string, flags: CudaFlags, elsewhere: readonly ProjectLaunches[], buffers?: OpenBuffers): Promise<FrontEnds> {
  const own = flags.compileCommands === undefined ? flags : withDatabaseFlags(flags, compileDatabase(flags.compileCommands).files.get(canonical(resolve(path))));
  return cudaFrontEnds(await cudaGrammar(), text, { ...own, include: (own.include ?? []).map((d) => resolve(d)) }, includeReaderFor(path, own, buffers), elsewhere);
}

/** The most files of a directory read for the launches they make. */
const MAX_PROJECT_FILES = 2000;

/**
 * The project's other `.cu` files, whose launches fix `path`'s kernels: the
 * compilation database's, or those below the command-line directory that
 * holds `path`; none for a file named alone.
 */
function projectFilesOf(path: string, flags: CudaFlags): string[] {
  const me = canonical(resolve(path));
  if (flags.compileCommands !== undefined) return cudaFilesOf(compileDatabase(flags.compileCommands)).filter((f) => f !== me);
  const dir = (flags.projectDirs ?? []).map((d) => resolve(d)).filter((d) => isWithin(resolve(path), d)).sort((a, b) => a.length - b.length)[0];
  return dir === undefined ? [] : cudaFilesBelow(dir, []).filter((f) => canonical(f) !== me);
}

function cudaFilesBelow(dir: string, out: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    if (out.length >= MAX_PROJECT_FILES) break;
    const path = join(dir, name);
    try {
      if (statSync(path).isDirectory()) cudaFilesBelow(path, out);
      else if (isCudaPath(path)) out.push(path);
    } catch {
      // a file that vanished or cannot be read launches nothing
    }
  }
  return out;
}

const launchesOfFile = new Map<string, Promise<ProjectLaunches>>();

/** The launches `other` makes, read and preprocessed once per process (with its own flags). */
function projectLaunches(other: string, flags: CudaFlags): Promise<ProjectLaunches> {
  const key = JSON.stringify([other, flags]);
  let known = launchesOfFile.get(key);
  if (known === undefined) {
    known = (async () => {
      let text: string;
      try {
        text = readFileSync(other, 'utf8');
      } catch {
        return { file: sourceFile(other, ''), sites: [] };
      }
      // named as the user named its directory: relative to the working directory when below it
      const shown = relative(process.cwd(), other);
      const name = shown.startsWith('..') || isAbsolute(shown) ? other : shown;
      const frontEnds = await ownFrontEnds(name, text, flags, []);
      return frontEnds.cuda === null ? { file: sourceFile(name, text), sites: [] } : projectLaunchesOf(frontEnds.cuda, name, text);
    })();
    launchesOfFile.set(key, known);
  }
  return known;
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
