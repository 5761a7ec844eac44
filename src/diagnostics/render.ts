/**
 * The one printer of diagnostics, rustc/tsc style:
 *
 *   error[E0103]: unknown variable 'y'
 *    --> k.bcu:4:9
 *     3 |   let x = 1 in
 *   > 4 |   A[y] := x
 *       |     ^ not in scope
 *   hint: declare it with `let y = … in`
 *
 * Reports reuse the span frames (framedSpan, framedSpans), so a race shows
 * both of its accesses the way an error shows its span.
 */
import { codeFrameColumns, type BabelCodeFrameOptions } from '@babel/code-frame';
import { lineText, positionAt, type Position, type SourceFile, type Span } from '../core/source.js';
import type { Diagnostic, Severity } from './diagnostic.js';
import { assertNever } from '../util/assert.js';
import { colorsOf, type Colors } from './colour.js';
import { shownLine, shownText } from './shown.js';

export { colorsOf, colourWanted, type Colors } from './colour.js';

export interface Marked {
  readonly span: Span;
  readonly label?: string;
}

/** `path:line:col` of the span's start, as editors and terminals link it. */
export function locationOf(file: SourceFile, span: Span): string {
  const p = positionAt(file, span.start);
  return `${shownText(file.path)}:${p.line}:${p.column}`;
}

/** `line:col` of the span's start. */
export function lineColOf(file: SourceFile, span: Span): string {
  const p = positionAt(file, span.start);
  return `${p.line}:${p.column}`;
}

/** Start and (exclusive) end; an empty span still gets one caret. */
function endpoints(file: SourceFile, span: Span): { start: Position; end: Position } {
  const start = positionAt(file, span.start);
  let end = positionAt(file, Math.max(span.end, span.start));
  // A span that takes its line's newline would otherwise mark an empty next line.
  if (end.column === 1 && end.line > start.line) {
    const previous = end.line - 1;
    end = { line: previous, column: lineText(file, previous).length + 1 };
  }
  const empty = end.line === start.line && end.column <= start.column;
  return { start, end: empty ? { line: start.line, column: start.column + 1 } : end };
}

/** Colours the caret rows of a plain frame: babel would otherwise highlight the code as JavaScript. */
function colouredFrame(frame: string, c: Colors, caret: (s: string) => string): string {
  return frame
    .split('\n')
    .map((line) => {
      const marker = /^(\s*\|\s*)([\^\-]+)(.*)$/.exec(line);
      if (marker) return `${c.dim(marker[1]!)}${caret(marker[2]!)}${caret(marker[3]!)}`;
      const code = /^(>?)(\s*\d+ \|)(.*)$/.exec(line);
      if (code) return `${caret(code[1]!)}${c.dim(code[2]!)}${code[3]!}`;
      return line;
    })
    .join('\n');
}

/** Lines longer than this are shown in part, around what is marked. */
const SHOWN_WIDTH = 160;
/** How much of a long line is shown before the first mark. */
const SHOWN_BEFORE = 60;

/**
 * A line of the file as a frame shows it (hidden characters replaced, a long
 * line cut to a window holding column `from`, `…` where cut), and how many
 * columns the window moved its text left.
 */
function frameLine(file: SourceFile, line: number, from: number): { text: string; shift: number } {
  const text = lineText(file, line);
  if (text.length <= SHOWN_WIDTH) return { text: shownLine(text), shift: 0 };
  const begin = Math.max(0, Math.min(from - 1 - SHOWN_BEFORE, text.length - SHOWN_WIDTH));
  const head = begin > 0 ? '…' : '';
  const tail = begin + SHOWN_WIDTH < text.length ? '…' : '';
  return { text: `${head}${shownLine(text.slice(begin, begin + SHOWN_WIDTH))}${tail}`, shift: begin - head.length };
}

/** A code frame with one span marked and labelled. */
export function framedSpan(file: SourceFile, span: Span, label: string | undefined, colour: boolean, caret?: (s: string) => string): string {
  const { start, end } = endpoints(file, span);
  const top = Math.max(1, start.line - 1);
  const bottom = Math.min(file.lineStarts.length, end.line + 1);
  const lines = Array.from({ length: bottom - top + 1 }, (_, i) => frameLine(file, top + i, top + i === start.line ? start.column : 1));
  const column = (p: Position): number => {
    const l = lines[p.line - top]!;
    return Math.min(Math.max(1, p.column - l.shift), l.text.length + 1);
  };
  // babel numbers the lines it is given from `startLine` (7.24 and later; its type declarations predate it)
  const options: BabelCodeFrameOptions & { readonly startLine: number } = {
    highlightCode: false,
    startLine: top,
    linesAbove: 1,
    linesBelow: 1,
    ...(label === undefined ? {} : { message: shownText(label) }),
  };
  const frame = codeFrameColumns(
    lines.map((l) => l.text).join('\n'),
    { start: { line: start.line, column: column(start) }, end: { line: end.line, column: Math.max(column(end), start.line === end.line ? column(start) + 1 : 1) } },
    options,
  );
  const c = colorsOf(colour);
  return colour ? colouredFrame(frame, c, caret ?? ((s) => c.bold(c.red(s)))) : frame;
}

