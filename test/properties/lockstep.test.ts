/**
 * P2, P4 and P3 on kernels that all run with lockstep warps (a warp size of
 * 2, 3, 4 or 32 each), whose statements are often the shapes lockstep decides:
 * accesses threads of one warp meet at, in sequence, in one statement, on the
 * two sides of a thread-dependent `if`, in loops. The other property tests
 * check about half their kernels with warps; these check lockstep's meaning
 * in the verifier (src/map/lockstep.ts, the race query's warp constraint)
 * against the interpreter's lockstep scheduler on more such kernels.
 */
import { describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { checkCompleteness, checkOutOfScope, checkReplay, checkSoundness, interestingLaunches, load } from './harness.js';

describe('differential properties with lockstep warps', () => {
  it('P2: where the lockstep interpreter finds a race or a divergence, verify with the warp size and that launch fixed does not say DRF', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: true, assumes: 'top', nonUniformSync: true, warps: 'every' }), async (g) => {
        const loaded = load(g);
        const { bad } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(g, loaded, bad);
      }),
      { seed: 20261301, numRuns: 40 },
    );
  }, 600_000);

  it('P4: every confirmed alarm of verify with the warp size at a fixed launch is seen by the lockstep interpreter there', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: true, warps: 'every' }), async (g) => {
        const loaded = load(g);
        if (loaded.map.violations.length > 0) return;
        const { bad, good, outOfScope } = interestingLaunches(loaded);
        for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
        if (outOfScope !== null) await checkOutOfScope(g, loaded, outOfScope);
      }),
      { seed: 20261302, numRuns: 40 },
    );
  }, 600_000);

  it('P3: every confirmed alarm of verify with the warp size replays in the lockstep interpreter', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: true, warps: 'every' }), async (g) => void (await checkReplay(g, load(g)))),
      { seed: 20261303, numRuns: 10 },
    );
  }, 600_000);
});
