/**
 * The CUDA front end: a .cu file's text → preprocessed translation unit →
 * syntax tree → core program, with the kernels it rejects and the notices
 * about what it read and did not model. The unit is the core's source file;
 * its origin map leads every span back to the .cu file, the header it was
 * included from, and the macro uses it was expanded from. Parsing needs the
 * grammar, loaded once (parse.ts); the rest is synchronous and pure.
 */
import { sourceFile, type Located, type SourceFile } from '../../core/source.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { preprocess, type Location, type PreprocessOptions } from './preprocess/index.js';
import { parseCuda, type CudaGrammar } from './parse.js';
import { lowerUnit, type LoweredUnit } from './unit.js';

export type { LoweredUnit, RejectedKernel } from './unit.js';

/** What the CUDA front end needs besides the text: the grammar, and the preprocessor's -D, -U, -I and file reader. */
export interface CudaSetup extends PreprocessOptions {
  readonly grammar: CudaGrammar;
}

export function lowerCuda(setup: CudaSetup, path: string, text: string): LoweredUnit {
  const pre = preprocess({ path, text }, setup);
  const files = pre.files.map((f) => sourceFile(f.path, f.text));
  const place = (l: Location): Located => ({
    file: files[l.file]!,
    span: { start: l.start, end: l.end },
    expansions: l.expansions.map((m) => ({ name: m.name, file: files[m.file]!, span: { start: m.start, end: m.end } })),
  });
  const unit: SourceFile = { ...sourceFile(files[0]!.path, pre.text), origin: (span) => place(pre.locate(span.start, span.end)) };
  const problems: Diagnostic[] = pre.diagnostics.map((d) => ({
    code: d.code,
    severity: d.severity,
    message: d.message,
    file: files[d.at.file]!,
    span: { start: d.at.start, end: d.at.end },
    related: d.related.map((r) => ({ span: { start: r.at.start, end: r.at.end }, message: r.message })),
    hints: d.hints,
  }));
  const errors = problems.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { program: { file: unit, kernels: [] }, rejected: [], notices: [], errors };
  const lowered = lowerUnit(unit, parseCuda(setup.grammar, pre.text));
  return { ...lowered, notices: [...problems, ...lowered.notices] };
}
