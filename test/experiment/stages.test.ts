import { describe, expect, it } from 'vitest';
import { verifyText } from '../../src/api/verify.js';
import { VERIFY_STAGES } from '../../src/verify/result.js';
import { z3Wasm } from '../../src/solve/z3.js';

describe("verify's stage times", () => {
  it('split the time of a kernel into phases, encoding, solving and witnesses, which add up to it', async () => {
    const text = 'kernel k(M) { shared A; for x in 0..M { A[tid] := x; sync; let y = A[tid + 1] in skip; sync } }';
    const file = await verifyText('k.bcu', text, { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 30_000, maxRaces: 5, solver: z3Wasm });
    if (!file.ok) throw new Error('does not check');
    const { stats } = file.kernels[0]!;
    expect(file.kernels[0]!.status).toBe('drf');
    expect(stats.accesses).toBe(2);
    const sum = VERIFY_STAGES.reduce((s, stage) => s + stats.stages[stage], 0);
    expect(sum).toBeCloseTo(stats.milliseconds, 6);
    // the loop's alignment is a solver check of the phase split, the race queries others
    expect(stats.stages.solving).toBeGreaterThan(0);
    expect(stats.stages.encoding).toBeGreaterThan(0);
    expect(stats.stages.phases).toBeGreaterThan(0);
    for (const stage of VERIFY_STAGES) expect(stats.stages[stage]).toBeGreaterThanOrEqual(0);
  });
});
