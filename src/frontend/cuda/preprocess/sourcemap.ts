/**
 * The output text and its map back to the files.
 *
 * The unit is built from segments: text copied verbatim from a file (one
 * segment maps each character to the character it was copied from; adjacent
 * copies merge), and tokens a macro produced (a segment per token, mapped to
 * the macro use it came from). Spaces and newlines the preprocessor inserts
 * between tokens belong to no segment.
 */
import { usesOf, wouldPaste as wouldJoin, type Chain, type Tok } from './tokens.js';
import type { FileSpan, Location, MacroUse } from './types.js';

/**
 * Where a token came from: its own span when it was written outside any macro
 * body (verbatim text, or a macro argument written at the outermost use), else
 * the outermost use, with the span it was written at as `spelling`.
 */
export function tokenLocation(t: Tok): Location {
  const chain = t.chain;
  if (chain === null) return { file: t.file, start: t.start, end: t.end, expansions: [] };
  const outer = chain.outermost;
  const expansions = usesOf(chain);
  if (!t.synthetic && t.file === outer.file && t.start >= outer.start && t.end <= outer.end) {
    return { file: t.file, start: t.start, end: t.end, expansions };
  }
  const at = { file: outer.file, start: outer.start, end: outer.end, expansions };
  return t.synthetic ? at : { ...at, spelling: { file: t.file, start: t.start, end: t.end } };
}

interface Segment {
  readonly outStart: number;
  outEnd: number;
  readonly file: number;
  readonly start: number;
  /** the macro-produced token, or null for a verbatim copy */
  readonly tok: Tok | null;
}

export class OutputBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  /** the last token written, or '' when the output ends in whitespace */
  private lastToken = '';
  private readonly segments: Segment[] = [];
  /** text copied but not yet added to `parts`: runs of a file are sliced once */
  private runText = '';
  private runStart = 0;
  private runEnd = 0;

  /** `fileText[start, end)` of `file`, copied (one character for one); `lastToken` is the token it ends with, if any. */
  copy(file: number, fileText: string, start: number, end: number, lastToken: string): void {
    if (end <= start) return;
    if (this.runText === fileText && this.runEnd === start && this.continues(file, start)) this.runEnd = end;
    else this.startRun(fileText, start, end);
    this.mapOneToOne(file, start, end - start);
    this.lastToken = lastToken;
  }

  /** `fileText[start, end)` of `file` as spaces, newlines kept: mapped one for one like a copy. */
  blank(file: number, fileText: string, start: number, end: number): void {
    if (end <= start) return;
    this.flushRun();
    const newline = fileText.indexOf('\n', start);
    // mostly one line: spaces, then its newline
    if (newline < 0 || newline >= end - 1) this.parts.push(' '.repeat(end - start - (newline === end - 1 ? 1 : 0)) + (newline === end - 1 ? '\n' : ''));
    else this.parts.push(fileText.slice(start, end).replace(/[^\n]/g, ' '));
    this.mapOneToOne(file, start, end - start);
    this.lastToken = '';
  }

  private mapOneToOne(file: number, start: number, length: number): void {
    if (this.continues(file, start)) this.segments[this.segments.length - 1]!.outEnd += length;
    else this.segments.push({ outStart: this.length, outEnd: this.length + length, file, start, tok: null });
    this.length += length;
  }

  /**
   * A verbatim token with the gap before it. Where it does not continue the
   * text written before it (it follows a macro's output), a space goes first
   * if it would otherwise join the previous token.
   */
  verbatimToken(file: number, fileText: string, gapStart: number, t: Tok): void {
    if (gapStart === t.start && !this.continues(file, gapStart) && wouldJoin(this.lastToken, t.text)) this.unmapped(' ');
    this.copy(file, fileText, gapStart, t.end, t.text);
  }

  /** Whether the output ends with a copy of `file` up to `offset`. */
  private continues(file: number, offset: number): boolean {
    const last = this.segments[this.segments.length - 1];
    return last !== undefined && last.tok === null && last.outEnd === this.length && last.file === file && last.start + (last.outEnd - last.outStart) === offset;
  }

  private startRun(fileText: string, start: number, end: number): void {
    this.flushRun();
    this.runText = fileText;
    this.runStart = start;
    this.runEnd = end;
  }

  private flushRun(): void {
    if (this.runEnd > this.runStart) this.parts.push(this.runText.slice(this.runStart, this.runEnd));
    this.runStart = this.runEnd = 0;
  }

  /** A token a macro produced. */
  expanded(t: Tok): void {
    if (this.lastToken !== '' && (t.space || wouldJoin(this.lastToken, t.text))) this.unmapped(' ');
    this.segments.push({ outStart: this.length, outEnd: this.length + t.text.length, file: t.file, start: t.start, tok: t });
    this.write(t.text);
    this.lastToken = t.text;
  }

  /** Whitespace mapped to nothing. */
  unmapped(text: string): void {
    if (text === '') return;
    this.write(text);
    this.lastToken = '';
  }

  private write(text: string): void {
    this.flushRun();
    this.parts.push(text);
    this.length += text.length;
  }

  finish(): { readonly text: string; readonly locate: (start: number, end: number) => Location } {
    this.flushRun();
    const text = this.parts.join('');
    const segments = this.segments;
    return { text, locate: (start, end) => locateIn(segments, text.length, start, end) };
  }
}

