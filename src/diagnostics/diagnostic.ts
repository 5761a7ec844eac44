/**
 * A diagnostic is data: a code (from the one table, codes.ts), a message, the
 * span it is about, related spans and hints. One printer (render.ts) turns it
 * into text; JSON output reuses the same data.
 */
import type { SourceFile, Span } from '../core/source.js';
import { CODES, type DiagnosticCode, type ErrorCode, type Problem } from './codes.js';

export type Severity = 'error' | 'warning' | 'note';

export interface RelatedSpan {
  readonly span: Span;
  readonly message: string;
}

export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  readonly file: SourceFile;
  readonly span: Span;
  readonly label?: string;
  readonly related: readonly RelatedSpan[];
  readonly hints: readonly string[];
}

export interface DiagnosticExtras {
  readonly label?: string;
  readonly related?: readonly RelatedSpan[];
  readonly hints?: readonly string[];
}

/** An error, by its code. */
export function error(code: ErrorCode, file: SourceFile, span: Span, message: string, extra: DiagnosticExtras = {}): Diagnostic {
  return made(code, 'error', file, span, message, extra);
}

/** A diagnostic of the table's problem, with its code and severity. */
export function diagnosticOf(problem: Problem, file: SourceFile, span: Span, message: string, extra: DiagnosticExtras = {}): Diagnostic {
  const { code, severity } = CODES[problem];
  return made(code, severity, file, span, message, extra);
}

function made(code: DiagnosticCode, severity: Severity, file: SourceFile, span: Span, message: string, extra: DiagnosticExtras): Diagnostic {
  return {
    code,
    severity,
    message,
    file,
    span,
    ...(extra.label === undefined ? {} : { label: extra.label }),
    related: extra.related ?? [],
    hints: extra.hints ?? [],
  };
}

/** Thrown by a stage that cannot go on; carries every diagnostic found so far. */
export class DiagnosticError extends Error {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join('\n'));
    this.name = 'DiagnosticError';
  }
}
