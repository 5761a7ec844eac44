/**
 * Preprocessing tokens, and the chain of macro uses a token was expanded from.
 *
 * A token knows where it was written (its spelling: file and offsets of the
 * normalised file text) and, once a macro has produced it, the chain of uses
 * it came through. Locations (sourcemap.ts) are computed from these two.
 */

export type TokKind =
  | 'ident'
  | 'number'
  | 'char'
  | 'string'
  | 'punct'
  /** a stray character, or an unterminated quote (with the rest of its line) */
  | 'other'
  | 'newline'
  /** a directive line or skipped lines of the file, output as spaces and newlines */
  | 'blank'
  /** the end of an included file */
  | 'end'
  /** the end of the main file (also: the end of a token list) */
  | 'eof'
  /** an empty macro argument next to `##` (C's placemarker), never output */
  | 'placemarker';

/** A macro use while it is being expanded: `end` grows as a use's arguments are read. */
export interface UseSite {
  readonly name: string;
  readonly file: number;
  readonly start: number;
  end: number;
}

/** The macro uses a token came through, innermost first (a linked list shared between tokens). */
export interface Chain {
  readonly use: UseSite;
  readonly outer: Chain | null;
  readonly outermost: UseSite;
  /** the uses as a list, innermost first, made once when first asked for */
  list: readonly UseSite[] | null;
}

export function chainOf(use: UseSite, outer: Chain | null): Chain {
  return { use, outer, outermost: outer === null ? use : outer.outermost, list: null };
}

export function usesOf(chain: Chain | null): readonly UseSite[] {
  if (chain === null) return [];
  if (chain.list === null) {
    const list: UseSite[] = [];
    for (let c: Chain | null = chain; c !== null; c = c.outer) list.push(c.use);
    chain.list = list;
  }
  return chain.list;
}

export interface Tok {
  readonly kind: TokKind;
  /** the spelling, line splices removed */
  readonly text: string;
  /** where it was written (for a synthetic token: the use that made it) */
  readonly file: number;
  readonly start: number;
  readonly end: number;
  /** where the whitespace and comments before it begin (lexed tokens only; else = start) */
  readonly gapStart: number;
  /** whitespace before it */
  readonly space: boolean;
  /** met while its own macro was being expanded: never expanded again (C's "painted blue") */
  readonly painted: boolean;
  /** made by `#`, `##`, `__LINE__` or `__FILE__`: written nowhere */
  readonly synthetic: boolean;
  /** lexed from a file and not yet touched by expansion: output with its gap, exactly as written */
  readonly verbatim: boolean;
  readonly chain: Chain | null;
}

export function lexedTok(kind: TokKind, text: string, file: number, start: number, end: number, gapStart: number, space: boolean): Tok {
  return { kind, text, file, start, end, gapStart, space, painted: false, synthetic: false, verbatim: true, chain: null };
}

/** A copy of `t` as expansion output: not verbatim, with its chain and spacing set. */
export function expandedTok(t: Tok, chain: Chain | null, space: boolean): Tok {
  return { kind: t.kind, text: t.text, file: t.file, start: t.start, end: t.end, gapStart: t.start, space, painted: t.painted, synthetic: t.synthetic, verbatim: false, chain };
}

export function paintedTok(t: Tok): Tok {
  return { ...expandedTok(t, t.chain, t.space), painted: true };
}

/** A token made by the preprocessor, placed at the use `chain.use` (or at `at` outside any macro). */
export function syntheticTok(kind: TokKind, text: string, at: { readonly file: number; readonly start: number; readonly end: number }, chain: Chain | null, space: boolean): Tok {
  return { kind, text, file: at.file, start: at.start, end: at.end, gapStart: at.start, space, painted: false, synthetic: true, verbatim: false, chain };
}

export function isPunct(t: Tok, text: string): boolean {
  return t.kind === 'punct' && t.text === text;
}

export function isHash(t: Tok): boolean {
  return t.kind === 'punct' && (t.text === '#' || t.text === '%:');
}

export function isHashHash(t: Tok): boolean {
  return t.kind === 'punct' && (t.text === '##' || t.text === '%:%:');
}

/** The end of a token stream: of the main file, of an included file, or of a token list. */
export function isEnd(t: Tok): boolean {
  return t.kind === 'eof' || t.kind === 'end';
}

/** Punctuators longest first within each length; digraphs included. */
export const PUNCTUATORS: readonly string[] = [
  '%:%:',
  '...', '<<=', '>>=', '->*', '<=>',
  '->', '++', '--', '<<', '>>', '<=', '>=', '==', '!=', '&&', '||', '*=', '/=', '%=', '+=', '-=', '&=', '^=', '|=', '##', '::', '.*', '<:', ':>', '<%', '%>', '%:',
  '{', '}', '[', ']', '(', ')', '#', ';', ':', '?', '.', '~', '!', '+', '-', '*', '/', '%', '^', '&', '|', '=', '<', '>', ',',
];

/** The punctuators by their first character, longest first. */
const PUNCTUATORS_BY_FIRST: ReadonlyMap<number, readonly string[]> = (() => {
  const byFirst = new Map<number, string[]>();
  for (const p of [...PUNCTUATORS].sort((a, b) => b.length - a.length)) {
    const list = byFirst.get(p.charCodeAt(0)) ?? [];
    list.push(p);
    byFirst.set(p.charCodeAt(0), list);
  }
  return byFirst;
})();

/** The length of the longest punctuator at `text[i]`, or 0. */
export function punctuatorLength(text: string, i: number): number {
  const candidates = PUNCTUATORS_BY_FIRST.get(text.charCodeAt(i));
  if (candidates === undefined) return 0;
  for (const p of candidates) if (text.startsWith(p, i)) return p.length;
  return 0;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128;
}

/**
 * Whether writing `after` right behind `before` (no space) would lex
 * differently: the output puts a space there, as cpp does, so that `-` from a
 * macro followed by `-1` does not become `--1`. Errs on the side of a space.
 */
export function wouldPaste(before: string, after: string): boolean {
  if (before === '' || after === '') return false;
  const a = before.charCodeAt(before.length - 1);
  const b = after.charCodeAt(0);
  if (isWordChar(a) && (isWordChar(b) || b === 39 || b === 34)) return true; // word then word, or a prefix like L"…"
  if ((a === 34 || a === 39) && isWordChar(b)) return true; // a literal then a user-defined suffix
  const first = before.charCodeAt(0);
  if ((first >= 48 && first <= 57) || (first === 46 && before.length > 1 && before.charCodeAt(1) !== 46)) {
    // a pp-number absorbs `.`, a sign after an exponent letter, and `'` digit separators
    if (b === 46 || b === 39) return true;
    if ((b === 43 || b === 45) && /[eEpP]$/.test(before)) return true;
  }
  if (a === 46 && b >= 48 && b <= 57) return true; // `.` then a digit: `.5`
  if (isWordChar(first)) return false;
  const joined = before + after.slice(0, 3);
  return joined.startsWith('//', before.length - 1) || joined.startsWith('/*', before.length - 1) || punctuatorLength(joined, 0) > before.length;
}
