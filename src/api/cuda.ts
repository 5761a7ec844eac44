/**
 * What a CUDA file needs besides its text, for any caller (the CLI reads
 * headers and the grammar from disk, the playground from its own files):
 * -D/-U/-I, and the GPUVerify test header a kernel file may start with,
 *
 *   //pass                                   (or //xfail:…, or // expect: …)
 *   //--blockDim=[16,16] --gridDim=64 -DN=256 --warp-sync=32
 *
 * which supplies the launch, macros and lockstep warps when the caller does not.
 */
import type { Launch } from '../core/launch.js';
import { sourceFile, type Span } from '../core/source.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { cudaDiagnostic } from '../frontend/cuda/codes.js';
import type { CudaGrammar } from '../frontend/cuda/parse.js';
import type { ProjectLaunches } from '../frontend/cuda/lower.js';
import type { PreprocessOptions } from '../frontend/cuda/preprocess/index.js';
import { launchText } from '../report/describe.js';
import type { FrontEnds } from './check.js';
import { UsageError, dimOf, naturalOf } from './options.js';

/** -D, -U and -I as a user gives them; -include files; the compilation database that adds a file's own. */
export interface CudaFlags {
  define?: string[];
  undefine?: string[];
  include?: string[];
  /** files read as if `#include "…"` stood on the main file's first line (`-include`, from a compilation database) */
  preInclude?: string[];
  /** the path of a compile_commands.json whose entry for a file gives its flags first */
  compileCommands?: string;
  /** verify every launch, not only the sizes the file's host code launches the kernel with */
  anyLaunch?: boolean;
  /** the sizes the user fixes (their values travel in the launch; here, only that they are given) */
  blockDim?: string;
  gridDim?: string;
  /** the parameters the user fixes, `-p NAME=VALUE` (here only their names: a launch's argument does not fix them too) */
  param?: string[];
  /** the command line's directories: a file found below one may include from anywhere in it (else from its own directory and -I) */
  projectDirs?: string[];
  /** --include-anywhere: includes are not confined to the include roots (a trusted local run) */
  includeAnywhere?: boolean;
}

/** `-DNAME`, `-DNAME=VALUE`, `-D'F(x)=…'` as the preprocessor takes them. */
export function definesOf(specs: readonly string[]): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const spec of specs) {
    // a line break would end the #define it stands for, and split every message that shows it
    if (/[\n\r]/.test(spec)) throw new UsageError(`-D${JSON.stringify(spec)}: a macro's value cannot contain a line break`);
    const m = /^([A-Za-z_]\w*(?:\([^)]*\))?)(?:=(.*))?$/s.exec(spec.trim());
    if (m === null) throw new UsageError(`-D${JSON.stringify(spec)}: expected NAME or NAME=VALUE`);
    out.set(m[1]!, m[2] ?? null);
  }
  return out;
}

/** What the GPUVerify test header of a file says: launch dimensions and macros. */
export interface TestHeader {
  readonly blockDim: readonly bigint[] | null;
  readonly gridDim: readonly bigint[] | null;
  readonly defines: readonly string[];
  /** `--warp-sync=N` (or `--warp-size=N`): lockstep warps */
  readonly warpSize: number | null;
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
  if (!/^\/\/--(blockDim|gridDim|block-dim|grid-dim|warp-sync|warp-size)=/.test(second) && !/^\/\/-D/.test(second)) return null;
  let blockDim: bigint[] | null = null;
  let gridDim: bigint[] | null = null;
  let warpSize: number | null = null;
  const defines: string[] = [];
  const line2 = lines[0]!.length + (text[lines[0]!.length] === '\r' ? 2 : 1);
  for (const word of lines[1]!.matchAll(/\S+/g)) {
    const w = word.index === lines[1]!.indexOf('//') ? word[0].slice(2) : word[0];
    if (w === '') continue;
    try {
      headerWord(w);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      throw new TestHeaderError(e.message, { start: line2 + word.index, end: line2 + word.index + word[0].length });
    }
  }
  return { blockDim, gridDim, defines, warpSize, line: second };

  function headerWord(w: string): void {
    const warp = /^--warp-(size|sync)=(.*)$/.exec(w);
    if (warp !== null) warpSize = naturalOf(warp[2]!, `--warp-${warp[1]!}`, 1);
    const m = /^--(blockDim|gridDim|block-dim|grid-dim)=(.*)$/.exec(w);
    if (m !== null) {
      const dims = dimOf(m[2]!, `--${m[1]!}`);
      if (m[1]!.startsWith('block')) blockDim = dims;
      else gridDim = dims;
    } else if (w.startsWith('-D') && w.length > 2) {
      // read here, so that a macro that does not read is this file's error at the flag, not a usage error of the whole run
      definesOf([w.slice(2)]);
      defines.push(w.slice(2));
    }
  }
}

