/**
 * How the CLI reads the files a .cu file includes. A CI job may run
 * `faial-ts verify --sarif` on code it does not trust and publish the report,
 * so an include resolves only inside the include roots (the input's project
 * and the -I directories), checked on the path as written and again after
 * symbolic links; anything else is refused unread, so no report can quote it,
 * and `__has_include` says it is not there. Only regular files are read (a
 * device or a pipe may never end), up to MAX_INCLUDE_BYTES. `--include-anywhere`
 * lifts the roots, for a trusted local run; the other limits stay.
 *
 * The language server gives the editor's unsaved texts of open files
 * (`OpenBuffers`): an include reads the editor's text instead of the disk,
 * under the same rules; a buffer outside the roots is refused unread, as
 * its file would be.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CudaFlags } from '../api/cuda.js';
import type { FileRefusal } from '../frontend/cuda/preprocess/index.js';

/** The largest file an #include reads: headers are far smaller; a larger file is a mistake or an attack. */
export const MAX_INCLUDE_BYTES = 4 * 1024 * 1024;

export type IncludeReader = (path: string) => string | null | FileRefusal;

/** Whether `path` is `dir` or below it (both absolute). */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * The directories `file`'s includes may resolve into: its project (the
 * outermost directory given on the command line that holds it, else its own
 * directory) and the -I directories; absolute.
 */
export function includeRoots(file: string, projectDirs: readonly string[], includeDirs: readonly string[]): string[] {
  const path = resolve(file);
  const holding = projectDirs.map((d) => resolve(d)).filter((d) => isWithin(path, d));
  const project = holding.sort((a, b) => a.length - b.length)[0] ?? dirname(path);
  return [project, ...includeDirs.map((d) => resolve(d))];
}

/** The editor's texts of open files, by absolute path. */
export type OpenBuffers = ReadonlyMap<string, string>;

const NO_BUFFERS: OpenBuffers = new Map();

/** `path` with the symbolic links of its longest existing ancestor resolved (a file only the editor holds has no real path of its own). */
function realOfNew(path: string): string {
  const parent = dirname(path);
  let real: string;
  try {
    real = realpathSync(parent);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === path) throw e;
    real = realOfNew(parent);
  }
  return join(real, basename(path));
}

/** A reader confined to `roots` (null: anywhere), of regular files up to MAX_INCLUDE_BYTES, or the editor's `buffers` of them. */
export function confinedReader(roots: readonly string[] | null, buffers: OpenBuffers = NO_BUFFERS): IncludeReader {
  const realRoots = roots?.flatMap((r) => {
    try {
      return [realpathSync(r)];
    } catch {
      return [];
    }
  });
  const allowed = (path: string, dirs: readonly string[] | undefined): boolean => dirs === undefined || dirs.some((d) => isWithin(path, d));
  return (path) => {
    const written = resolve(path);
    // the path as written first: a file outside the roots is not even looked at, so its existence stays unsaid
    if (!allowed(written, roots === null ? undefined : [...roots, ...(realRoots ?? [])])) return { refused: 'outsideRoots' };
    const buffer = buffers.get(written);
    let real: string;
    try {
      real = realpathSync(written);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
      if (buffer === undefined) return null;
      real = realOfNew(written);
    }
    if (!allowed(real, realRoots)) return { refused: 'outsideRoots' };
    if (buffer !== undefined) return Buffer.byteLength(buffer, 'utf8') > MAX_INCLUDE_BYTES ? { refused: 'tooLarge', limitBytes: MAX_INCLUDE_BYTES } : buffer;
    const info = statSync(real);
    if (info.isDirectory()) return { refused: 'directory' };
    if (!info.isFile()) return { refused: 'notRegular' };
    if (info.size > MAX_INCLUDE_BYTES) return { refused: 'tooLarge', limitBytes: MAX_INCLUDE_BYTES };
    return readFileSync(real, 'utf8');
  };
}

/** The reader for the includes of `file` under the command line's flags (and the editor's buffers). */
export function includeReaderFor(file: string, flags: CudaFlags, buffers: OpenBuffers = NO_BUFFERS): IncludeReader {
  // a file the build names for -include is the user's own, wherever it is
  const preIncluded = (flags.preInclude ?? []).map((f) => dirname(resolve(f)));
  return confinedReader(flags.includeAnywhere === true ? null : [...includeRoots(file, flags.projectDirs ?? [], flags.include ?? []), ...preIncluded], buffers);
}

/** The command line's inputs that are directories: the projects of the files found below them. */
export function projectDirsOf(inputs: readonly string[]): string[] {
  return inputs.filter((p) => {
    try {
      return statSync(p).isDirectory();
    } catch {
      return false;
    }
  });
}
