/**
 * The CUDA front end's diagnostics (their codes are in the one table,
 * src/diagnostics/codes.ts): E06xx errors (a kernel with one of them is
 * reported in error, the file's other kernels are still verified) and N06xx
 * notices (what the front end read and chose not to model, said once where
 * it is written).
 */
import { diagnosticOf, type Diagnostic, type DiagnosticExtras } from '../../diagnostics/diagnostic.js';
import type { ProblemIn } from '../../diagnostics/codes.js';
import type { SourceFile, Span } from '../../core/source.js';

/** The front end's problems: E06xx errors, N06xx notices. */
export type CudaProblem = ProblemIn<'E06'> | ProblemIn<'N06'>;

export function cudaDiagnostic(problem: CudaProblem, file: SourceFile, span: Span, message: string, extra: DiagnosticExtras = {}): Diagnostic {
  return diagnosticOf(problem, file, span, message, extra);
}

/** Thrown while lowering a kernel: the kernel is reported in error with this diagnostic. */
export class KernelRejected extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.name = 'KernelRejected';
  }
}
