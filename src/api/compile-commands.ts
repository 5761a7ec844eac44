/**
 * A compilation database (`compile_commands.json`, the clang tooling
 * convention that CMake's CMAKE_EXPORT_COMPILE_COMMANDS and Bear write): for
 * each `.cu` file, the preprocessor flags its build uses. Both spellings of a
 * command are read (`arguments`, an array, or `command`, one shell string),
 * and both compilers' flags: clang's and gcc's `-I`/`-D`/`-U`/`-include`/
 * `-iquote`, nvcc's `--include-path`, `--define-macro`,
 * `--undefine-macro`, `--pre-include` (with `=` or a separate value).
 * System directories (`-isystem`, `-idirafter`) are skipped: a header read
 * from a CUDA install would not parse, and `<…>` headers are known by name.
 * Paths are resolved against the entry's `directory` by the caller's
 * `resolvePath` (the CLI's path.resolve): no file system here.
 */
import type { CudaFlags } from './cuda.js';
import { UsageError } from './options.js';

/** The preprocessor flags of one file of the database. */
export interface CompileFlags extends Required<Pick<CudaFlags, 'define' | 'undefine' | 'include' | 'preInclude'>> {
  /** the entry's `directory`, where its relative paths start */
  readonly directory: string;
  /** `-std=…` as written (read, not used: the front end reads one C++ dialect) */
  readonly std: string | null;
}

export interface CompileDatabase {
  /** the path of compile_commands.json itself, for messages */
  readonly path: string;
  /** absolute file path → its flags; a file listed twice keeps its first entry, as clang's tools do */
  readonly files: ReadonlyMap<string, CompileFlags>;
}

type Resolve = (directory: string, path: string) => string;

/** The database of `text` (the contents of `path`); a malformed one is a usage error naming the entry. */
export function compileDatabaseOf(path: string, text: string, resolvePath: Resolve): CompileDatabase {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--compile-commands ${path}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!Array.isArray(json)) throw new UsageError(`--compile-commands ${path}: expected an array of entries`, ['each entry: { "directory": …, "file": …, "command": … } or "arguments": […]']);
  const files = new Map<string, CompileFlags>();
  json.forEach((entry: unknown, i) => {
    const where = `--compile-commands ${path}: entry ${i + 1}`;
    if (typeof entry !== 'object' || entry === null) throw new UsageError(`${where}: not an object`);
    const { directory, file, command, arguments: args } = entry as Record<string, unknown>;
    if (typeof directory !== 'string' || typeof file !== 'string') throw new UsageError(`${where}: "directory" and "file" must be strings`);
    let words: string[];
    if (Array.isArray(args) && args.every((a): a is string => typeof a === 'string')) words = args;
    else if (typeof command === 'string') words = shellWords(command, where);
    else throw new UsageError(`${where}: needs "arguments" (an array of strings) or "command" (a string)`);
    const absolute = resolvePath(directory, file);
    if (!files.has(absolute)) files.set(absolute, flagsOf(words.slice(1), directory, resolvePath, where));
  });
  return { path, files };
}

/** The `.cu` files the database lists, sorted (what `verify --compile-commands DB` verifies without FILE). */
export const cudaFilesOf = (db: CompileDatabase): string[] => [...db.files.keys()].filter((f) => /\.cu$/i.test(f)).sort();

/** Flags that take a value, by spelling; `joined` ones may also carry it after `=` or glued (`-Idir`). */
const VALUE_FLAGS: ReadonlyMap<string, keyof Omit<CompileFlags, 'directory'> | null> = new Map([
  ['-I', 'include'],
  ['-iquote', 'include'],
  ['--include-path', 'include'],
  ['-D', 'define'],
  ['--define-macro', 'define'],
  ['-U', 'undefine'],
  ['--undefine-macro', 'undefine'],
  ['-include', 'preInclude'],
  ['--pre-include', 'preInclude'],
  ['-std', 'std'],
  ['--std', 'std'],
  // system directories: skipped, for a header read from a CUDA install would not parse (<…> headers are known by name instead)
  ['-isystem', null],
  ['-idirafter', null],
  ['--system-include', null],
  // values of flags that do not concern the preprocessor, skipped with their flag
  ['-o', null],
  ['--output-file', null],
  ['-x', null],
  ['-arch', null],
  ['--gpu-architecture', null],
  ['-gencode', null],
  ['--generate-code', null],
  ['-ccbin', null],
  ['--compiler-bindir', null],
  ['-Xcompiler', null],
  ['--compiler-options', null],
  ['-MF', null],
  ['-MT', null],
  ['-MQ', null],
]);

/** Spellings whose value may be glued on (`-Idir`, `-DX=1`); the others take it after `=` or as the next word. */
const GLUED = ['-I', '-D', '-U', '-isystem', '-iquote', '-idirafter'];

function flagsOf(words: readonly string[], directory: string, resolvePath: Resolve, where: string): CompileFlags {
  const out = { define: [] as string[], undefine: [] as string[], include: [] as string[], preInclude: [] as string[], std: null as string | null };
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    let flag: string | undefined;
    let value: string | undefined;
    const eq = word.indexOf('=');
    if (VALUE_FLAGS.has(word)) {
      flag = word;
      value = words[++i];
      if (value === undefined) throw new UsageError(`${where}: ${word} without a value`);
    } else if (eq > 0 && VALUE_FLAGS.has(word.slice(0, eq))) {
      flag = word.slice(0, eq);
      value = word.slice(eq + 1);
    } else {
      flag = GLUED.find((g) => word.startsWith(g) && word.length > g.length);
      if (flag !== undefined) value = word.slice(flag.length);
    }
    if (flag === undefined || value === undefined) continue;
    const into = VALUE_FLAGS.get(flag);
    switch (into) {
      case 'include':
      case 'preInclude':
        out[into].push(resolvePath(directory, value));
        break;
      case 'define':
      case 'undefine':
        out[into].push(value);
        break;
      case 'std':
        out.std = value;
        break;
      case null:
      case undefined:
        break;
      default: {
        const unknown: never = into;
        throw new Error(`unhandled flag kind ${String(unknown)}`);
      }
    }
  }
  return { ...out, directory };
}

/** POSIX shell words of a `command` string: quotes ('…', "…") and backslash escapes, no expansion. */
export function shellWords(command: string, where: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (c === "'") {
      const end = command.indexOf("'", i + 1);
      if (end < 0) throw new UsageError(`${where}: unterminated ' in "command"`);
      word = (word ?? '') + command.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let text = '';
      for (i++; i < command.length && command[i] !== '"'; i++) {
        if (command[i] === '\\' && i + 1 < command.length && '"\\$`\n'.includes(command[i + 1]!)) i++;
        text += command[i];
      }
      if (i >= command.length) throw new UsageError(`${where}: unterminated " in "command"`);
      word = (word ?? '') + text;
    } else if (c === '\\' && i + 1 < command.length) {
      word = (word ?? '') + command[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/**
 * The flags a file is read with: its database entry's (when it has one),
 * then the command line's, so that a `-D` given on the command line wins
 * over the build's, and `-I` directories of the command line are searched after.
 */
export function withDatabaseFlags(flags: CudaFlags, entry: CompileFlags | undefined): CudaFlags {
  if (entry === undefined) return flags;
  return {
    ...flags,
    define: [...entry.define, ...(flags.define ?? [])],
    undefine: [...entry.undefine, ...(flags.undefine ?? [])],
    include: [...entry.include, ...(flags.include ?? [])],
    preInclude: [...entry.preInclude, ...(flags.preInclude ?? [])],
  };
}
