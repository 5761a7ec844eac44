/**
 * The parser on hostile text: long comments, line endings, byte-order marks,
 * control characters, and nesting past the limits every later stage relies on.
 */
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { positionAt, spanText } from '../../src/core/source.js';
import { DiagnosticError, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { MAX_DEPTH } from '../../src/core/limits.js';
import { MAX_CODE, MAX_NESTING } from '../../src/frontend/bcu/scan.js';
import type { Program, Stmt } from '../../src/core/ast.js';

function diagnosticOf(text: string): Diagnostic {
  try {
    parseProgram('t.bcu', text);
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    expect(e.diagnostics).toHaveLength(1);
    return e.diagnostics[0]!;
  }
  throw new Error(`expected an error for: ${text.slice(0, 80)}`);
}

const where = (d: Diagnostic): string => {
  const p = positionAt(d.file, d.span.start);
  return `${p.line}:${p.column}`;
};

function firstWrite(p: Program): Extract<Stmt, { kind: 'write' }> {
  const s = p.kernels[0]!.body.find((x) => x.kind === 'write');
  if (s?.kind !== 'write') throw new Error('no write');
  return s;
}

describe('comments and white space', () => {
  it('parses a file that is mostly a long comment, spans pointing into the file', () => {
    const text = `/*${'x'.repeat(1_000_000)}*/\n// ${'y'.repeat(100_000)}\nkernel k() { shared A; A[tid] := 1 }\n`;
    const p = parseProgram('t.bcu', text);
    expect(positionAt(p.file, firstWrite(p).span.start)).toEqual({ line: 3, column: 24 });
  });

  it('keeps comments and white space inside a span', () => {
    const p = parseProgram('t.bcu', 'kernel k() { shared A; A[tid /* next */ +\n\t 1] := 2 }');
    expect(spanText(p.file, firstWrite(p).target)).toBe('A[tid /* next */ +\n\t 1]');
    expect(spanText(p.file, firstWrite(p).index[0]!.span)).toBe('tid /* next */ +\n\t 1');
  });

  it('ends a line comment at a carriage return', () => {
    const p = parseProgram('t.bcu', 'kernel k() { // c\r  shared A;\r  A[tid] := 1\r}\r');
    expect(positionAt(p.file, firstWrite(p).span.start)).toEqual({ line: 3, column: 3 });
  });

  it('refuses an unterminated block comment at its start', () => {
    const d = diagnosticOf('kernel k() { shared A;\n  /* no end\n  A[tid] := 1 }');
    expect(d.code).toBe('E0003');
    expect(where(d)).toBe('2:3');
  });
});

describe('file size', () => {
  it(`refuses more than ${MAX_CODE / 1024 / 1024} MiB of code, where the limit is passed, before parsing`, () => {
    const line = '  A[tid] := 123456789;\n';
    const text = `kernel k() {\n  shared A;\n${line.repeat(Math.ceil((MAX_CODE * 1.1) / line.length))}  skip\n}\n`;
    const d = diagnosticOf(text);
    expect(d.code).toBe('E0006');
    // indentation and line breaks are one space each: each line is 21 characters of code
    expect(positionAt(d.file, d.span.start).line).toBe(Math.floor((MAX_CODE - 'kernel k() { shared A; '.length) / 21) + 3);
  });
});

describe('byte-order marks and line endings', () => {
  for (const [name, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
    it(`parses ${name} files with a byte-order mark, and locates errors by line and column`, () => {
      const good = `\uFEFFkernel k() {${eol}  shared A;${eol}  A[tid] := 1${eol}}${eol}`;
      const p = parseProgram('t.bcu', good);
      expect(positionAt(p.file, p.kernels[0]!.name.span.start)).toEqual({ line: 1, column: 8 });
      expect(positionAt(p.file, firstWrite(p).span.start)).toEqual({ line: 3, column: 3 });
      const d = diagnosticOf(`\uFEFFkernel k() {${eol}  shared A;${eol}  A[tid] := 1${eol}  A[0] := 2${eol}}${eol}`);
      expect(d.message).toBe("syntax error: expected ';' or '}', found 'A'");
      expect(where(d)).toBe('4:3');
    });
  }

  it('accepts a byte-order mark only at the start', () => {
    const d = diagnosticOf('kernel k() {\uFEFF skip }');
    expect(d.code).toBe('E0001');
    expect(d.message).toContain("found '\\u{feff}'");
  });
});

describe('control characters', () => {
  it('refuses them in the code, named with an escape, at their position', () => {
    for (const [ch, shown] of [['\u0000', '\\u{0}'], ['\u001b', '\\u{1b}'], ['\u0007', '\\u{7}'], ['\u007f', '\\u{7f}']] as const) {
      const d = diagnosticOf(`kernel k() {\n  shared A;${ch}\n  A[tid] := 1 }`);
      expect(d.code).toBe('E0002');
      expect(d.message).toBe(`control character '${shown}' in the code`);
      expect(d.message).not.toContain(ch);
      expect(where(d)).toBe('2:12');
    }
  });

  it('allows them in comments', () => {
    expect(() => parseProgram('t.bcu', 'kernel k() { /* \u001b[31m \u0000 */ skip } // \u0007')).not.toThrow();
  });

  it('names an invisible character the parser meets', () => {
    const d = diagnosticOf('kernel k() { shared A; A[0] := 1\u00a0}');
    expect(d.message).toContain("found '\\u{a0}'");
    expect(d.hints.some((h) => h.includes('invisible'))).toBe(true);
  });
});

describe('nesting limits', () => {
  const parens = (n: number): string => `kernel k() { shared A; A[${'('.repeat(n)}tid${')'.repeat(n)}] := 1 }`;

  it(`parses brackets nested ${MAX_NESTING} deep and refuses one more, at that bracket`, () => {
    // the kernel's brace and the index's bracket count too
    expect(() => parseProgram('t.bcu', parens(MAX_NESTING - 2))).not.toThrow();
    const text = parens(MAX_NESTING - 1);
    const d = diagnosticOf(text);
    expect(d.code).toBe('E0004');
    expect(d.message).toBe(`brackets nested too deep (limit ${MAX_NESTING})`);
    const firstParen = text.indexOf('A[(') + 2;
    expect(d.span.start).toBe(firstParen + MAX_NESTING - 2);
    expect(d.related.map((r) => r.span.start)).toEqual([text.indexOf('{')]);
  });

  // The shapes the bad-input campaign found, each an internal error before.
  const shapes: Record<string, string> = {
    '200 nested parentheses': `kernel k() { shared A; A[tid] := ${'('.repeat(200)}1${')'.repeat(200)} }`,
    '300 nested ifs': `kernel k() { shared A; ${'if (tid < 5) { '.repeat(300)}A[tid] := 1${' }'.repeat(300)} }`,
    '500 nested loops': `kernel k() { shared A; ${Array.from({ length: 500 }, (_, i) => `for i${i} in 0..2 { `).join('')}A[tid] := 1${' }'.repeat(500)} }`,
    'a sum of 6000 terms': `kernel k() { shared A; A[tid] := ${Array(6000).fill('1').join(' + ')} }`,
    // issue 30's sizes, which overflow the stack of a recursive parser
    '10,000 nested parentheses': `kernel k() { shared A; A[tid] := ${'('.repeat(10000)}1${')'.repeat(10000)} }`,
    '3,000 nested blocks': `kernel k() { shared A; ${'if (tid < 5) { '.repeat(3000)}A[tid] := 1${' }'.repeat(3000)} }`,
    '3,000 nested index brackets': `kernel k() { shared A; A[${'A['.repeat(3000)}0${']'.repeat(3000)}] := 1 }`,
  };
  for (const [name, text] of Object.entries(shapes)) {
    it(`refuses ${name} with a located error`, () => {
      const d = diagnosticOf(text);
      expect(d.code).toBe('E0004');
      expect(d.span.end).toBeGreaterThan(d.span.start);
    });
  }

  it('parses a chain of 1000 lets (an unrolled loop) and reads', () => {
    const lets = Array.from({ length: 1000 }, (_, i) => `let x${i} = ${i} in `).join('');
    expect(() => parseProgram('t.bcu', `kernel k() { shared A; ${lets}A[tid] := x999 }`)).not.toThrow();
    const reads = Array.from({ length: 1000 }, (_, i) => `let x${i} = A[${i}] in `).join('');
    expect(() => parseProgram('t.bcu', `kernel k() { shared A; ${reads}A[tid] := x999 }`)).not.toThrow();
  });

  it(`parses ${MAX_DEPTH - 10} negations and conjunctions`, () => {
    expect(() => parseProgram('t.bcu', `kernel k() { shared A; if ${'!'.repeat(MAX_DEPTH - 10)}(tid < 4) { A[0] := 1 } }`)).not.toThrow();
    expect(() => parseProgram('t.bcu', `kernel k() { shared A; if ${Array(MAX_DEPTH - 10).fill('tid < 4').join(' && ')} { A[0] := 1 } }`)).not.toThrow();
  });

  it('refuses statements nested too deep at the first one past the limit', () => {
    const text = `kernel k() { shared A; ${Array.from({ length: MAX_DEPTH + 5 }, (_, i) => `let x${i} = ${i} in `).join('')}A[tid] := 1 }`;
    const d = diagnosticOf(text);
    expect(d.code).toBe('E0004');
    expect(d.message).toBe(`nested too deep: ${MAX_DEPTH + 1} levels (limit ${MAX_DEPTH})`);
    // the let x1023 is the 1024th level, its value the 1025th
    expect(spanText(d.file, d.span)).toBe(String(MAX_DEPTH - 1));
  });

  it('counts a let-bound name as deep as its value', () => {
    // each let adds a level and so does each x_i + 1: half as many lets reach the limit
    const n = MAX_DEPTH / 2 + 2;
    const text = `kernel k() { shared A; let x0 = tid in ${Array.from({ length: n }, (_, i) => `let x${i + 1} = x${i} + 1 in `).join('')}A[x${n}] := 1 }`;
    const d = diagnosticOf(text);
    expect(d.code).toBe('E0004');
    expect(spanText(d.file, d.span)).toMatch(/^x\d+ \+ 1$/);
  });

  it('refuses lets whose values double at each step', () => {
    const text = `kernel k() { shared A; let x0 = tid in ${Array.from({ length: 30 }, (_, i) => `let x${i + 1} = x${i} + x${i} in `).join('')}A[x30] := 1 }`;
    const d = diagnosticOf(text);
    expect(d.code).toBe('E0005');
    // x_i has 2^(i+1) - 1 operators and operands; the values up to x18 add up to more than a million
    expect(spanText(d.file, d.span)).toBe('x17 + x17');
  });
});
