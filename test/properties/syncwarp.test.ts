/**
 * The differential properties on kernels with `syncwarp` (a barrier among
 * the threads of a warp, docs/language.md): P1 (Theorem 1, per block
 * phase), P2 (soundness), P3 (every confirmed alarm replays) and P4
 * (completeness of confirmed alarms) on both generators' kernels, and the
 * round trip's lines through CUDA's `__syncwarp()`. The enumerated launches
 * have blocks of at most 4 threads, one warp: P1, P2 and P4 check the warp
 * phases and syncwarp's divergence; P3 asks for every launch, so its
 * witnesses have blocks of several warps too.
 */
import { beforeAll, describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { loadTyped, typedKernelArbitrary } from './typed-generator.js';
import { checkCompleteness, checkReplay, checkSoundness, checkTheorem1, interestingLaunches, load } from './harness.js';
import { checkLines, roundTrip } from './roundtrip.js';
import { cudaGrammar } from '../../src/cli/cuda.js';
import type { CudaSetup } from '../../src/frontend/cuda/lower.js';

const naturals = kernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, syncwarp: true });
const typed = typedKernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, syncwarp: true });

describe('differential properties with syncwarp', () => {
  it('P1: per block phase, the interpreter and the MAP evaluator give the same accesses', () => {
    fc.assert(
      fc.property(naturals, (g) => void checkTheorem1(g)),
      { seed: 20261301, numRuns: 150 },
    );
  });

  it('P2: where the interpreter finds a race or a divergence, verify with that launch fixed does not say DRF', async () => {
    await fc.assert(
      fc.asyncProperty(naturals, async (g) => {
        const loaded = load(g);
        const { bad } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(g, loaded, bad);
      }),
      { seed: 20261302, numRuns: 40 },
    );
  }, 600_000);

  it('P3: every confirmed alarm of verify for all launches replays', async () => {
    await fc.assert(
      fc.asyncProperty(naturals, async (g) => void (await checkReplay(g, load(g)))),
      { seed: 20261303, numRuns: 15 },
    );
  }, 600_000);

  it('P4: every confirmed alarm of verify at a fixed launch is seen by the interpreter there', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: true, syncwarp: true }), async (g) => {
        const loaded = load(g);
        if (loaded.map.violations.length > 0) return;
        const { bad, good } = interestingLaunches(loaded);
        for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
      }),
      { seed: 20261304, numRuns: 30 },
    );
  }, 600_000);

  it('P2 and P3 on machine integers', async () => {
    await fc.assert(
      fc.asyncProperty(typed, async (g) => {
        const loaded = loadTyped(g);
        const { bad } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(g, loaded, bad);
        await checkReplay(g, loaded);
      }),
      { seed: 20261305, numRuns: 15 },
    );
  }, 600_000);

  describe('the round trip through __syncwarp()', () => {
    let setup: CudaSetup;
    beforeAll(async () => {
      setup = { grammar: await cudaGrammar(), defines: new Map(), undefines: [], includeDirs: [], readFile: () => null };
    });

    it('gives back every access and barrier, syncwarp included, from its line', () => {
      const config = { dataFlow: true, assumes: 'any', nonUniformSync: true, atomics: false, syncwarp: true } as const;
      fc.assert(
        fc.property(kernelArbitrary(config), (g) => checkLines(roundTrip(setup, load(g), true, g.source))),
        { seed: 20261306, numRuns: 40 },
      );
      fc.assert(
        fc.property(typedKernelArbitrary(config), (g) => checkLines(roundTrip(setup, loadTyped(g), true, g.source))),
        { seed: 20261307, numRuns: 40 },
      );
    });
  });
});
