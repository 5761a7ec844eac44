import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeLines, lineCol, locateText, offsetOf, pp, spanText, where } from './preprocess-helpers.js';

const KERNEL = [
  '#define TILE 16', //                                              1
  '#define IDX(r, c) ((r) * TILE + (c))', //                         2
  '#define SWAP(a, b) do { float t = a; a = b; b = t; } while (0)', // 3
  '__global__ void k(float *A) {', //                                4
  '  __shared__ float s[TILE][TILE];', //                            5
  '  A[IDX(threadIdx.y, threadIdx.x)] = s[0][0];', //                6
  '  SWAP(A[0],', //                                                 7
  '       A[1]);', //                                                8
  '}', //                                                            9
  '',
].join('\n');

describe('locate', () => {
  const r = pp(KERNEL);

  it('keeps the main file\'s lines: directives become blank lines, calls spanning lines are followed by the lines they took', () => {
    const lines = r.text.split('\n');
    expect(lines.length).toBe(KERNEL.split('\n').length);
    expect(lines[0]!.trim()).toBe('');
    expect(lines[3]).toBe('__global__ void k(float *A) {');
    expect(lines[7]!.trim()).toBe('');
    expect(lines[8]).toBe('}');
  });

  it('maps verbatim text one to one onto its file', () => {
    const at = offsetOf(r, '__global__');
    for (let k = 0; k < 30; k++) {
      const loc = r.locate(at + k, at + k + 1);
      expect(loc).toEqual({ file: 0, start: KERNEL.indexOf('__global__') + k, end: KERNEL.indexOf('__global__') + k + 1, expansions: [] });
    }
    expect(where(r, locateText(r, 'A[', 0))).toBe("k.cu:6:3 'A['");
  });

  it('maps a macro\'s body token to the whole use, with the use as its expansion and the body token as its spelling', () => {
    const loc = locateText(r, '16', 0);
    expect(where(r, loc)).toBe("k.cu:5:22 'TILE' in TILE@5:22");
    expect(spanText(r, loc.spelling!)).toBe('16');
    expect(lineCol(r.files[0]!.text, loc.spelling!.start)).toBe('1:14');
  });

  it('maps an argument written at the use to where it is written', () => {
    const loc = locateText(r, 'threadIdx.y');
    expect(where(r, loc)).toBe("k.cu:6:9 'threadIdx.y' in IDX@6:5");
    expect(loc.spelling).toBeUndefined();
  });

  it('maps nested expansions to the outermost use, innermost first in the chain', () => {
    const loc = locateText(r, '16', 2); // TILE inside IDX
    expect(where(r, loc)).toBe("k.cu:6:5 'IDX(threadIdx.y, threadIdx.x)' in TILE@2:26 < IDX@6:5");
    expect(spanText(r, loc.spelling!)).toBe('16');
  });

  it('a span over several tokens of an expansion is the use; over verbatim text around it, the text itself', () => {
    const inner = offsetOf(r, '((threadIdx.y)');
    const close = r.text.indexOf(']', inner);
    expect(where(r, r.locate(inner, close))).toBe("k.cu:6:5 'IDX(threadIdx.y, threadIdx.x)' in IDX@6:5");
    const a = offsetOf(r, 'A[((');
    expect(where(r, r.locate(a, close + 1))).toBe("k.cu:6:3 'A[IDX(threadIdx.y, threadIdx.x)]'");
  });

  it('a use spanning lines covers them all', () => {
    const loc = locateText(r, 'float t');
    expect(where(r, loc)).toBe("k.cu:7:3 'SWAP(A[0],\n       A[1])' in SWAP@7:3");
    expect(spanText(r, loc.spelling!)).toBe('float t');
    expect(where(r, locateText(r, 'A[1]', 0))).toBe("k.cu:8:8 'A[1]' in SWAP@7:3");
  });

  it('an empty span maps to a point; spans are clamped to the unit', () => {
    const at = offsetOf(r, '__global__');
    expect(r.locate(at, at)).toEqual({ file: 0, start: KERNEL.indexOf('__global__'), end: KERNEL.indexOf('__global__'), expansions: [] });
    const end = r.locate(r.text.length + 5, r.text.length + 9);
    expect(end).toEqual({ file: 0, start: KERNEL.length, end: KERNEL.length, expansions: [] });
    expect(r.locate(-3, 2)).toEqual({ file: 0, start: 0, end: 2, expansions: [] });
  });

  it('a macro whose name comes from the body of another, with arguments from the file, is located at the whole text it replaced', () => {
    const q = pp('#define ADD(a, b) (a + b)\n#define PLUS ADD\nint x = PLUS(1,\n 2);\n');
    const loc = locateText(q, '+');
    expect(where(q, loc)).toBe("k.cu:3:9 'PLUS(1,\n 2)' in ADD@2:14 < PLUS@3:9");
    expect(where(q, locateText(q, '2'))).toBe("k.cu:4:2 '2' in ADD@2:14 < PLUS@3:9");
  });

  it('tokens made by # and ## map to the use, with no spelling', () => {
    const q = pp('#define S(x) #x\n#define CAT(a, b) a##b\nS(hi) CAT(x, y)\n');
    for (const needle of ['"hi"', 'xy']) {
      const loc = locateText(q, needle);
      expect(loc.spelling).toBeUndefined();
      expect(loc.expansions.length).toBe(1);
    }
    expect(where(q, locateText(q, 'xy'))).toBe("k.cu:3:7 'CAT(x, y)' in CAT@3:7");
  });

  it('diagnostics inside expansions carry the same locations', () => {
    const q = pp('#define CAT(a, b) a ## b\n#define USE CAT(x, -)\nint v = USE;\n');
    expect(q.diagnostics.map((d) => where(q, d.at))).toEqual(["k.cu:3:9 'USE' in CAT@2:13 < USE@3:9"]);
  });
});

