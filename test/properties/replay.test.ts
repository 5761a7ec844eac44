import { describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { checkReplay, load } from './harness.js';

describe('P3: no false confirmation', () => {
  it('every confirmed alarm of verify (for all launches) replays in the interpreter', async () => {
    await fc.assert(
      fc.asyncProperty(kernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some' }), async (g) => void (await checkReplay(g, load(g)))),
      { seed: 20260305, numRuns: 10 },
    );
  });
});