/** Marks further apart than this get a frame each. */
const NEARBY_LINES = 4;

/**
 * A code frame with several spans marked: one frame when they lie within a few
 * lines of each other (both accesses of a race, usually), else one frame per
 * span. A span running over several lines is marked on its first line.
 */
export function framedSpans(file: SourceFile, marks: readonly Marked[], colour: boolean): string {
  if (marks.length === 0) return '';
  if (marks.length === 1) return framedSpan(file, marks[0]!.span, marks[0]!.label, colour);
  const lines = marks.map((m) => positionAt(file, m.span.start).line);
  const first = Math.min(...lines);
  const last = Math.max(...lines);
  if (last - first > NEARBY_LINES) return marks.map((m) => framedSpan(file, m.span, m.label, colour)).join('\n');

  const c = colorsOf(colour);
  const caret = (s: string): string => c.bold(c.red(s));
  const top = Math.max(1, first - 1);
  const bottom = Math.min(file.lineStarts.length, last + 1);
  const width = String(bottom).length;
  const out: string[] = [];
  for (let n = top; n <= bottom; n++) {
    const here = marks.filter((_, i) => lines[i] === n);
    const spans = here.map((m) => endpoints(file, m.span));
    const { text, shift } = frameLine(file, n, Math.min(...spans.map((e) => e.start.column)));
    const gutter = `${String(n).padStart(width)} |`;
    out.push(`${here.length > 0 ? caret('>') : ' '} ${c.dim(gutter)}${text === '' ? '' : ` ${text}`}`);
    if (here.length === 0) continue;
    // Several marks on one line share a caret row; labels follow left to right.
    const cols = here
      .map((m, i) => {
        const { start, end } = spans[i]!;
        const stop = end.line === start.line ? end.column - shift : text.length + 1;
        const from = Math.min(Math.max(1, start.column - shift), text.length + 1);
        return { from, to: Math.min(Math.max(stop, from + 1), text.length + 2), label: m.label };
      })
      .sort((a, b) => a.from - b.from);
    let row = '';
    for (const m of cols) {
      if (row.length >= m.from) row += ' ';
      // tabs in the code stay tabs under it, so the carets line up
      row = (row + text.slice(row.length, m.from - 1).replace(/[^\t]/g, ' ')).padEnd(m.from - 1) + '^'.repeat(m.to - m.from);
    }
    const labels = cols.flatMap((m) => (m.label === undefined ? [] : [m.label])).join(', ');
    out.push(`  ${c.dim(`${' '.repeat(width)} |`)} ${caret(row)}${labels === '' ? '' : ` ${caret(labels)}`}`);
  }
  return out.join('\n');
}

function severityText(severity: Severity, c: Colors): (s: string) => string {
  switch (severity) {
    case 'error':
      return (s) => c.bold(c.red(s));
    case 'warning':
      return (s) => c.bold(c.yellow(s));
    case 'note':
      return (s) => c.bold(c.cyan(s));
    default:
      return assertNever(severity);
  }
}

/** One diagnostic: headline, location, frame, related spans, hints; ends with a newline. */
export function renderedDiagnostic(d: Diagnostic, colour: boolean): string {
  const c = colorsOf(colour);
  const paint = severityText(d.severity, c);
  const out: string[] = [];
  out.push(`${paint(`${d.severity}[${d.code}]`)}${c.bold(`: ${shownText(d.message)}`)}`);
  out.push(` ${c.blue('-->')} ${locationOf(d.file, d.span)}`);
  out.push(indent(framedSpan(d.file, d.span, d.label, colour, paint)));
  for (const r of d.related) {
    out.push(`${c.bold(c.cyan('note'))}: ${shownText(r.message)}`);
    out.push(` ${c.blue('-->')} ${locationOf(d.file, r.span)}`);
    out.push(indent(framedSpan(d.file, r.span, undefined, colour, (s) => c.cyan(s))));
  }
  for (const h of d.hints) out.push(`${c.bold(c.green('hint'))}: ${shownText(h)}`);
  return `${out.join('\n')}\n`;
}

export function renderedDiagnostics(ds: readonly Diagnostic[], colour: boolean): string {
  return ds.map((d) => renderedDiagnostic(d, colour)).join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}
