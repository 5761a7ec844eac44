/**
 * Long differential campaigns: `npm run fuzz -- --runs N --seed S [--only P1,P2,P3,P4] [--data]`.
 * Runs the properties of test/properties on N generated kernels per property
 * and prints, for each, the kernels checked, the time taken and the first
 * counterexample (shrunk, as source) if there is one. Exit code 1 on a
 * counterexample.
 */
import fc from 'fast-check';
import { kernelArbitrary, type GenConfig, type Generated } from '../test/properties/generator.js';
import { checkCompleteness, checkReplay, checkSoundness, checkTheorem1, interestingLaunches, load } from '../test/properties/harness.js';

interface Args {
  runs: number;
  seed: number;
  only: Set<string>;
}

function argsOf(argv: readonly string[]): Args {
  const args: Args = { runs: 1000, seed: Date.now() % 2 ** 31, only: new Set(['P1', 'P2', 'P3', 'P4']) };
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--runs':
        args.runs = Number(value);
        i++;
        break;
      case '--seed':
        args.seed = Number(value);
        i++;
        break;
      case '--only':
        args.only = new Set((value ?? '').split(','));
        i++;
        break;
      default:
        throw new Error(`unknown argument ${argv[i]} (use --runs N --seed S --only P1,P2,P3,P4)`);
    }
  }
  if (!Number.isInteger(args.runs) || args.runs < 1 || !Number.isInteger(args.seed)) throw new Error('--runs and --seed take integers');
  return args;
}

/** The generator settings of each property: P4 keeps assumptions to the top level, where both semantics agree. */
const CONFIGS: Record<string, GenConfig> = {
  P1: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P2: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P3: { dataFlow: true, assumes: 'top', nonUniformSync: true },
  P4: { dataFlow: false, assumes: 'top', nonUniformSync: true },
};

const PROPERTIES: Record<string, (g: Generated) => Promise<void>> = {
  P1: async (g) => void checkTheorem1(g),
  P2: async (g) => {
    const loaded = load(g);
    const { bad } = interestingLaunches(loaded);
    if (bad !== null) await checkSoundness(g, loaded, bad);
  },
  P3: async (g) => void (await checkReplay(g, load(g))),
  P4: async (g) => {
    const loaded = load(g);
    if (loaded.map.violations.length > 0) return;
    const { bad, good } = interestingLaunches(loaded);
    for (const at of [bad, good]) if (at !== null) await checkCompleteness(g, loaded, at);
  },
};

async function main(): Promise<void> {
  const args = argsOf(process.argv.slice(2));
  let failed = false;
  console.log(`seed ${args.seed}, ${args.runs} kernels per property`);
  for (const [name, property] of Object.entries(PROPERTIES)) {
    if (!args.only.has(name)) continue;
    const started = performance.now();
    const details = await fc.check(fc.asyncProperty(kernelArbitrary(CONFIGS[name]!), property), { seed: args.seed, numRuns: args.runs });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    if (details.failed) {
      failed = true;
      console.log(`${name}: FAILED after ${details.numRuns} kernels (${seconds} s), seed ${args.seed}, path ${details.counterexamplePath ?? ''}`);
      console.log(details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance));
    } else {
      console.log(`${name}: ${details.numRuns} kernels passed in ${seconds} s`);
    }
  }
  process.exitCode = failed ? 1 : 0;
}

await main();
