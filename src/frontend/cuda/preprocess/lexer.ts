/**
 * Source text to preprocessing tokens (C11 6.4 / C++17 [lex.pptoken]).
 *
 * A file's text is first normalised (byte-order mark dropped, CRLF and lone CR
 * made '\n': lines and columns stay those of the file as written), and every
 * offset the preprocessor reports is into that normalised text. Line splices
 * (backslash-newline) are removed for lexing only: the lexer reads the spliced
 * text and maps each token back to the offsets it covers in the normalised
 * text, so positions stay exact. Comments and whitespace are not tokens; a
 * token records where the gap before it began, so verbatim output can copy
 * the gap too.
 */
import { lexedTok, punctuatorLength, type Tok, type TokKind } from './tokens.js';

/** The text offsets refer to: no byte-order mark, '\n' line ends only. */
export function normaliseText(raw: string): string {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  return text.indexOf('\r') < 0 ? text : text.replace(/\r\n?/g, '\n');
}

export interface LexedFile {
  readonly id: number;
  /** the normalised text */
  readonly text: string;
  /** the text without line splices */
  readonly spliced: string;
  /** offsets in `spliced` where a splice was removed, ascending (repeated for consecutive splices) */
  readonly splices: readonly number[];
}

export function lexedFile(id: number, text: string): LexedFile {
  if (text.indexOf('\\\n') < 0) return { id, text, spliced: text, splices: [] };
  const parts: string[] = [];
  const splices: number[] = [];
  let from = 0;
  let length = 0;
  for (let at = text.indexOf('\\\n'); at >= 0; at = text.indexOf('\\\n', from)) {
    parts.push(text.slice(from, at));
    length += at - from;
    splices.push(length);
    from = at + 2;
  }
  parts.push(text.slice(from));
  return { id, text, spliced: parts.join(''), splices };
}

/** The offset in the normalised text of the character at `i` in the spliced text. */
export function rawOffset(file: LexedFile, i: number): number {
  const s = file.splices;
  if (s.length === 0 || i < s[0]!) return i;
  let lo = 0;
  let hi = s.length; // count of splices at or before i
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! <= i) lo = mid + 1;
    else hi = mid;
  }
  return i + 2 * lo;
}

const RAW_PREFIXES: ReadonlySet<string> = new Set(['R', 'LR', 'uR', 'UR', 'u8R']);
const ENCODING_PREFIXES: ReadonlySet<string> = new Set(['L', 'u', 'U', 'u8']);

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c >= 128;
}

function isIdentChar(c: number): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

export class Lexer {
  /** position in the spliced text */
  private pos = 0;
  /** end of the previous token in the normalised text */
  private gapStart = 0;

  constructor(
    readonly file: LexedFile,
    /** told of a `/*` with no `*​/`, by its offsets in the normalised text */
    private readonly unterminatedComment: (start: number, end: number) => void,
  ) {}

  next(): Tok {
    const s = this.file.spliced;
    const n = s.length;
    const gapSpliced = this.pos;
    let i = this.pos;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9 || c === 12 || c === 11 || c === 13) i++;
      else if (c === 47 && s.charCodeAt(i + 1) === 47) {
        const nl = s.indexOf('\n', i);
        i = nl < 0 ? n : nl;
      } else if (c === 47 && s.charCodeAt(i + 1) === 42) {
        const close = s.indexOf('*/', i + 2);
        if (close < 0) {
          this.unterminatedComment(rawOffset(this.file, i), this.file.text.length);
          i = n;
        } else i = close + 2;
      } else break;
    }
    const space = i > gapSpliced;
    if (i >= n) {
      this.pos = n;
      return this.make('eof', i, i, space);
    }
    const c = s.charCodeAt(i);
    if (c === 10) return this.make('newline', i, i + 1, space);
    if (isIdentStart(c)) {
      let j = i + 1;
      while (j < n && isIdentChar(s.charCodeAt(j))) j++;
      const q = s.charCodeAt(j);
      if (q === 34 || q === 39) {
        const prefix = s.slice(i, j);
        if (q === 34 && RAW_PREFIXES.has(prefix)) {
          const end = this.rawStringEnd(j);
          if (end > 0) return this.make('string', i, end, space);
        }
        if (ENCODING_PREFIXES.has(prefix)) return this.quoted(i, j, space);
      }
      return this.make('ident', i, j, space);
    }
    if (isDigit(c) || (c === 46 && isDigit(s.charCodeAt(i + 1)))) return this.make('number', i, this.numberEnd(i), space);
    if (c === 34 || c === 39) return this.quoted(i, i, space);
    let length = punctuatorLength(s, i);
    // C++: `<::` not followed by `:` or `>` is `<` then `::` (for `a<::b>`), not the digraph `<:`
    if (length === 2 && s.startsWith('<:', i) && s[i + 2] === ':' && s[i + 3] !== ':' && s[i + 3] !== '>') length = 1;
    if (length > 0) return this.make('punct', i, i + length, space);
    return this.make('other', i, i + 1, space);
  }

  private make(kind: TokKind, start: number, end: number, space: boolean): Tok {
    const file = this.file;
    const rawStart = rawOffset(file, start);
    const rawEnd = end > start ? rawOffset(file, end - 1) + 1 : rawStart;
    const tok = lexedTok(kind, file.spliced.slice(start, end), file.id, rawStart, rawEnd, this.gapStart, space);
    this.pos = end;
    this.gapStart = rawEnd;
    return tok;
  }

  /** A pp-number: a digit (or `.` digit) then digits, letters, `_`, `.`, exponent signs and `'` separators. */
  private numberEnd(i: number): number {
    const s = this.file.spliced;
    let j = i + 1;
    for (;;) {
      const c = s.charCodeAt(j);
      if ((c === 43 || c === 45) && /[eEpP]/.test(s[j - 1]!)) j++;
      else if (isIdentChar(c) || c === 46) j++;
      else if (c === 39 && isIdentChar(s.charCodeAt(j + 1))) j += 2;
      else return j;
    }
  }

  /** A character or string literal whose quote is at `q` (after a prefix starting at `i`). */
  private quoted(i: number, q: number, space: boolean): Tok {
    const s = this.file.spliced;
    const quote = s.charCodeAt(q);
    let j = q + 1;
    for (;;) {
      if (j >= s.length || s.charCodeAt(j) === 10) {
        // unterminated: the quote and the rest of its line are one token, never expanded
        return this.make('other', i, j, space);
      }
      const c = s.charCodeAt(j);
      if (c === 92) j += 2;
      else if (c === quote) break;
      else j++;
    }
    j++;
    while (j < s.length && isIdentChar(s.charCodeAt(j))) j++; // a user-defined literal suffix
    return this.make(quote === 34 ? 'string' : 'char', i, j, space);
  }

  /** The end of a raw string literal whose quote is at `q`, or 0 when there is none. */
  private rawStringEnd(q: number): number {
    const s = this.file.spliced;
    const open = s.indexOf('(', q + 1);
    if (open < 0 || open - q - 1 > 16) return 0;
    const delimiter = s.slice(q + 1, open);
    if (/[\s()\\"]/.test(delimiter)) return 0;
    const close = s.indexOf(`)${delimiter}"`, open + 1);
    return close < 0 ? 0 : close + delimiter.length + 2;
  }
}

/** The tokens of a string on its own (for `##` results and tests), without the final eof. */
export function lexString(text: string): Tok[] {
  const lexer = new Lexer(lexedFile(-1, text), () => undefined);
  const out: Tok[] = [];
  for (let t = lexer.next(); t.kind !== 'eof'; t = lexer.next()) out.push(t);
  return out;
}
