/**
 * The preprocessor's diagnostics, E05xx errors and W05xx warnings and notes
 * (their codes are in the one table, src/diagnostics/codes.ts). The
 * preprocessor never throws on bad input; every problem is one of these,
 * located in the file as written.
 */
import { CODES, type ProblemIn } from '../../../diagnostics/codes.js';
import type { Location, PreprocessDiagnostic } from './types.js';

/** The preprocessor's problems: E05xx errors, W05xx warnings and notes. */
export type PreprocessProblem = ProblemIn<'E05'> | ProblemIn<'W05'>;

export interface DiagnosticExtras {
  readonly related?: readonly { readonly at: Location; readonly message: string }[];
  readonly hints?: readonly string[];
}

export function diagnostic(problem: PreprocessProblem, at: Location, message: string, extras: DiagnosticExtras = {}): PreprocessDiagnostic {
  const { code, severity } = CODES[problem];
  return { severity, code, message, at, related: extras.related ?? [], hints: extras.hints ?? [] };
}

/** Where diagnostics go while preprocessing. */
export type Report = (problem: PreprocessProblem, at: Location, message: string, extras?: DiagnosticExtras) => void;
