import { describe, expect, it } from 'vitest';
import { lexedFile, Lexer, lexString, normaliseText, rawOffset } from '../../../src/frontend/cuda/preprocess/lexer.js';
import { wouldPaste } from '../../../src/frontend/cuda/preprocess/tokens.js';
import { codeLines, diagnosticsOf, pp } from './preprocess-helpers.js';

const kinds = (text: string): string[] => lexString(text).map((t) => `${t.kind} ${t.text}`);

describe('lexer', () => {
  it('identifiers, pp-numbers, punctuators (longest first), strings and characters', () => {
    expect(kinds('a_1 $x 0x1p-3 1.5e+3f 12\'345 .5 100_km x+++=y->*z ... <<= <=>')).toEqual([
      'ident a_1', 'ident $x', 'number 0x1p-3', 'number 1.5e+3f', "number 12'345", 'number .5', 'number 100_km',
      'ident x', 'punct ++', 'punct +=', 'ident y', 'punct ->*', 'ident z', 'punct ...', 'punct <<=', 'punct <=>',
    ]);
    expect(kinds(`"a\\"b" 'c' '\\'' L"w" u8"u" U'x' "s"_udl`)).toEqual([
      'string "a\\"b"', "char 'c'", "char '\\''", 'string L"w"', 'string u8"u"', "char U'x'", 'string "s"_udl',
    ]);
  });

  it('raw strings run to their delimiter, across quotes and lines', () => {
    expect(kinds('R"xy(a "quoted" )" \n line)xy" after')).toEqual(['string R"xy(a "quoted" )" \n line)xy"', 'ident after']);
    expect(kinds('LR"(x)"')).toEqual(['string LR"(x)"']);
  });

  it('digraphs are punctuators; `<::` not followed by `:` or `>` is `<` then `::`', () => {
    expect(kinds('<: :> <% %> %: %:%: a<::b> a<:::b')).toEqual([
      'punct <:', 'punct :>', 'punct <%', 'punct %>', 'punct %:', 'punct %:%:', 'ident a', 'punct <', 'punct ::', 'ident b', 'punct >', 'ident a', 'punct <:', 'punct ::', 'ident b',
    ]);
  });

  it('an unterminated quote takes the rest of its line as one token', () => {
    expect(kinds("don't stop\nnext")).toEqual(['ident don', "other 't stop", 'newline \n', 'ident next']);
  });

  it('comments are whitespace: tokens after them have space before them', () => {
    const toks = lexString('a/**/b // c\nd');
    expect(toks.map((t) => [t.text, t.space])).toEqual([['a', false], ['b', true], ['\n', true], ['d', false]]);
  });

  it('line splices are removed for lexing; tokens keep the offsets of the text as written', () => {
    const text = 'ab\\\ncd e\\\n\\\nf';
    const file = lexedFile(0, text);
    expect(file.spliced).toBe('abcd ef');
    expect([0, 2, 5, 6].map((i) => rawOffset(file, i))).toEqual([0, 4, 7, 12]);
    const lexer = new Lexer(file, () => undefined);
    const ab = lexer.next();
    const ef = lexer.next();
    expect([ab.text, ab.start, ab.end]).toEqual(['abcd', 0, 6]);
    expect([ef.text, ef.start, ef.end, ef.gapStart]).toEqual(['ef', 7, 13, 6]);
  });

  it('normalises CRLF and CR to LF and drops a byte-order mark', () => {
    expect(normaliseText('\ufeffa\r\nb\rc\n')).toBe('a\nb\nc\n');
  });

  it('an unterminated comment is an error at its start', () => {
    expect(diagnosticsOf(pp('int x;\n  /* open\nint y;\n'))).toEqual(['E0501 k.cu:2:3 unterminated /* comment']);
  });

  it('an unterminated quote in text is a warning, not in a skipped group', () => {
    expect(diagnosticsOf(pp('x = "abc;\n#if 0\nit\'s\n#endif\n'))).toEqual(['W0506 k.cu:1:5 missing terminating " character']);
  });
});

describe('spacing of the output', () => {
  it('knows which neighbours would join', () => {
    const joins: [string, string][] = [['-', '-1'], ['+', '+'], ['<', '<='], ['a', 'b'], ['1', '.5'], ['1e', '+3'], ['L', '"s"'], ['/', '/'], ['/', '*'], ['->', '*'], ['.', '5'], ['%', ':'], ['"s"', '_x']];
    const apart: [string, string][] = [['a', '+'], ['1', '+'], [')', '('], ['x', '('], ['"s"', '"t"'], ['-', '>x'.slice(1)], ['', 'a'], ['+', '-']];
    for (const [a, b] of joins) expect([a, b, wouldPaste(a, b)]).toEqual([a, b, true]);
    for (const [a, b] of apart) expect([a, b, wouldPaste(a, b)]).toEqual([a, b, false]);
  });

  it('verbatim text next to verbatim text is never spaced', () => {
    expect(codeLines(pp('#define N 1\na<::b>N<::c> x---y N---N\n'))).toEqual(['a<::b>1<::c> x---y 1---1']);
  });
});
