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
import { sourceFile, type SourceFile, type Span } from '../core/source.js';
import { StageClock } from '../util/clock.js';

export type Checked =
  | { readonly ok: true; readonly file: SourceFile; readonly kernels: readonly KernelMap[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Parsing, and typing: names, well-formedness and MAP inference. */
export type CheckStage = 'parse' | 'typing';

/** Parsing, names and MAP inference: everything before the solver. */
export function checkedKernels(path: string, text: string, only?: string, clock: StageClock<CheckStage> = new StageClock()): Checked {
  try {
    const program = clock.timed('parse', () => parseProgram(path, text));
    const diagnostics = clock.timed('typing', () => wellFormednessErrors(program));
    if (diagnostics.length > 0) return { ok: false, diagnostics };
    const kernels = program.kernels.filter((k) => only === undefined || k.name.text === only);
    return { ok: true, file: program.file, kernels: clock.timed('typing', () => kernels.map((k) => inferMap(program.file, k))) };
  } catch (e) {
    if (e instanceof DiagnosticError) return { ok: false, diagnostics: e.diagnostics };
    throw e;
  }
}

export const INTERNAL_ERROR = 'E0900';

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/^internal error: /, '');

export function internalError(file: SourceFile, span: Span, message: string): Diagnostic {
  return error(INTERNAL_ERROR, file, span, `internal error: ${message}`, {
    hints: ['this is a bug in faial-ts, or a solver that misbehaved; please report it with the input file'],
  });
}

/** checkedKernels, with an exception of its own turned into a diagnostic on the file. */
export function checkedSafely(path: string, text: string, kernel: string | null, clock?: StageClock<CheckStage>): Checked {
  try {
    return checkedKernels(path, text, kernel ?? undefined, clock);
  } catch (e) {
    return { ok: false, diagnostics: [internalError(sourceFile(path, text), { start: 0, end: 0 }, messageOf(e))] };
  }
}