describe('line ends and byte-order marks', () => {
  const body = ['#define N 4', 'int a = N;', '  int b;', ''];

  for (const [name, eol, bom] of [['LF', '\n', ''], ['CRLF', '\r\n', ''], ['CR', '\r', ''], ['BOM and CRLF', '\r\n', '\ufeff']] as const) {
    it(`accepts ${name}: the same unit, and the same line:column`, () => {
      const r = pp(bom + body.join(eol));
      expect(r.text).toBe(pp(body.join('\n')).text);
      expect(r.files[0]!.text).toBe(body.join('\n'));
      expect(where(r, locateText(r, 'int b'))).toBe("k.cu:3:3 'int b'");
      expect(where(r, locateText(r, '4'))).toBe("k.cu:2:9 'N' in N@2:9");
    });
  }

  it('backslash-newline joins lines; positions stay those of the file as written', () => {
    const r = pp('#define LONG_NAME_\\\nMACRO 7\nint x = LONG_NAME_MACRO + 1; int \\\n y;\n');
    expect(r.text.split('\n').length).toBe(5);
    expect(where(r, locateText(r, '7'))).toBe("k.cu:3:9 'LONG_NAME_MACRO' in LONG_NAME_MACRO@3:9");
    expect(where(r, locateText(r, 'y;'))).toBe("k.cu:4:2 'y;'");
  });
});

// '%' is followed by a space: `%:` at the start of a line is the digraph of `#`, a directive
const SAFE_PIECES = [
  'x', 'tid', 'A', 'foo_1', 'k', '0', '42', '1.5e3', '0x1F', '+', '-', '*', '/', '% ', '<<', '>>=', '->', '::', '(', ')', '[', ']', '{', '}', ';', ',', '.', '?', ':', '=', '==', '!', '~', '&', '|', '^', '<', '>',
  '"str"', '"a # b"', "'c'", "'\\n'", '/* comment */', '/* multi\nline */', '// line comment\n', ' ', '  ', '\t', '\n', '\n\n', ' \\\n ', 'L"wide"',
];

