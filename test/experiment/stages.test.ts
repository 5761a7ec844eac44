import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { verifyText } from '../../src/api/verify.js';
import { VERIFY_STAGES } from '../../src/verify/result.js';
import { z3Wasm } from '../../src/solve/z3.js';

describe("verify's stage times", () => {
  it('split the time of a kernel into phases, encoding, solving and witnesses, which add up to it', async () => {
    // two of its queries reach the solver (the simplifier decides the sync-loop kernels' alone now)
    const text = readFileSync('examples/stencils/stencil1d.bcu', 'utf8');
    const file = await verifyText('k.bcu', text, { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 30_000, maxRaces: 5, solver: z3Wasm });
    if (!file.ok) throw new Error('does not check');
    const { stats } = file.kernels[0]!;
    expect(file.kernels[0]!.status).toBe('drf');
    expect(stats.accesses).toBeGreaterThan(0);
    const sum = VERIFY_STAGES.reduce((s, stage) => s + stats.stages[stage], 0);
    expect(sum).toBeCloseTo(stats.milliseconds, 6);
    expect(stats.stages.solving).toBeGreaterThan(0);
    expect(stats.stages.encoding).toBeGreaterThan(0);
    expect(stats.stages.phases).toBeGreaterThan(0);
    for (const stage of VERIFY_STAGES) expect(stats.stages[stage]).toBeGreaterThanOrEqual(0);
  });
});
