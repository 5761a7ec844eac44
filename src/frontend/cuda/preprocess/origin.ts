/**
 * The preprocessor's results in the core's terms: a SourceFile for each file
 * read, the unit as a SourceFile whose origin map is `locate`, and
 * diagnostics the one printer (src/diagnostics/render.ts) can show.
 */
import { positionAt, sourceFile, type Located, type SourceFile, type Span } from '../../../core/source.js';
import type { Diagnostic, RelatedSpan } from '../../../diagnostics/diagnostic.js';
import type { Location, PreprocessDiagnostic, Preprocessed } from './types.js';

export interface CoreSources {
  /** the unit: its spans map back to `files` through `origin` */
  readonly unit: SourceFile;
  /** `files[i]` for `Location.file === i` */
  readonly files: readonly SourceFile[];
}

export function coreSources(pp: Preprocessed): CoreSources {
  const files = pp.files.map((f) => sourceFile(f.path, f.text));
  const origin = (span: Span): Located => locatedOf(pp.locate(span.start, span.end), files);
  const unit: SourceFile = { ...sourceFile(pp.files[0]!.path, pp.text), origin };
  return { unit, files };
}

export function locatedOf(loc: Location, files: readonly SourceFile[]): Located {
  return {
    file: files[loc.file]!,
    span: { start: loc.start, end: loc.end },
    expansions: loc.expansions.map((u) => ({ name: u.name, file: files[u.file]!, span: { start: u.start, end: u.end } })),
  };
}

/**
 * A preprocessor diagnostic for the printer: the macro uses it lies in, and
 * where the text was written in a macro's body, become related spans ("in
 * expansion of TILE"); what lies in another file than the diagnostic, a hint
 * naming its file:line:column.
 */
export function coreDiagnostic(d: PreprocessDiagnostic, files: readonly SourceFile[]): Diagnostic {
  const file = files[d.at.file]!;
  const related: RelatedSpan[] = [];
  const hints: string[] = [];
  const place = (at: { readonly file: number; readonly start: number; readonly end: number }, message: string): void => {
    if (at.file === d.at.file) related.push({ span: { start: at.start, end: at.end }, message });
    else {
      const where = files[at.file]!;
      const p = positionAt(where, at.start);
      hints.push(`${message}: ${where.path}:${p.line}:${p.column}`);
    }
  };
  for (const use of d.at.expansions) {
    if (use.file !== d.at.file || use.start !== d.at.start || use.end !== d.at.end) place(use, `in expansion of ${use.name}`);
  }
  if (d.at.spelling !== undefined) place(d.at.spelling, 'written here');
  for (const r of d.related) place(r.at, r.message);
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    file,
    span: { start: d.at.start, end: d.at.end },
    ...(d.at.expansions.length > 0 ? { label: `in expansion of ${d.at.expansions[d.at.expansions.length - 1]!.name}` } : {}),
    related,
    hints: [...hints, ...d.hints],
  };
}
