import { describe, expect, it } from 'vitest';
import { error } from '../../src/diagnostics/diagnostic.js';
import { colourWanted, framedSpan, framedSpans, renderedDiagnostic } from '../../src/diagnostics/render.js';
import { sourceFile, type Span } from '../../src/core/source.js';

const text = 'kernel k() {\n  shared A;\n  let v = A[tid + 1] in\n  A[tid] := v\n}\n';
const file = sourceFile('k.bcu', text);
const spanOf = (s: string): Span => ({ start: text.indexOf(s), end: text.indexOf(s) + s.length });
const ANSI = /\u001b\[/;
const lastV: Span = { start: text.lastIndexOf('v'), end: text.lastIndexOf('v') + 1 };

describe('renderedDiagnostic', () => {
  const d = error('E0103', file, lastV, "unknown variable 'v'", {
    label: 'not declared',
    related: [{ span: spanOf('A[tid + 1]'), message: 'read here' }],
    hints: ['declare it first'],
  });

  it('prints headline, location, frame with label, related spans and hints', () => {
    expect(renderedDiagnostic(d, false)).toBe(
      [
        "error[E0103]: unknown variable 'v'",
        ' --> k.bcu:4:13',
        '    3 |   let v = A[tid + 1] in',
        '  > 4 |   A[tid] := v',
        '      |             ^ not declared',
        '    5 | }',
        'note: read here',
        ' --> k.bcu:3:11',
        '    2 |   shared A;',
        '  > 3 |   let v = A[tid + 1] in',
        '      |           ^^^^^^^^^^',
        '    4 |   A[tid] := v',
        'hint: declare it first',
        '',
      ].join('\n'),
    );
  });

  it('colours only when asked', () => {
    expect(renderedDiagnostic(d, false)).not.toMatch(ANSI);
    expect(renderedDiagnostic(d, true)).toMatch(ANSI);
  });
});

describe('framedSpans', () => {
  it('marks two accesses on nearby lines in one frame', () => {
    const frame = framedSpans(file, [{ span: spanOf('A[tid]'), label: 'write' }, { span: spanOf('A[tid + 1]'), label: 'read' }], false);
    expect(frame).toBe(
      ['  2 |   shared A;', '> 3 |   let v = A[tid + 1] in', '    |           ^^^^^^^^^^ read', '> 4 |   A[tid] := v', '    |   ^^^^^^ write', '  5 | }'].join('\n'),
    );
  });

  it('marks two spans of one line on one caret row', () => {
    const frame = framedSpans(file, [{ span: spanOf('A[tid]'), label: 'write' }, { span: lastV, label: 'value' }], false);
    expect(frame).toContain('> 4 |   A[tid] := v\n    |   ^^^^^^    ^ write, value');
  });

  it('gives spans far apart a frame each', () => {
    const long = sourceFile('l.bcu', `${'a\n'.repeat(20)}b\n`);
    const frame = framedSpans(long, [{ span: { start: 0, end: 1 }, label: 'first' }, { span: { start: 40, end: 41 }, label: 'last' }], false);
    expect(frame).toContain('> 1 | a\n    | ^ first');
    expect(frame).toContain('> 21 | b\n     | ^ last');
    expect(frame).not.toContain(' 10 |');
  });

  it('does not run a span that ends with its line onto the next line', () => {
    const frame = framedSpans(file, [{ span: { start: text.lastIndexOf('v'), end: text.lastIndexOf('v') + 2 }, label: 'here' }], false);
    expect(frame).toContain('> 4 |   A[tid] := v\n    |             ^ here');
    expect(frame).not.toContain('> 5');
  });
});

describe('hostile text in frames', () => {
  it('shows control characters as their pictures, keeping the carets under the code', () => {
    const t = 'kernel k() {\n  A[0] := 1 \u001b[2J\u0000\u0007 \u202ex\n}\n';
    const f = sourceFile('c.bcu', t);
    const at = t.indexOf('x');
    const out = renderedDiagnostic(error('E0001', f, { start: at, end: at + 1 }, "found '\u001b'", { label: 'here' }), false);
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    // x is the 21st character of its line, as the location says
    expect(out).toContain(` --> c.bcu:2:21`);
    expect(out).toContain(`> 2 |   A[0] := 1 ␛[2J␀␇ �x\n      | ${' '.repeat(20)}^ here`);
    expect(out).toContain("found '\\u{1b}'");
  });

  it('escapes a path with control characters', () => {
    const f = sourceFile('evil\u001b]0;title\u0007.bcu', 'kernel k() { skip }');
    expect(renderedDiagnostic(error('E0001', f, { start: 0, end: 6 }, 'x'), false)).toContain(' --> evil\\u{1b}]0;title\\u{7}.bcu:1:1');
  });

  it('cuts a long line to a window around the mark, carets aligned', () => {
    const line = `kernel k() { shared A; A[0] := ${Array.from({ length: 400 }, (_, i) => `x${i}`).join(' + ')} }`;
    const f = sourceFile('long.bcu', line);
    const at = line.indexOf('x300');
    const frame = framedSpan(f, { start: at, end: at + 4 }, 'this', false);
    const [code, carets] = frame.split('\n') as [string, string];
    expect(code.length).toBeLessThan(200);
    expect(code).toMatch(/^> 1 \| …/);
    expect(code.endsWith('…')).toBe(true);
    expect(code.slice(carets.indexOf('^'), carets.indexOf('^') + 4)).toBe('x300');
    expect(carets).toMatch(/\^{4} this$/);
  });

  it('marks spans on several nearby lines of a long line file the same way', () => {
    const line = `${'y'.repeat(300)} A[tid] ${'z'.repeat(300)}`;
    const f = sourceFile('m.bcu', `${line}\n${line}\n`);
    const at = line.indexOf('A[tid]');
    const frame = framedSpans(f, [{ span: { start: at, end: at + 6 }, label: 'one' }, { span: { start: line.length + 1 + at, end: line.length + 1 + at + 6 }, label: 'two' }], false);
    const rows = frame.split('\n');
    for (const [code, carets] of [[rows[0]!, rows[1]!], [rows[2]!, rows[3]!]] as const) {
      expect(code.length).toBeLessThan(200);
      expect(code.slice(carets.indexOf('^'), carets.indexOf('^') + 6)).toBe('A[tid]');
    }
  });
});

describe('line breaks and byte-order marks', () => {
  const body = ['kernel k() {', '  shared A;', '  A[x] := 1', '}', ''];
  for (const [name, eol] of [['LF', '\n'], ['CRLF', '\r\n'], ['CR', '\r']] as const) {
    it(`counts lines ended by ${name}`, () => {
      const t = `\uFEFF${body.join(eol)}`;
      const f = sourceFile('e.bcu', t);
      const at = t.indexOf('x');
      expect(renderedDiagnostic(error('E0103', f, { start: at, end: at + 1 }, "unknown variable 'x'", { label: 'here' }), false)).toBe(
        ["error[E0103]: unknown variable 'x'", ' --> e.bcu:3:5', '    2 |   shared A;', '  > 3 |   A[x] := 1', '      |     ^ here', '    4 | }', ''].join('\n'),
      );
    });
  }

  it('does not count a byte-order mark as a column', () => {
    const t = '\uFEFFkernel k() { skip }';
    const f = sourceFile('b.bcu', t);
    expect(renderedDiagnostic(error('E0001', f, { start: 1, end: 7 }, 'x', { label: 'here' }), false)).toContain(' --> b.bcu:1:1\n  > 1 | kernel k() { skip }\n      | ^^^^^^ here');
  });
});

describe('colourWanted', () => {
  it('needs a terminal and no NO_COLOR', () => {
    expect(colourWanted({ isTTY: true }, {})).toBe(true);
    expect(colourWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted({ isTTY: false }, {})).toBe(false);
    expect(colourWanted({}, {})).toBe(false);
  });
});
