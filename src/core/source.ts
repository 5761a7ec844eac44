/**
 * A source file and the conversions from offsets to line:column, computed
 * once per file. A front end may build the core from a text of its own making
 * (CUDA's preprocessed translation unit); such a file carries its origin map,
 * and whatever shows a position to a user asks `located` for the original.
 */

export interface Span {
  readonly start: number;
  readonly end: number;
}

export interface SourceFile {
  readonly path: string;
  readonly text: string;
  readonly lineStarts: readonly number[];
  /** where a span of this text came from, when a front end made the text from other files */
  readonly origin?: (span: Span) => Located;
}

/** A macro use whose expansion produced some text. */
export interface MacroUse {
  readonly name: string;
  readonly file: SourceFile;
  readonly span: Span;
}

/** A span in a file the user wrote, and the macro uses it was expanded from, outermost last. */
export interface Located {
  readonly file: SourceFile;
  readonly span: Span;
  readonly expansions: readonly MacroUse[];
}

/** The span in the file the user wrote that a span of `file` stands for. */
export function located(file: SourceFile, span: Span): Located {
  return file.origin ? file.origin(span) : { file, span, expansions: [] };
}

export interface Position {
  /** 1-based */
  readonly line: number;
  /** 1-based, in UTF-16 code units as editors count them */
  readonly column: number;
}

export function sourceFile(path: string, text: string): SourceFile {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) lineStarts.push(i + 1);
  }
  return { path, text, lineStarts };
}

export function positionAt(file: SourceFile, offset: number): Position {
  let lo = 0;
  let hi = file.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.lineStarts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - file.lineStarts[lo]! + 1 };
}

export function spanText(file: SourceFile, span: Span): string {
  return file.text.slice(span.start, span.end);
}

export function joinSpans(a: Span, b: Span): Span {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

/** A span as the user sees it: in the file they wrote, with its line:column range and text. */
export interface UserSpan extends Located {
  readonly start: Position;
  /** exclusive */
  readonly end: Position;
  readonly text: string;
}

/** Where a span of `file` is for the user (through the file's origin map, if it has one). */
export function userSpan(file: SourceFile, span: Span): UserSpan {
  const at = located(file, span);
  return { ...at, start: positionAt(at.file, at.span.start), end: positionAt(at.file, at.span.end), text: spanText(at.file, at.span) };
}
