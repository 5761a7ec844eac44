import { describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { checkSoundness, interestingLaunches, load } from './harness.js';

describe('P2: soundness', () => {
  it('where the interpreter finds a race or a divergence, verify with that launch fixed does not say DRF (nor vacuous)', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some' }), async (g) => {
        const loaded = load(g);
        const { bad } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(g, loaded, bad);
      }),
      { seed: 20260303, numRuns: 60 },
    );
    // 60 verifications of generated kernels with assumptions anywhere: about two minutes on a loaded 2-core machine
  }, 600_000);
});
