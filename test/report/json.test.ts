import { describe, expect, it } from 'vitest';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { BigNat, VerifyReport, bigNatOf, bigintOf, reportJson } from '../../src/report/json.js';
import { error } from '../../src/diagnostics/diagnostic.js';
import { sourceFile } from '../../src/core/source.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { verifyKernel } from '../../src/verify/verify.js';
import * as core from '../support/core.js';

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
        stats: { phases: 0, arrays: 0, queries: 0, withoutSolver: 0, milliseconds: 0 },
      },
    ]);
    expect(report.summary).toEqual({ kernels: 1, drf: 0, racy: 0, benign: 0, divergent: 0, vacuous: 0, unknown: 0, error: 1 });
    expect(isRight(VerifyReport.decode(JSON.parse(JSON.stringify(report))))).toBe(true);
  });

  it('rejects a document of another shape', () => {
    expect(isLeft(VerifyReport.decode({ kernels: [{ file: 'x', status: 'fine' }] }))).toBe(true);
  });
});

describe('reportJson for machine integers', () => {
  it('gives the scope, the approximations and unknown values used where V is needed, which the codec accepts', async () => {
    const k = core.kernel('typed', { arrays: [core.shared('A')] }, [
      core.havoc('h', 'u32', core.unknownValue('a texture fetch'), core.write('A', [core.v('h', 'u32')], core.u32(1))),
      core.havoc('n', 'i32', core.approximation('a loop bound', 'not solved'), core.if_(core.cmp('<', core.v('n', 'i32'), core.i32(0)), [core.skip])),
    ]);
    const map = core.mapOf(k);
    const result = await verifyKernel(map, { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 4, solver: z3Wasm });
    const report = reportJson([{ ok: true, path: 'typed.cu', kernels: [result] }]);
    const kernel = report.kernels[0]!;
    expect(kernel.scope).toBe('assuming no signed overflow, no unsigned loop counter wrapping around, no division by zero, shifts in range (undefined behaviour is outside the scope of verification)');
    // core.cu: 4 havoc h, 5 A[h] := 1, 6 havoc n, 7 if (n < 0)
    expect(kernel.approximations).toEqual([{ what: 'a loop bound', why: 'not solved', line: 6, column: 16, endLine: 6, endColumn: 60 }]);
    expect(kernel.violations).toEqual([
      { variable: 'h', use: 'index', line: 5, column: 5, origin: 'value', what: 'a texture fetch', why: null, originLine: 4, originColumn: 16 },
      { variable: 'n', use: 'condition', line: 7, column: 7, origin: 'approximation', what: 'a loop bound', why: 'not solved', originLine: 6, originColumn: 16 },
    ]);
    expect(map.file.text.split('\n')[6]).toBe('  if (n < 0) {');
    expect(kernel.races[0]!.reason).toContain('depends on h, unknown: a texture fetch at 4:16');
    expect(isRight(VerifyReport.decode(JSON.parse(JSON.stringify(report))))).toBe(true);
  });
});
