/**
 * A source file and the conversions from offsets to line:column, computed
 * once per file. A front end may build the core from a text of its own making
 * (CUDA's preprocessed translation unit); such a file carries its origin map,
 * and whatever shows a position to a user asks `located` for the original.
 */

import { lastIndexAtMost } from '../util/search.js';

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

/** A byte-order mark opens the text of some editors' files; it is not a column. */
export const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Lines end at `\n`, `\r\n` or a lone `\r` (old Mac files), as editors read
 * them; a leading byte-order mark is not part of line 1.
 */
export function sourceFile(path: string, text: string): SourceFile {
  const lineStarts = [text.startsWith(BYTE_ORDER_MARK) ? 1 : 0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) lineStarts.push(i + 1);
  }
  return { path, text, lineStarts };
}

export function positionAt(file: SourceFile, offset: number): Position {
  const line = lastIndexAtMost(file.lineStarts, offset);
  return { line: line + 1, column: Math.max(1, offset - file.lineStarts[line]! + 1) };
}

/** The text of a line (1-based), without its line break. */
export function lineText(file: SourceFile, line: number): string {
  const start = file.lineStarts[line - 1];
  if (start === undefined) return '';
  const next = file.lineStarts[line] ?? file.text.length;
  return file.text.slice(start, next).replace(/\r?\n$|\r$/, '');
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

/** `line:column` of a span's start in the file the user wrote (`path:line:column` in another one, a header), never in a preprocessed text. */
export function userLineColumn(file: SourceFile, span: Span): string {
  const u = userSpan(file, span);
  return u.file.path === file.path ? `${u.start.line}:${u.start.column}` : `${u.file.path}:${u.start.line}:${u.start.column}`;
}