/** The index of the last segment starting at or before `offset`, or -1. */
function segmentAtOrBefore(segments: readonly Segment[], offset: number): number {
  let lo = 0;
  let hi = segments.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid]!.outStart <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

interface Piece {
  readonly at: Location;
  /** for a macro-produced token: where it was written, and the expansion it belongs to */
  readonly written: FileSpan | null;
  readonly chain: Chain | null;
}

function pieceOf(seg: Segment, from: number, to: number): Piece {
  if (seg.tok === null) {
    const start = seg.start + (from - seg.outStart);
    return { at: { file: seg.file, start, end: start + (to - from), expansions: [] }, written: null, chain: null };
  }
  const t = seg.tok;
  return { at: tokenLocation(t), written: t.synthetic ? null : { file: t.file, start: t.start, end: t.end }, chain: t.chain };
}

function emptyAt(at: Location, atEnd: boolean): Location {
  const offset = atEnd ? at.end : at.start;
  const { spelling: _spelling, ...rest } = at;
  return { ...rest, start: offset, end: offset };
}

function locateIn(segments: readonly Segment[], length: number, start: number, end: number): Location {
  const from = Math.max(0, Math.min(Number.isFinite(start) ? start : 0, length));
  const to = Math.max(from, Math.min(Number.isFinite(end) ? end : from, length));
  const i = segmentAtOrBefore(segments, from);
  const pieces: Piece[] = [];
  for (let k = Math.max(i, 0); k < segments.length && segments[k]!.outStart < to; k++) {
    const seg = segments[k]!;
    if (seg.outEnd <= from) continue;
    pieces.push(pieceOf(seg, Math.max(from, seg.outStart), Math.min(to, seg.outEnd)));
  }
  if (pieces.length === 0) {
    // an empty range, or one inside inserted whitespace: the point where it is
    if (i >= 0) {
      const seg = segments[i]!;
      return seg.outEnd > from ? emptyAt(pieceOf(seg, from, from).at, false) : emptyAt(pieceOf(seg, seg.outEnd, seg.outEnd).at, true);
    }
    const next = segments[0];
    return next === undefined ? { file: 0, start: 0, end: 0, expansions: [] } : emptyAt(pieceOf(next, next.outStart, next.outStart).at, false);
  }
  return joinPieces(pieces);
}

function joinPieces(pieces: readonly Piece[]): Location {
  const first = pieces[0]!;
  if (pieces.length === 1) return first.at;
  const file = first.at.file;
  let start = first.at.start;
  let end = first.at.end;
  let expansions = first.at.expansions;
  for (const p of pieces) {
    if (p.at.file === file) {
      start = Math.min(start, p.at.start);
      end = Math.max(end, p.at.end);
    }
    expansions = commonOuter(expansions, p.at.expansions);
  }
  const spelling = commonSpelling(pieces);
  const at = { file, start, end, expansions };
  return spelling === null || (spelling.file === file && spelling.start === start && spelling.end === end) ? at : { ...at, spelling };
}

/** The outermost uses two lists share. */
function commonOuter(a: readonly MacroUse[], b: readonly MacroUse[]): readonly MacroUse[] {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n === a.length ? a : a.slice(a.length - n);
}

/** Where tokens were written, when all were written in one place: one macro body, or one argument. */
function commonSpelling(pieces: readonly Piece[]): FileSpan | null {
  const first = pieces[0]!;
  if (first.written === null || first.chain === null) return null;
  let start = first.written.start;
  let end = first.written.end;
  for (const p of pieces) {
    if (p.written === null || p.chain !== first.chain || p.written.file !== first.written.file) return null;
    start = Math.min(start, p.written.start);
    end = Math.max(end, p.written.end);
  }
  return { file: first.written.file, start, end };
}