describe('properties', () => {
  it('a file with no directives and no macro uses comes out as it is, mapped one to one', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SAFE_PIECES), { maxLength: 60 }), fc.constantFrom('', ' '), (pieces, separator) => {
        const text = pieces.join(separator);
        const r = pp(text);
        expect(r.text).toBe(text);
        // pieces run together may make an unterminated quote (`0x1F'c'`) or comment (`/*`)
        if (separator === ' ') expect(r.diagnostics).toEqual([]);
        for (let i = 0; i < text.length; i++) expect(r.locate(i, i + 1)).toEqual({ file: 0, start: i, end: i + 1, expansions: [] });
        expect(r.locate(0, text.length)).toEqual({ file: 0, start: 0, end: text.length, expansions: [] });
      }),
      { numRuns: 300 },
    );
  });

  const LINES = [
    '#define A 1', '#define F(x) (x + A)', '#define G(x, ...) F(x) __VA_ARGS__', '#define H(a, b) a ## b', '#define S(a) #a', '#undef A',
    '#if A', '#ifdef F', '#ifndef G', '#elif F(1) > 1', '#else', '#endif', '#include "h.h"', '#include <sys.h>', '#error e', '#pragma once',
    'A F(2) G(3, 4)', 'F(', ')', 'H(x, y) S(z)', 'int v = G(F(A), A, F);', 'F(F(F(1)))', 'G()', '"F(1)" /* F(1) */', '#define R R + A', 'R',
    'H(F, (1))', 'S(', '#define', '#if', '#define BAD(', '__LINE__ __FILE__', '_Pragma("x") _Pragma(', '#include "k.cu"',
  ];

  it('any mix of directives and macro uses: no exception, and every span maps into a file', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { maxLength: 25 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const r = pp(lines.join(eol) + eol, { files: { 'h.h': 'h\n#define A 2\n' } });
        for (let i = 0; i <= r.text.length; i += 3) {
          const loc = r.locate(i, Math.min(r.text.length, i + 5));
          const file = r.files[loc.file]!;
          expect(loc.start).toBeGreaterThanOrEqual(0);
          expect(loc.start).toBeLessThanOrEqual(loc.end);
          expect(loc.end).toBeLessThanOrEqual(file.text.length);
          for (const u of loc.expansions) expect(u.end).toBeLessThanOrEqual(r.files[u.file]!.text.length);
        }
        for (const d of r.diagnostics) expect(d.at.end).toBeLessThanOrEqual(r.files[d.at.file]!.text.length);
        // the main file's lines survive: no include of h.h, no lines lost
        if (!lines.some((l) => l.startsWith('#include "h.h"'))) expect(r.text.split('\n').length).toBe(`${lines.join('\n')}\n`.split('\n').length);
      }),
      { numRuns: 400 },
    );
  });

  it('verbatim tokens between macro uses keep their exact positions', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', 'b', 'N', 'F(1)', 'F(a, b)', '+', '"N"'), { minLength: 1, maxLength: 30 }), (words) => {
        const text = `#define N 7\n#define F(...) [__VA_ARGS__]\n${words.join(' ')}\n`;
        const r = pp(text);
        expect(codeLines(r)).toEqual([words.map((w) => (w === 'N' ? '7' : w.startsWith('F(') ? `[${w.slice(2, -1)}]` : w)).join(' ')]);
        const unitLine = r.text.indexOf('\n', r.text.indexOf('\n') + 1) + 1;
        let fileAt = text.indexOf('\n', text.indexOf('\n') + 1) + 1;
        let unitAt = unitLine;
        for (const w of words) {
          const produced = w === 'N' ? '7' : w.startsWith('F(') ? `[${w.slice(2, -1)}]` : w;
          unitAt = r.text.indexOf(produced, unitAt);
          const loc = r.locate(unitAt, unitAt + produced.length);
          expect(loc.file).toBe(0);
          expect(text.slice(loc.start, loc.end)).toBe(w);
          expect(loc.start).toBe(fileAt);
          expect(loc.expansions.map((u) => u.name)).toEqual(w === 'N' ? ['N'] : w.startsWith('F(') ? ['F'] : []);
          fileAt += w.length + 1;
          unitAt += produced.length;
        }
      }),
      { numRuns: 200 },
    );
  });
});
