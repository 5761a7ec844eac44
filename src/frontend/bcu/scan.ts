/**
 * The lexical pass before Ohm, in one linear loop:
 *
 * - comments and runs of whitespace become one space each: Ohm memoises every
 *   character it reads, so a long comment cost seconds and hundreds of MB
 *   (a 1 MB comment took 25 s), and indentation is a large share of a file;
 * - a control character outside comments is an error (the grammar would read
 *   it as a space, hiding it from whoever reads the file), and so is an
 *   unterminated comment;
 * - brackets nested deeper than MAX_NESTING are refused: Ohm recurses on each,
 *   and so does every later stage;
 * - more than MAX_CODE characters of code are refused: Ohm reads about 75 KB
 *   of dense code a second, and its memo tables take hundreds of MB per MB.
 *
 * Ohm then matches the compact text, whose offsets map back to the file's.
 */
import { BYTE_ORDER_MARK, type SourceFile } from '../../core/source.js';
import { DiagnosticError, error, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { shownChar } from '../../diagnostics/shown.js';
import { lastIndexAtMost } from '../../util/search.js';

/** How deep brackets (`(`, `[`, `{`) may nest: clang's default bracket depth. */
export const MAX_NESTING = 128;
/** Characters of code, comments and white space left out (each run of them counts one). */
export const MAX_CODE = 1024 * 1024;

export interface Scanned {
  /** the text Ohm matches: the file with comments and whitespace runs as one space each */
  readonly code: string;
  /** the file offset of an offset of `code` (its end included) */
  readonly fileOffset: (offset: number) => number;
}

const OPENERS = '([{';
const CLOSERS = ')]}';

/** Spaces, tabs, line breaks, vertical tab and form feed: C's white space. */
function isWhite(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** C0 controls other than white space, and DEL. */
function isControl(c: number): boolean {
  return (c < 32 && !isWhite(c)) || c === 127;
}

export function scanned(file: SourceFile): Scanned {
  const text = file.text;
  const pieces: string[] = [];
  // code offset and file offset where each run of kept text (or each space standing for a gap) starts
  const codeStarts: number[] = [];
  const fileStarts: number[] = [];
  let codeLength = 0;
  const open: number[] = [];
  let i = text.startsWith(BYTE_ORDER_MARK) ? 1 : 0;
  let gapStart = 0;
  let inGap = i > 0;
  let runStart = -1;
  const endRun = (at: number): void => {
    if (runStart < 0) return;
    codeStarts.push(codeLength);
    fileStarts.push(runStart);
    pieces.push(text.slice(runStart, at));
    codeLength += at - runStart;
    runStart = -1;
  };
  const endGap = (): void => {
    if (!inGap) return;
    codeStarts.push(codeLength);
    fileStarts.push(gapStart);
    pieces.push(' ');
    codeLength += 1;
    inGap = false;
  };
  const startGap = (at: number): void => {
    endRun(at);
    if (!inGap) {
      inGap = true;
      gapStart = at;
    }
  };
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isWhite(c)) {
      startGap(i);
      i++;
      continue;
    }
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      startGap(i);
      i = lineEnd(text, i);
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42 /* * */) {
      startGap(i);
      const close = text.indexOf('*/', i + 2);
      if (close < 0) throw new DiagnosticError([unterminatedComment(file, i)]);
      i = close + 2;
      continue;
    }
    if (isControl(c)) throw new DiagnosticError([controlCharacter(file, i)]);
    endGap();
    if (runStart < 0) runStart = i;
    const ch = text[i]!;
    if (OPENERS.includes(ch)) {
      open.push(i);
      if (open.length > MAX_NESTING) throw new DiagnosticError([tooDeep(file, open)]);
    } else if (CLOSERS.includes(ch)) {
      open.pop();
    }
    i++;
  }
  endRun(text.length);
  endGap();
  codeStarts.push(codeLength);
  fileStarts.push(text.length);
  const fileOffset = (offset: number): number => {
    const piece = lastIndexAtMost(codeStarts, offset);
    return Math.min(fileStarts[piece]! + (offset - codeStarts[piece]!), text.length);
  };
  if (codeLength > MAX_CODE) throw new DiagnosticError([tooLarge(file, fileOffset(MAX_CODE))]);
  return { code: pieces.join(''), fileOffset };
}

/** The offset of the line break that ends a line comment starting at `from` (or the end of the text). */
function lineEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i;
  }
  return text.length;
}

/**
 * The brackets still open at `offset` of a scanned text, innermost last; a
 * closer that does not match pops nothing (the parser reports it).
 */
export function openBrackets(code: string, offset: number): { readonly bracket: string; readonly at: number }[] {
  const open: { bracket: string; at: number }[] = [];
  for (let i = 0; i < offset && i < code.length; i++) {
    const ch = code[i]!;
    if (OPENERS.includes(ch)) open.push({ bracket: ch, at: i });
    else if (CLOSERS.includes(ch) && open.at(-1)?.bracket === OPENERS[CLOSERS.indexOf(ch)]) open.pop();
  }
  return open;
}

export function closerOf(opener: string): string {
  return CLOSERS[OPENERS.indexOf(opener)] ?? opener;
}

function controlCharacter(file: SourceFile, at: number): Diagnostic {
  const ch = file.text[at]!;
  return error('E0002', file, { start: at, end: at + 1 }, `control character '${shownChar(ch)}' in the code`, {
    label: 'not allowed here',
    hints: ['only spaces, tabs and line breaks may separate tokens; control characters may appear in comments'],
  });
}

function unterminatedComment(file: SourceFile, at: number): Diagnostic {
  return error('E0003', file, { start: at, end: at + 2 }, 'unterminated block comment', {
    label: 'the comment opened here has no `*/`',
    hints: ['block comments end with `*/` and do not nest'],
  });
}

function tooLarge(file: SourceFile, at: number): Diagnostic {
  return error('E0006', file, { start: at, end: at + 1 }, `more than ${MAX_CODE / 1024 / 1024} MiB of code in one file (comments and white space left out)`, {
    label: 'the limit is reached here',
    hints: ['put the kernels in several files'],
  });
}

function tooDeep(file: SourceFile, open: readonly number[]): Diagnostic {
  const at = open[open.length - 1]!;
  return error('E0004', file, { start: at, end: at + 1 }, `brackets nested too deep (limit ${MAX_NESTING})`, {
    label: `bracket ${open.length} of those open here`,
    related: [{ span: { start: open[0]!, end: open[0]! + 1 }, message: 'the outermost opened here' }],
    hints: ['bind a part to a name with `let`, or split the kernel'],
  });
}
