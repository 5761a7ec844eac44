/**
 * The kernels of a preprocessed CUDA text found a second way, without the
 * grammar: every `__global__` token outside comments and literals whose
 * parameter list is followed by a body (`{`), not by `;`. The front end
 * checks its kernels against these, so a kernel the parser did not read as a
 * function definition (an invalid byte in its head, a construct the grammar
 * misreads, a place where the front end does not look) is reported in error
 * instead of missing from the report.
 */
import type { Span } from '../../core/source.js';

export interface KernelHead {
  /** the name before the parameter list, as written (`k`, `ns::k`, `k\uFFFD2`) */
  readonly name: string;
  /** the `__global__` token */
  readonly span: Span;
  /** from `__global__` to the body's `{` */
  readonly head: Span;
}

/** Qualifiers whose parenthesised argument list comes before the parameter list. */
const WITH_ARGUMENTS = new Set(['__launch_bounds__', '__align__', '__maxnreg__', '__attribute__', '__declspec', 'alignas']);

/** Where the comment or literal starting at `i` ends, or `i` when none starts there. */
function skipped(text: string, i: number): number {
  const c = text[i];
  if (c === '/' && text[i + 1] === '/') {
    const end = text.indexOf('\n', i);
    return end < 0 ? text.length : end;
  }
  if (c === '/' && text[i + 1] === '*') {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  if (c === '"' || c === "'") {
    let j = i + 1;
    while (j < text.length && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
    return Math.min(j + 1, text.length);
  }
  return i;
}

/** The text with each comment replaced by spaces, its newlines kept: offsets and lines unchanged, literals kept. */
export function commentsBlanked(text: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const past = skipped(text, i);
    if (past === i) {
      i++;
      continue;
    }
    if (text[i] === '/') {
      out += text.slice(from, i) + text.slice(i, past).replace(/[^\n]/g, ' ');
      from = past;
    }
    i = past;
  }
  return out + text.slice(from);
}

const isIdentifierStart = (c: string): boolean => /[A-Za-z_$]/.test(c);
const isIdentifierPart = (c: string): boolean => /[\w$]/.test(c);

/** The identifiers of the text outside comments and literals, with their offsets. */
function* identifiers(text: string): Generator<{ text: string; start: number }> {
  let i = 0;
  while (i < text.length) {
    const past = skipped(text, i);
    if (past !== i) {
      i = past;
      continue;
    }
    if (isIdentifierStart(text[i]!) && (i === 0 || !isIdentifierPart(text[i - 1]!))) {
      let j = i + 1;
      while (j < text.length && isIdentifierPart(text[j]!)) j++;
      yield { text: text.slice(i, j), start: i };
      i = j;
    } else i++;
  }
}

/** The first of `chars` at parenthesis depth 0 from `i`, outside comments and literals, or -1. */
function firstOutside(text: string, i: number, chars: string): number {
  let depth = 0;
  for (; i < text.length; i++) {
    const past = skipped(text, i);
    if (past !== i) {
      i = past - 1;
      continue;
    }
    const c = text[i]!;
    if (depth === 0 && chars.includes(c)) return i;
    if (c === '(') depth++;
    else if (c === ')' && depth > 0) depth--;
  }
  return -1;
}

/** The name written just before offset `end`: identifier characters, `::`, a template's `<…>`, and any character C does not allow there (so an invalid byte shows in it). */
function nameBefore(text: string, end: number): string {
  let i = end;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  const last = i;
  let angle = 0;
  while (i > 0) {
    const c = text[i - 1]!;
    if (c === '>') angle++;
    else if (c === '<' && angle > 0) angle--;
    else if (angle === 0 && /[\s*&()[\]{};,]/.test(c)) break;
    i--;
  }
  return text.slice(i, last);
}

/** The kernel's name in its head `text[from, to)`: before the first parenthesis that is not a qualifier's argument list, else the last word. */
function headName(text: string, from: number, to: number): string {
  const head = text.slice(from, to);
  for (const m of head.matchAll(/\(/g)) {
    const before = /([A-Za-z_$][\w$]*)\s*$/.exec(head.slice(0, m.index))?.[1];
    if (before === undefined || !WITH_ARGUMENTS.has(before)) return nameBefore(text, from + m.index);
  }
  return nameBefore(text, to);
}

/**
 * Every kernel definition's head in the text, in order: each `__global__`
 * token followed, at parenthesis depth 0, by a `{` before any `;` or `}`. A
 * head too broken to name its kernel still counts (C++ would reject it; a
 * kernel is reported in error rather than missing); one ending in `;` is a
 * declaration.
 */
export function kernelHeads(text: string): KernelHead[] {
  const out: KernelHead[] = [];
  for (const id of identifiers(text)) {
    if (id.text !== '__global__') continue;
    const after = id.start + id.text.length;
    const body = firstOutside(text, after, ';{}');
    if (body < 0 || text[body] !== '{') continue;
    const name = headName(text, after, body);
    out.push({ name: name === '' ? '__global__' : name, span: { start: id.start, end: after }, head: { start: id.start, end: body } });
  }
  return out;
}
