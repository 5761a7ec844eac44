/**
 * Where commands write (`fix -o`, `experiment --out`, `smt --out`): checked
 * before any work, so that a bad path is a usage error at once rather than
 * after minutes of verification, and each file written whole (a temporary
 * file renamed over it), so that a failed write leaves no half file.
 */
import { lstat, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { UsageError } from './options.js';

/** What went wrong, without Node's `, mkdir '…'` tail (the message names the path). */
function reason(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).replace(/, \w+ '.*'$/s, '');
}

async function statOrNull(path: string): Promise<Awaited<ReturnType<typeof stat>> | null> {
  try {
    return await stat(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * `mkdir -p`, one level at a time: Node's `recursive` mode loops forever
 * where a parent exists but cannot hold the child (`/proc/x`, a dangling
 * symbolic link), retrying the parent after each ENOENT.
 */
async function madeDirectory(dir: string): Promise<void> {
  const info = await statOrNull(dir);
  if (info !== null) {
    if (!info.isDirectory()) throw new Error(`'${dir}' is not a directory`);
    return;
  }
  const parent = dirname(dir);
  if (parent !== dir) await madeDirectory(parent);
  await mkdir(dir);
}

/** A file can be created in `dir`: tried, since permissions alone do not say (a read-only file system, root). */
async function probeWritable(dir: string): Promise<void> {
  const probe = join(dir, `.faial-ts-probe-${process.pid}`);
  await writeFile(probe, '');
  await rm(probe, { force: true });
}

/** The directory `option` names, created if missing and known to be writable. */
export async function outputDirectory(dir: string, option: string): Promise<void> {
  try {
    await madeDirectory(dir);
  } catch (e) {
    throw new UsageError(`${option} ${dir}: cannot create the directory: ${reason(e)}`);
  }
  try {
    await probeWritable(dir);
  } catch (e) {
    throw new UsageError(`${option} ${dir}: cannot write into the directory: ${reason(e)}`);
  }
}

/** The file `option` names can be written: not a directory, in an existing, writable directory. */
export async function outputFile(path: string, option: string): Promise<void> {
  const info = await statOrNull(path).catch(() => null);
  if (info?.isDirectory()) throw new UsageError(`${option} ${path}: is a directory`, ['give the path of a file']);
  const dir = dirname(path);
  const dirInfo = await statOrNull(dir).catch(() => null);
  if (dirInfo === null) throw new UsageError(`${option} ${path}: there is no directory '${dir}'`, ['create it first']);
  if (!dirInfo.isDirectory()) throw new UsageError(`${option} ${path}: '${dir}' is not a directory`);
  try {
    await probeWritable(dir);
  } catch (e) {
    throw new UsageError(`${option} ${path}: cannot write into '${dir}': ${reason(e)}`);
  }
}

/** The kind of what is at `path` when it is there and not a regular file (a symbolic link is not followed), else null. */
async function notRegular(path: string): Promise<string | null> {
  let s;
  try {
    s = await lstat(path);
  } catch {
    return null;
  }
  if (s.isFile()) return null;
  return s.isSymbolicLink() ? 'a symbolic link' : s.isDirectory() ? 'a directory' : s.isCharacterDevice() || s.isBlockDevice() ? 'a device' : 'not a regular file';
}

/**
 * Writes `text` to `path` whole: into a temporary file beside it, then renamed
 * over it. Only a new file or a regular one is replaced: a rename would put a
 * regular file in place of a device (/dev/null, /dev/full) or a symbolic link,
 * so those are refused, as usage errors.
 */
export async function writtenWhole(path: string, text: string): Promise<void> {
  const kind = await notRegular(path);
  if (kind !== null) throw new UsageError(`cannot write ${path}: it is ${kind}; faial-ts writes a new file or replaces a regular one`);
  const temporary = join(dirname(path), `.${basename(path)}.faial-ts-${process.pid}`);
  try {
    await writeFile(temporary, text);
    await rename(temporary, path);
  } catch (e) {
    await rm(temporary, { force: true });
    throw new UsageError(`cannot write ${path}: ${reason(e)}`);
  }
}
