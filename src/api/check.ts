/**
 * From a file's text to its checked kernels: the front end the file's
 * extension names, then names and well-formedness, then MAP inference. Bad
 * input stops before inference with diagnostics. Text in, data out: no file
 * system here, so the CLI and the browser both call it.
 */
import { DiagnosticError, error, type Diagnostic } from '../diagnostics/diagnostic.js';
import { inferMap } from '../map/infer.js';
import type { KernelMap } from '../map/map.js';
import { wellFormednessErrors } from '../names/check.js';
import { parseProgram } from '../frontend/bcu/parse.js';
import { lowerCuda, type CudaSetup, type RejectedKernel } from '../frontend/cuda/lower.js';
import { headerError } from './cuda.js';
import type { Program } from '../core/ast.js';
import { sourceFile, type SourceFile, type Span } from '../core/source.js';
import { StageClock } from '../util/clock.js';

export type { CudaSetup, RejectedKernel };

/** What reading a file needs beyond its text; the CUDA grammar is loaded by the caller (it is WebAssembly, loaded asynchronously). */
export interface FrontEnds {
  readonly cuda: CudaSetup | null;
}

export const BCU_ONLY: FrontEnds = { cuda: null };

/** `.cu` and `.cuh` files are CUDA C; everything else is BabyCUDA. */
export const isCudaPath = (path: string): boolean => /\.cuh?$/i.test(path);

export type Checked =
  | {
      readonly ok: true;
      readonly file: SourceFile;
      readonly kernels: readonly KernelMap[];
      /** kernels the front end could not lower (an unsupported construct): each is reported in error */
      readonly rejected: readonly RejectedKernel[];
      /** what the front end read and chose not to model, said once */
      readonly notices: readonly Diagnostic[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

interface FrontEndOutput {
  readonly program: Program;
  readonly rejected: readonly RejectedKernel[];
  readonly notices: readonly Diagnostic[];
}

/** The core program of a file, by the front end its extension names; bad input throws its diagnostics. */
export function programOf(path: string, text: string, frontEnds: FrontEnds): FrontEndOutput {
  if (!isCudaPath(path)) return { program: parseProgram(path, text), rejected: [], notices: [] };
  if (frontEnds.cuda === null) throw new Error('the CUDA grammar was not loaded');
  const header = headerError(path, text);
  if (header !== null) throw new DiagnosticError([header]);
  const lowered = lowerCuda(frontEnds.cuda, path, text);
  if (lowered.errors.length > 0) throw new DiagnosticError(lowered.errors);
  return lowered;
}

/** Parsing, and typing: names, well-formedness and MAP inference. */
export type CheckStage = 'parse' | 'typing';

/** Parsing, names and MAP inference: everything before the solver. */
export function checkedKernels(path: string, text: string, only?: string, clock: StageClock<CheckStage> = new StageClock(), frontEnds: FrontEnds = BCU_ONLY): Checked {
  try {
    const { program, rejected, notices } = clock.timed('parse', () => programOf(path, text, frontEnds));
    const diagnostics = clock.timed('typing', () => wellFormednessErrors(program));
    if (diagnostics.length > 0) return { ok: false, diagnostics };
    const kernels = program.kernels.filter((k) => only === undefined || k.name.text === only);
    const maps = clock.timed('typing', () => kernels.map((k) => inferMap(program.file, k)));
    return { ok: true, file: program.file, kernels: maps, rejected: rejected.filter((r) => only === undefined || r.name === only), notices };
  } catch (e) {
    if (e instanceof DiagnosticError) return { ok: false, diagnostics: e.diagnostics };
    throw e;
  }
}

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/^internal error: /, '');

export function internalError(file: SourceFile, span: Span, message: string): Diagnostic {
  return error('E0900', file, span, `internal error: ${message}`, {
    hints: ['this is a bug in faial-ts, or a solver that misbehaved; please report it with the input file'],
  });
}

/** checkedKernels, with an exception of its own turned into a diagnostic on the file. */
export function checkedSafely(path: string, text: string, kernel: string | null, clock?: StageClock<CheckStage>, frontEnds: FrontEnds = BCU_ONLY): Checked {
  try {
    return checkedKernels(path, text, kernel ?? undefined, clock, frontEnds);
  } catch (e) {
    return { ok: false, diagnostics: [internalError(sourceFile(path, text), { start: 0, end: 0 }, messageOf(e))] };
  }
}
