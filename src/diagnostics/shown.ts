/**
 * Text from a file as a terminal may show it. A file can hold control
 * characters (an escape sequence would recolour or rewrite the user's
 * terminal), bidirectional overrides that reorder what is displayed, and
 * invisible characters; none of them reaches the output as it is.
 */

/** C1 controls, format characters (bidirectional overrides, zero-width ones, the byte-order mark), line and paragraph separators, lone surrogates. */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * A line of source for a code frame: C0 controls and DEL as their Unicode
 * pictures (␛, ␀, ␡), any other hidden character as '�' once per UTF-16
 * unit, tabs kept; the length, and so every column, is unchanged.
 */
export function shownLine(line: string): string {
  return line.replace(HIDDEN, (ch) => {
    const c = ch.charCodeAt(0);
    if (c === 9) return ch;
    if (c < 32) return String.fromCharCode(0x2400 + c);
    if (c === 127) return '\u2421';
    return '\uFFFD'.repeat(ch.length);
  });
}

/** Text for a message (a path, a snippet): hidden characters as `\u{1b}`, line breaks and tabs kept. */
export function shownText(text: string): string {
  return text.replace(HIDDEN, (ch) => (ch === '\n' || ch === '\t' ? ch : escaped(ch)));
}

/** One character as a message names it: printable as it is, others as `\u{a0}`. */
export function shownChar(ch: string): string {
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? ch : escaped(ch);
}

function escaped(ch: string): string {
  return `\\u{${ch.codePointAt(0)!.toString(16)}}`;
}
