import { describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { checkCompleteness, checkOutOfScope, interestingLaunches, load } from './harness.js';

describe('P4: completeness for well-typed kernels within bounds', () => {
  it('every confirmed alarm of verify at a fixed launch is seen by the interpreter at that launch, and none at a launch it finds infeasible', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: false, assumes: 'any', nonUniformSync: true, warps: 'some' }), async (g) => {
        const loaded = load(g);
        if (loaded.map.violations.length > 0) return;
        const { bad, good, outOfScope } = interestingLaunches(loaded);
        for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
        if (outOfScope !== null) await checkOutOfScope(g, loaded, outOfScope);
      }),
      { seed: 20260304, numRuns: 50 },
    );
  });
});
