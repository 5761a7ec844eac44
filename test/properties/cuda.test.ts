/**
 * P1–P4 through the CUDA front end (cuda-path.ts): each generated kernel,
 * from both generators (BabyCUDA's naturals and the typed one's machine
 * integers), is printed as CUDA C and goes the whole `.cu` way (preprocess,
 * parse, lower); the verifier is given the lowered kernel, and the
 * interpreter runs the generated one as the reference. Each property
 * compares as harness.ts does for the generated kernel itself, sites by line
 * of the CUDA C text. Without atomics, whose printing is not exact yet
 * (roundtrip.test.ts). A few dozen kernels, for CI; longer campaigns:
 * `npm run fuzz -- --cuda`.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary, type GenConfig } from './generator.js';
import { loadTyped, typedKernelArbitrary, type TypedConfig } from './typed-generator.js';
import { checkCompleteness, checkOutOfScope, checkReplay, checkSoundness, checkTheorem1, interestingLaunches, load, type Loaded, type Theorem1Counts } from './harness.js';
import { loadCuda, type CudaLoaded } from './cuda-path.js';
import { cudaGrammar } from '../../src/cli/cuda.js';
import type { CudaSetup } from '../../src/frontend/cuda/lower.js';

let setup: CudaSetup;
beforeAll(async () => {
  setup = { grammar: await cudaGrammar(), defines: new Map(), undefines: [], includeDirs: [], readFile: () => null };
});

const config = { dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some', atomics: false } as const satisfies GenConfig & TypedConfig;

/** Both generators' kernels, as the generated kernel (the reference) and its source. */
const GENERATORS: readonly { readonly name: string; readonly seed: number; readonly kernels: fc.Arbitrary<{ readonly loaded: () => Loaded; readonly source: string }> }[] = [
  { name: 'naturals (BabyCUDA generator)', seed: 20261127, kernels: kernelArbitrary(config).map((g) => ({ loaded: () => load(g), source: g.source, [fc.toStringMethod]: () => g.toString() })) },
  { name: 'machine integers (typed generator)', seed: 20261128, kernels: typedKernelArbitrary(config).map((g) => ({ loaded: () => loadTyped(g), source: g.source, [fc.toStringMethod]: () => g.toString() })) },
];

const viaCuda = (k: { readonly loaded: () => Loaded; readonly source: string }, opaque: boolean): CudaLoaded => loadCuda(setup, k.loaded(), k.source, opaque);

describe.each(GENERATORS)('P1–P4 on generated kernels printed as CUDA C: $name', ({ seed, kernels }) => {
  it('P1: the MAP of the lowered kernel gives, per phase, the accesses the interpreter makes in the generated one (by line)', () => {
    const counts: Theorem1Counts = { compared: 0, approximated: 0 };
    // constants the front end cannot fold, so that no code it proves dead hides an access
    fc.assert(
      fc.property(kernels, (k) => {
        const { loaded, subject } = viaCuda(k, true);
        checkTheorem1(subject, loaded, counts);
      }),
      { seed, numRuns: 25 },
    );
    expect(counts.compared).toBeGreaterThan(500);
    expect(counts.compared).toBeGreaterThan(10 * counts.approximated);
  });

  it('P2 and P4: at the interpreter\'s alarm launch verify on the lowered kernel is not DRF; its confirmed alarms are the interpreter\'s; none out of scope', async () => {
    let alarms = 0;
    await fc.assert(
      fc.asyncProperty(kernels, async (k) => {
        const { loaded, subject } = viaCuda(k, false);
        const { bad, good, outOfScope } = interestingLaunches(loaded);
        if (bad !== null) await checkSoundness(subject, loaded, bad);
        if (loaded.map.violations.length > 0) return;
        for (const at of [bad, good]) if (at !== null) alarms += await checkCompleteness(subject, loaded, at);
        if (outOfScope !== null) await checkOutOfScope(subject, loaded, outOfScope);
      }),
      { seed: seed + 1, numRuns: 8 },
    );
    expect(alarms).toBeGreaterThan(0);
  }, 300_000);

  it('P3: every confirmed alarm of verify on the lowered kernel replays there and in the generated kernel', async () => {
    let replayed = 0;
    await fc.assert(
      fc.asyncProperty(kernels, async (k) => {
        const { loaded, subject } = viaCuda(k, false);
        replayed += await checkReplay(subject, loaded);
      }),
      { seed: seed + 2, numRuns: 4 },
    );
    expect(replayed).toBeGreaterThan(0);
  }, 300_000);
});

/** Kernels on which the CUDA path and the reference once disagreed, each with the side that was wrong. */
describe('disagreements the CUDA path found', () => {
  const subjectOf = (source: string): CudaLoaded => loadCuda(setup, load({ source }), source, false);

  it('the printer declares an array only atomics reach with as many dimensions as they index it with (was: one, which the front end rejects)', async () => {
    const source = 'kernel k()\n{\n  shared S1;\n  atomic add(S1[0][tid][0], 1)\n}\n';
    const { loaded, subject } = subjectOf(source);
    expect(checkTheorem1(subject, loaded)).toBeGreaterThan(0);
    const { bad } = interestingLaunches(loaded);
    expect(bad).toBeNull();
  });
});
