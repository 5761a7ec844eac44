/**
 * A longer campaign of the differential properties on kernels with machine
 * integers (test/properties/typed.test.ts runs a fixed seed set in CI):
 *
 *   nice -n 10 npx tsx scripts/fuzz-typed.ts P1|P2|P3|P4|P6 SEED RUNS [--syncwarp] [--wraps]
 *
 * `--syncwarp` puts `syncwarp` among the generated statements, `--wraps`
 * accesses at unsigned indices that wrap around (typed-generator.ts). P6
 * runs the extracted Coq oracle (test/properties/oracle.ts; `make -C proofs
 * oracle` first) on the kernels of its fragment, with the wrapping indices
 * (TYPED_ORACLE_CONFIG), verify at one launch of each.
 * Prints what was compared and every failure with its kernel; exit code 1
 * when one failed.
 */
import fc from 'fast-check';
import { checkCompleteness, checkReplay, checkSoundness, checkTheorem1, interestingLaunches } from '../test/properties/harness.js';
import { loadTyped, typedKernelArbitrary, type TypedConfig } from '../test/properties/typed-generator.js';
import { ORACLE_BINARY, TYPED_ORACLE_CONFIG, checkOracle, oracleCounts } from '../test/properties/oracle.js';

const args = process.argv.slice(2);
const syncwarp = args.includes('--syncwarp');
const wraps = args.includes('--wraps');
const [property = '', seedText = '1', runsText = '100'] = args.filter((a) => a !== '--syncwarp' && a !== '--wraps');
if (!['P1', 'P2', 'P3', 'P4', 'P6'].includes(property)) {
  console.error('use: fuzz-typed.ts P1|P2|P3|P4|P6 SEED RUNS [--syncwarp] [--wraps]');
  process.exit(2);
}
// the settings of the CI test for each property, some kernels with lockstep warps
const config: TypedConfig =
  property === 'P6' ? TYPED_ORACLE_CONFIG : {
  ...(property === 'P1' || property === 'P2' ? { dataFlow: true, assumes: 'any', nonUniformSync: true, warps: 'some' } : { dataFlow: false, assumes: 'top', nonUniformSync: property === 'P4', warps: 'some' }),
  syncwarp,
  wraps,
};
const started = performance.now();
const figures = { kernels: 0, compared: 0, failures: 0, verdicts: new Map<string, number>() };
const p6 = oracleCounts();
for (const g of fc.sample(typedKernelArbitrary(config), { seed: Number(seedText), numRuns: Number(runsText) })) {
  figures.kernels++;
  try {
    const loaded = loadTyped(g);
    if (property === 'P1') figures.compared += checkTheorem1(g, loaded);
    if (property === 'P2') {
      const { bad } = interestingLaunches(loaded);
      if (bad === null) continue;
      figures.compared++;
      const verdict = await checkSoundness(g, loaded, bad);
      figures.verdicts.set(verdict, (figures.verdicts.get(verdict) ?? 0) + 1);
    }
    if (property === 'P3') figures.compared += await checkReplay(g, loaded);
    if (property === 'P6' && (await checkOracle(g, loaded, ORACLE_BINARY, p6, true))) figures.compared++;
    if (property === 'P4' && loaded.map.violations.length === 0) {
      const { bad, good } = interestingLaunches(loaded);
      for (const at of [bad, good]) if (at !== null) figures.compared += await checkCompleteness(g, loaded, at);
    }
  } catch (e) {
    figures.failures++;
    console.log(`FAILED: ${e instanceof Error ? e.message : String(e)}`);
  }
}
if (property === 'P6') console.log(JSON.stringify(p6, null, 1));
const what = { P6: 'kernels compared with the extracted oracle', P1: 'launches compared', P2: "kernels verified at an interpreter alarm's launch", P3: 'confirmed alarms replayed', P4: 'confirmed alarms seen by the interpreter' }[property];
const verdicts = [...figures.verdicts].map(([v, n]) => `${v} ${n}`).join(', ');
console.log(`${property}: ${figures.kernels} kernels, ${figures.compared} ${what}${verdicts === '' ? '' : ` (${verdicts})`}, ${figures.failures} failed, ${Math.round((performance.now() - started) / 1000)} s`);
process.exit(figures.failures > 0 ? 1 : 0);
