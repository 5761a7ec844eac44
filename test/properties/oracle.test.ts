/**
 * P6: the semantics extracted from the Coq mechanisation (the third oracle,
 * proofs/oracle), the TypeScript interpreter and the verifier agree on
 * generated kernels of the model's fragment (test/properties/oracle.ts).
 * CI installs Coq, OCaml and Zarith (.ci/run) and so always runs it; on a
 * machine without them it is skipped, saying what to install.
 * `npm run fuzz -- --only P6` runs a longer campaign.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary, type GenConfig } from './generator.js';
import { load } from './harness.js';
import { builtOracle, checkOracle, oracleCounts, TYPED_ORACLE_CONFIG } from './oracle.js';
import { loadTyped, typedKernelArbitrary } from './typed-generator.js';

/** The .bcu files under a folder, recursively. */
function bcuFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? bcuFiles(join(dir, e.name)) : e.name.endsWith('.bcu') ? [join(dir, e.name)] : []));
}

/**
 * Kernels whose run depends on the order in which a phase's racing writes
 * are committed (the last thread's wins, in both semantics), which generated
 * kernels seldom reach: a read of the element in a later phase, its value
 * used as an index and a loop bound.
 */
const COMMIT_ORDER = [
  `kernel k() {
  shared A;
  A[0] := tid;
  sync;
  let v = A[0] in
  A[v + 1] := 1
}`,
  `kernel k(n) {
  global G;
  for i in 0..n { G[i] := tid + i; sync };
  let v = G[0] in
  for j in 0..v { G[j + 5] := j }
}`,
];

const oracle = builtOracle();
if ('missing' in oracle) {
  if (process.env['CI']) throw new Error(`the oracle cannot be built under CI: ${oracle.missing}`);
  console.warn(`skipping the extracted oracle's tests: ${oracle.missing}`);
}
const binary = 'path' in oracle ? oracle.path : '';

/** The fragment of the Coq model: no syncwarp, independent threads. */
const ORACLE_CONFIG: GenConfig = { dataFlow: true, assumes: 'any', nonUniformSync: true };

describe.skipIf('missing' in oracle)('P6: the extracted Coq semantics, the interpreter and the verifier agree', () => {
  it('at every launch (grids of one or two blocks), the extracted run and the interpreter have the same phases, accesses, values and races; the extracted MAP run the same accesses when well-typed', async () => {
    const counts = oracleCounts();
    await fc.assert(
      fc.asyncProperty(kernelArbitrary(ORACLE_CONFIG), async (g) => void (await checkOracle(g, load(g), binary, counts, false))),
      { seed: 20270101, numRuns: 200 },
    );
    // the campaign compared something of each kind, not only launches it skipped
    expect(counts.outside).toBe(0);
    expect(counts.wellTyped).toBeGreaterThan(20);
    expect(counts.mapCompared).toBeGreaterThan(100);
    expect(counts.grids).toBeGreaterThan(100);
    expect(counts.atomics - counts.atomicsIllTyped).toBeGreaterThan(10);
    for (const kind of ['finished', 'divergent', 'infeasible']) expect(counts.launches[kind] ?? 0, kind).toBeGreaterThan(0);
  }, 600_000);

  it('every example kernel of the fragment, and kernels that race then read, run alike in both semantics', async () => {
    const counts = oracleCounts();
    const sources = [...bcuFiles('examples').map((f) => readFileSync(f, 'utf8')), ...COMMIT_ORDER];
    for (const source of sources) await checkOracle({ source }, load({ source }), binary, counts, false);
    // the examples with syncwarp are outside; the others are compared
    expect(counts.kernels).toBeGreaterThan(30);
    expect(counts.outside).toBeGreaterThan(0);
  }, 600_000);

  it('on machine integers: the extracted run (C\'s operations, wrap-around, undefined operations) and the interpreter agree at every launch, and verify at one', async () => {
    const counts = oracleCounts();
    await fc.assert(
      fc.asyncProperty(typedKernelArbitrary(TYPED_ORACLE_CONFIG), async (g) => void (await checkOracle(g, loadTyped(g), binary, counts, true))),
      { seed: 20270103, numRuns: 60 },
    );
    expect(counts.outside).toBe(0);
    expect(counts.wellTyped).toBeGreaterThan(10);
    expect(counts.mapCompared).toBeGreaterThan(50);
    // indices that wrapped around were compared, and launches that stop at an undefined operation
    expect(counts.highIndex).toBeGreaterThan(10);
    for (const kind of ['finished', 'undefined']) expect(counts.launches[kind] ?? 0, kind).toBeGreaterThan(0);
    expect(Object.keys(counts.verified).some((k) => k.startsWith('well-typed: verify racy'))).toBe(true);
  }, 600_000);

  it('verify with the launch fixed agrees with the extracted run there (exactly, for a well-typed kernel)', async () => {
    const counts = oracleCounts();
    await fc.assert(
      fc.asyncProperty(kernelArbitrary(ORACLE_CONFIG), async (g) => void (await checkOracle(g, load(g), binary, counts, true))),
      { seed: 20270102, numRuns: 30 },
    );
    expect(Object.keys(counts.verified).some((k) => k.startsWith('well-typed: verify racy'))).toBe(true);
    expect(Object.keys(counts.verified).some((k) => k.startsWith('well-typed: verify drf'))).toBe(true);
  }, 600_000);
});
