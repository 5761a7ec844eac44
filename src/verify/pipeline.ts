/**
 * From a file's text to per-kernel results: parse, check names, infer each
 * kernel's MAP, verify. Bad input stops before inference with diagnostics.
 */
import { DiagnosticError, type Diagnostic } from '../diagnostics/diagnostic.js';
import { inferMap } from '../map/infer.js';
import type { KernelMap } from '../map/map.js';
import { wellFormednessErrors } from '../names/check.js';
import { parseProgram } from '../syntax/parse.js';
import type { SourceFile } from '../syntax/source.js';
import { StageClock } from '../util/clock.js';
import type { KernelResult } from './result.js';
import { verifyKernel, type VerifyOptions } from './verify.js';

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

export type FileResult =
  | { readonly ok: true; readonly path: string; readonly kernels: readonly KernelResult[] }
  | { readonly ok: false; readonly path: string; readonly diagnostics: readonly Diagnostic[] };

export async function verifyText(path: string, text: string, options: VerifyOptions & { kernel?: string }): Promise<FileResult> {
  const checked = checkedKernels(path, text, options.kernel);
  if (!checked.ok) return { ok: false, path, diagnostics: checked.diagnostics };
  const kernels: KernelResult[] = [];
  for (const map of checked.kernels) kernels.push(await verifyKernel(map, options));
  return { ok: true, path, kernels };
}
