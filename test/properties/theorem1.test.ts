import { describe, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { checkTheorem1 } from './harness.js';

describe('P1: Theorem 1, executable', () => {
  it('per phase, the interpreter and the MAP evaluator give the same accesses (well-typed, and ill-typed with the values read)', () => {
    fc.assert(
      fc.property(kernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some' }), (g) => void checkTheorem1(g)),
      { seed: 20260301, numRuns: 300 },
    );
  });

  it('well-typed kernels need no values read', () => {
    fc.assert(
      fc.property(kernelArbitrary({ dataFlow: false, assumes: 'top', nonUniformSync: false, warps: 'some' }), (g) => void checkTheorem1(g)),
      { seed: 20260302, numRuns: 200 },
    );
  });
});
