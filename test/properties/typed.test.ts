/**
 * The differential properties on random core kernels with machine integers
 * (typed-generator.ts), against the interpreter over small launches whose
 * typed parameters include negative values and the type's maximum. Launches
 * the interpreter stops as undefined behaviour are outside the scope, like
 * infeasible ones. P1 (Theorem 1, executable), P2 (soundness), P4
 * (completeness of confirmed alarms, and none at a launch out of scope) and
 * P3 (every confirmed alarm replays, its whole launch in scope).
 */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { loadTyped, typedKernelArbitrary } from './typed-generator.js';
import { checkCompleteness, checkOutOfScope, checkReplay, checkSoundness, checkTheorem1, interestingLaunches } from './harness.js';

describe('differential properties on machine integers', () => {
  it('P1: the interpreter and the MAP evaluator give the same accesses per phase (with the values read and drawn)', () => {
    fc.assert(
      fc.property(typedKernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some' }), (g) => void checkTheorem1(g, loadTyped(g))),
      { seed: 20261201, numRuns: 300 },
    );
  });

  it('P2: where the interpreter finds a race or a divergence in scope, verify with that launch fixed does not say DRF', async () => {
    await fc.assert(
      fc.asyncProperty(typedKernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some' }), async (g) => {
        const loaded = loadTyped(g);
        const { bad } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(g, loaded, bad);
      }),
      { seed: 20261202, numRuns: 40 },
    );
  }, 600_000);

  it('P4: every confirmed alarm of verify at a fixed launch is seen by the interpreter there', async () => {
    await fc.assert(
      fc.asyncProperty(typedKernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: true, warps: 'some' }), async (g) => {
        const loaded = loadTyped(g);
        if (loaded.map.violations.length > 0) return;
        const { bad, good } = interestingLaunches(loaded);
        for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
      }),
      { seed: 20261204, numRuns: 30 },
    );
  }, 600_000);

  it('P4 out of scope: at a launch where a thread fails an assumption or evaluates an undefined operation, verify with it fixed confirms nothing', async () => {
    // cheap (one verify per kernel, at one launch), so many kernels: a race among some threads while another one overflows is rare
    await fc.assert(
      fc.asyncProperty(typedKernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: true, warps: 'some' }), async (g) => {
        const loaded = loadTyped(g);
        if (loaded.map.violations.length > 0) return;
        const { outOfScope } = interestingLaunches(loaded);
        if (outOfScope !== null) await checkOutOfScope(g, loaded, outOfScope);
      }),
      { seed: 20261205, numRuns: 200 },
    );
  }, 600_000);

  it('P2 and P4 on unsigned indices that wrap around (C computes them modulo 2^32): the interpreter and verify agree on the races there', async () => {
    await fc.assert(
      fc.asyncProperty(typedKernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: false, warps: 'some', wraps: true }), async (g) => {
        const loaded = loadTyped(g);
        const { bad, good } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(g, loaded, bad);
        if (loaded.map.violations.length > 0) return;
        for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
      }),
      { seed: 20261206, numRuns: 15 },
    );
  }, 600_000);

  it('P3: every confirmed alarm of verify for all launches replays', async () => {
    await fc.assert(
      fc.asyncProperty(typedKernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: false, warps: 'some' }), async (g) => void (await checkReplay(g, loadTyped(g)))),
      { seed: 20261203, numRuns: 12 },
    );
  }, 600_000);
});
