import { describe, expect, it } from 'vitest';
import { error } from '../../src/diagnostics/diagnostic.js';
import { colourWanted, framedSpans, renderedDiagnostic } from '../../src/diagnostics/render.js';
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

describe('colourWanted', () => {
  it('needs a terminal and no NO_COLOR', () => {
    expect(colourWanted({ isTTY: true }, {})).toBe(true);
    expect(colourWanted({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourWanted({ isTTY: false }, {})).toBe(false);
    expect(colourWanted({}, {})).toBe(false);
  });
});
