import { describe, expect, it } from 'vitest';
import { verifyExitCode } from '../../src/cli/exit.js';
import { error } from '../../src/diagnostics/diagnostic.js';
import { sourceFile } from '../../src/core/source.js';
import type { FileResult } from '../../src/verify/result.js';
import type { KernelResult, Status } from '../../src/verify/result.js';

const file = sourceFile('k.bcu', 'kernel k() { skip }\n');

function kernel(status: Status): KernelResult {
  return {
    file,
    kernel: `k_${status}`,
    span: { start: 0, end: 19 },
    status,
    wellTyped: true,
    violations: [],
    races: [],
    divergences: [],
    unknowns: status === 'unknown' ? [{ query: 'k/phase0/A', reason: 'timeout' }] : [],
    errors: [],
    vacuous: status === 'vacuous',
    stats: { accesses: 1, phases: 1, arrays: 1, queries: 1, withoutSolver: 0, milliseconds: 1, stages: { phases: 0, encoding: 0, solving: 1, witnesses: 0 } },
  };
}

const ok = (...statuses: Status[]): FileResult => ({ ok: true, path: 'k.bcu', kernels: statuses.map(kernel) });
const broken: FileResult = { ok: false, path: 'bad.bcu', diagnostics: [error('E0001', file, { start: 0, end: 1 }, 'syntax error')] };

describe('verifyExitCode', () => {
  it('is 0 when every kernel is DRF', () => expect(verifyExitCode([ok('drf', 'drf')])).toBe(0));
  it('is 1 on a race or a divergence, even with unknowns elsewhere', () => {
    expect(verifyExitCode([ok('drf', 'racy')])).toBe(1);
    expect(verifyExitCode([ok('divergent'), ok('unknown')])).toBe(1);
  });
  it('is 3 when nothing is alarming but something is not proved', () => expect(verifyExitCode([ok('drf', 'unknown')])).toBe(3));
  it('is 4 when some kernel is vacuous and none has an alarm, whatever is unknown elsewhere', () => {
    expect(verifyExitCode([ok('drf', 'vacuous')])).toBe(4);
    expect(verifyExitCode([ok('unknown'), ok('vacuous')])).toBe(4);
    expect(verifyExitCode([ok('racy', 'vacuous')])).toBe(1);
  });
  it('is 2 on bad input, whatever else', () => {
    expect(verifyExitCode([ok('racy'), broken])).toBe(2);
    expect(verifyExitCode([ok('error', 'drf')])).toBe(2);
  });
});
