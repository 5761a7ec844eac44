/**
 * The CUDA front end: a .cu file's text → preprocessed translation unit →
 * syntax tree → core program, with the kernels it rejects and the notices
 * about what it read and did not model. The unit is the core's source file;
 * its origin map leads every span back to the .cu file, the header it was
 * included from, and the macro uses it was expanded from. Parsing needs the
 * grammar, loaded once (parse.ts); the rest is synchronous and pure.
 */
import { preprocess, type PreprocessOptions } from './preprocess/index.js';
import { coreDiagnostic, coreSources } from './preprocess/origin.js';
import { parseCuda, type CudaGrammar } from './parse.js';
import { lowerUnit, type LoweredUnit } from './unit.js';

export type { LoweredUnit, RejectedKernel } from './unit.js';

/** What the CUDA front end needs besides the text: the grammar, and the preprocessor's -D, -U, -I and file reader. */
export interface CudaSetup extends PreprocessOptions {
  readonly grammar: CudaGrammar;
}

export function lowerCuda(setup: CudaSetup, path: string, text: string): LoweredUnit {
  const pre = preprocess({ path, text }, setup);
  const { unit, files } = coreSources(pre);
  const problems = pre.diagnostics.map((d) => coreDiagnostic(d, files));
  const errors = problems.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { program: { file: unit, kernels: [] }, rejected: [], notices: [], errors };
  const lowered = lowerUnit(unit, parseCuda(setup.grammar, pre.text));
  return { ...lowered, notices: [...problems, ...lowered.notices] };
}
