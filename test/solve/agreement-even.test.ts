import { describe, expect, it } from 'vitest';
import { examples } from '../examples/expectations.js';
import { agreementOn, summary } from './agreement.js';
import { hasPrograms } from '../support/binaries.js';

// The examples are split over two files so that both test workers share them.
describe.runIf(hasPrograms('z3', 'cvc5'))('z3-wasm, z3 and cvc5 agree on every query of the examples (even)', () => {
  it('no sat against unsat, every model satisfies its query', async () => {
    const a = await agreementOn(examples().filter((_, i) => i % 2 === 0).map((e) => e.path));
    console.log(`solver agreement (even examples): ${summary(a)}`);
    expect(a.queries).toBeGreaterThan(100);
    expect(a.disagreements).toEqual([]);
    expect(a.wrongModels).toEqual([]);
  }, 600_000);
});
