import { describe, expect, it } from 'vitest';
import { located, positionAt } from '../../../src/core/source.js';
import { renderedDiagnostic } from '../../../src/diagnostics/render.js';
import { coreDiagnostic, coreSources } from '../../../src/frontend/cuda/preprocess/index.js';
import { offsetOf, pp } from './preprocess-helpers.js';

describe('the preprocessor in the core\'s terms', () => {
  it('the unit is a core SourceFile whose origin map leads to the files and macro uses', () => {
    const r = pp('#include "t.h"\nint a = TILE;\nint b;\n', { files: { 't.h': '#define TILE 32\n' } });
    const { unit, files } = coreSources(r);
    expect(unit.text).toBe(r.text);
    const at = offsetOf(r, '32');
    const loc = located(unit, { start: at, end: at + 2 });
    expect(loc.file).toBe(files[0]);
    expect(loc.file.text.slice(loc.span.start, loc.span.end)).toBe('TILE');
    expect(positionAt(loc.file, loc.span.start)).toEqual({ line: 2, column: 9 });
    expect(loc.expansions.map((u) => [u.name, u.file.path, u.span.start])).toEqual([['TILE', 'k.cu', loc.span.start]]);
    const b = offsetOf(r, 'int b');
    expect(located(unit, { start: b, end: b + 5 })).toEqual({ file: files[0], span: { start: 29, end: 34 }, expansions: [] });
  });

  it('diagnostics render with a code frame in the file, and say which expansion they are in', () => {
    const r = pp('#define CAT(a, b) a ## b\n#define USE CAT(x, -)\nint v = USE;\n#include "missing.h"\n');
    const { files } = coreSources(r);
    const [paste, missing] = r.diagnostics.map((d) => renderedDiagnostic(coreDiagnostic(d, files), false));
    expect(paste).toContain("error[E0514]: pasting 'x' and '-' does not give a valid preprocessing token");
    expect(paste).toContain('--> k.cu:3:9');
    expect(paste).toContain('int v = USE;');
    expect(paste).toContain('in expansion of USE');
    expect(paste).toContain('in expansion of CAT');
    expect(paste).toContain('written here');
    expect(missing).toContain("error[E0510]: 'missing.h' not found");
    expect(missing).toContain('--> k.cu:4:10');
    expect(missing).toContain('hint: searched: missing.h');
  });

  it('what lies in another file becomes a hint with its position', () => {
    const r = pp('#include "a.h"\n#define A 2\n', { files: { 'a.h': '#define A 1\n' } });
    const { files } = coreSources(r);
    const d = coreDiagnostic(r.diagnostics[0]!, files);
    expect(d.severity).toBe('warning');
    expect(d.hints).toEqual(['the previous definition: a.h:1:9']);
  });
});