/** A flag of a file's test header that does not read: the file's error, at the flag. */
export class TestHeaderError extends Error {
  constructor(
    message: string,
    readonly span: Span,
  ) {
    super(message);
    this.name = 'TestHeaderError';
  }
}

/** The test header of a file, or null when it has none or one that does not read (headerError says why). */
function headerOrNull(text: string): TestHeader | null {
  try {
    return testHeader(text);
  } catch (e) {
    if (e instanceof TestHeaderError) return null;
    throw e;
  }
}

/** The error of a file whose GPUVerify test header does not read, at the flag (file:line:col, code frame); null when it reads. */
export function headerError(path: string, text: string): Diagnostic | null {
  try {
    testHeader(text);
    return null;
  } catch (e) {
    if (!(e instanceof TestHeaderError)) throw e;
    return cudaDiagnostic('badTestHeader', sourceFile(path, text), e.span, `the GPUVerify test header does not read: ${e.message}`, {
      hints: ['line 2 of a kernel file that starts with //pass, //xfail or // expect gives its launch: //--blockDim=[X,Y,Z] --gridDim=N -DNAME=VALUE'],
    });
  }
}

/**
 * The launch of a CUDA file: the caller's, completed by the file's test
 * header; and whether the header gave any. Without `sizes`, the header's
 * blockDim and gridDim are left out (its macros and warp size are not).
 */
export function launchWithHeader(launch: Launch, text: string, sizes = true): { launch: Launch; header: TestHeader | null } {
  const read = headerOrNull(text);
  const header = read === null || sizes ? read : { ...read, blockDim: null, gridDim: null };
  if (header === null) return { launch, header: null };
  const warpFromHeader = launch.warpSize === undefined && header.warpSize !== null;
  const fromHeader = (launch.blockDim === null && header.blockDim !== null) || (launch.gridDim === null && header.gridDim !== null) || warpFromHeader;
  const warpSize = launch.warpSize ?? header.warpSize ?? undefined;
  return {
    launch: { params: launch.params, blockDim: launch.blockDim ?? header.blockDim, gridDim: launch.gridDim ?? header.gridDim, ...(warpSize === undefined ? {} : { warpSize }) },
    header: fromHeader || header.defines.length > 0 ? header : null,
  };
}

/** The note, at line 2, that says which parts of a file's launch (or only its macros) came from its test header: those the caller's launch `given` leaves out. */
export function headerNotice(path: string, text: string, given: Launch, header: TestHeader): Diagnostic {
  const line2 = text.indexOf('\n') + 1;
  const span = { start: line2, end: line2 + header.line.length };
  const fromHeader: Launch = { params: new Map(), blockDim: given.blockDim === null ? header.blockDim : null, gridDim: given.gridDim === null ? header.gridDim : null };
  const warpSize = given.warpSize === undefined ? header.warpSize : null;
  const parts = [launchText(fromHeader), warpSize === null ? null : `warp size ${warpSize} (lockstep, as the header asks: this holds only before sm_70)`].filter((x) => x !== null);
  return cudaDiagnostic('launchFromHeader', sourceFile(path, text), span, `the launch (${parts.length === 0 ? 'macros only' : parts.join(', ')}) comes from the GPUVerify test header of this file`);
}

/**
 * The front ends for a CUDA file: the grammar, the macros of its test header
 * then the caller's -D, -U, and the include directories (as `readFile`
 * names files) where `#include "…"` looks after the including file's own.
 */
export function cudaFrontEnds(grammar: CudaGrammar, text: string, flags: CudaFlags, readFile: PreprocessOptions['readFile'], elsewhere: readonly ProjectLaunches[] = []): FrontEnds {
  const header = headerOrNull(text);
  const defines = definesOf([...(header?.defines ?? []), ...(flags.define ?? [])]);
  // sizes the command line or the test header fix are theirs; the host code's launches fix only the others
  const given = [
    ...(flags.blockDim !== undefined || (header?.blockDim ?? null) !== null ? ['blockDim' as const] : []),
    ...(flags.gridDim !== undefined || (header?.gridDim ?? null) !== null ? ['gridDim' as const] : []),
  ];
  const givenParams = (flags.param ?? []).map((spec) => spec.split('=')[0]!.trim());
  const launches = { any: flags.anyLaunch === true, given, givenParams, elsewhere };
  return { cuda: { grammar, defines, undefines: flags.undefine ?? [], includeDirs: flags.include ?? [], preIncludes: flags.preInclude ?? [], readFile, launches } };
}
