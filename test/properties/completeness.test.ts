import { describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { checkCompleteness, interestingLaunches, load } from './harness.js';

describe('P4: completeness for well-typed kernels within bounds', () => {
  it('every confirmed alarm of verify at a fixed launch is seen by the interpreter at that launch', async () => {
    // assumptions only at the top level over parameters: elsewhere the two semantics differ on purpose
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: true }), async (g) => {
        const loaded = load(g);
        if (loaded.map.violations.length > 0) return;
        const { bad, good } = interestingLaunches(loaded);
        for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
      }),
      { seed: 20260304, numRuns: 50 },
    );
  });
});
