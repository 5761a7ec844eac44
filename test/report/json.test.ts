import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { BigNat, VerifyReport, bigNatOf, bigintOf, reportJson } from '../../src/report/json.js';
import { error } from '../../src/diagnostics/diagnostic.js';
import { sourceFile } from '../../src/syntax/source.js';

describe('BigNat', () => {
  it('is a number when safe, else decimal digits, and decodes both', () => {
    expect(bigNatOf(42n)).toBe(42);
    const big = 2n ** 70n;
    expect(bigNatOf(big)).toBe('1180591620717411303424');
    expect(bigintOf(bigNatOf(big))).toBe(big);
    expect(isRight(BigNat.decode(7))).toBe(true);
    expect(isRight(BigNat.decode('123456789012345678901234567890'))).toBe(true);
    expect(isLeft(BigNat.decode('12a'))).toBe(true);
    expect(isLeft(BigNat.decode(1.5))).toBe(true);
  });
});

describe('reportJson', () => {
  it('gives a file that failed one error entry, which the codec accepts', () => {
    const file = sourceFile('bad.bcu', 'kernel k() {\n  A[0] = 1\n}\n');
    const d = error('E0001', file, { start: 19, end: 20 }, 'syntax error', { hints: ['use :='] });
    const report = reportJson([{ ok: false, path: 'bad.bcu', diagnostics: [d] }]);
    expect(report.kernels).toEqual([
      {
        file: 'bad.bcu',
        kernel: null,
        status: 'error',
        wellTyped: false,
        races: [],
        divergences: [],
        unknowns: [],
        errors: [{ code: 'E0001', severity: 'error', message: 'syntax error', line: 2, column: 7, endLine: 2, endColumn: 8, hints: ['use :='] }],
        violations: [],
        stats: { phases: 0, arrays: 0, queries: 0, milliseconds: 0 },
      },
    ]);
    expect(report.summary).toEqual({ kernels: 1, drf: 0, racy: 0, divergent: 0, vacuous: 0, unknown: 0, error: 1 });
    expect(isRight(VerifyReport.decode(JSON.parse(JSON.stringify(report))))).toBe(true);
  });

  it('rejects a document of another shape', () => {
    expect(isLeft(VerifyReport.decode({ kernels: [{ file: 'x', status: 'fine' }] }))).toBe(true);
  });
});
