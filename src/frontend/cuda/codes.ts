/**
 * The CUDA front end's diagnostic codes, in one table: E06xx errors (a kernel
 * with one of them is reported in error, the file's other kernels are still
 * verified) and N06xx notices (what the front end read and chose not to
 * model, said once where it is written).
 */
import { error, type Diagnostic, type RelatedSpan, type Severity } from '../../diagnostics/diagnostic.js';
import type { SourceFile, Span } from '../../core/source.js';

export const CUDA_CODES = {
  syntax: { code: 'E0601', severity: 'error', what: 'a syntax error in a kernel or a function it calls' },
  unsupported: { code: 'E0602', severity: 'error', what: 'a construct faial-ts does not analyse (the reject list)' },
  unknownName: { code: 'E0603', severity: 'error', what: 'a name that is not declared' },
  misuse: { code: 'E0604', severity: 'error', what: 'a value used in a way C does not allow or faial-ts cannot follow' },
  unplaced: { code: 'E0605', severity: 'error', what: 'a memory access faial-ts cannot place in an array' },
  noKernel: { code: 'E0606', severity: 'error', what: 'a file without __global__ kernel' },
  ignoredAnnotation: { code: 'N0601', severity: 'note', what: 'a GPUVerify annotation read and ignored' },
  notChecked: { code: 'N0602', severity: 'note', what: 'an assertion that is not checked' },
  noEffect: { code: 'N0603', severity: 'note', what: 'a call with no effect on data races in this model' },
  symbolicTemplate: { code: 'N0604', severity: 'note', what: 'a template parameter verified for all values' },
  launchFromHeader: { code: 'N0605', severity: 'note', what: 'a launch taken from the GPUVerify test header' },
} as const satisfies Record<string, { code: string; severity: Severity; what: string }>;

export type CudaProblem = keyof typeof CUDA_CODES;

export function cudaDiagnostic(
  problem: CudaProblem,
  file: SourceFile,
  span: Span,
  message: string,
  extra: { label?: string; related?: readonly RelatedSpan[]; hints?: readonly string[] } = {},
): Diagnostic {
  const { code, severity } = CUDA_CODES[problem];
  return { ...error(code, file, span, message, extra), severity };
}

/** Thrown while lowering a kernel: the kernel is reported in error with this diagnostic. */
export class KernelRejected extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.name = 'KernelRejected';
  }
}
