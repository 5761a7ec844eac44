/**
 * A diagnostic is data: a code, a message, the span it is about, related spans
 * and hints. One printer (render.ts) turns it into text; JSON output reuses the
 * same data.
 */
import type { SourceFile, Span } from '../core/source.js';

export type Severity = 'error' | 'warning' | 'note';

export interface RelatedSpan {
  readonly span: Span;
  readonly message: string;
}

export interface Diagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly file: SourceFile;
  readonly span: Span;
  readonly label?: string;
  readonly related: readonly RelatedSpan[];
  readonly hints: readonly string[];
}

export function error(
  code: string,
  file: SourceFile,
  span: Span,
  message: string,
  extra: { label?: string; related?: readonly RelatedSpan[]; hints?: readonly string[] } = {},
): Diagnostic {
  return {
    code,
    severity: 'error',
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
