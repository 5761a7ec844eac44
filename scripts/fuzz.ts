/**
 * Long differential campaigns:
 *   npm run fuzz -- --runs N --seed S [--only P1,P2,P3,P4] [--together] [--timeout MS]
 *
 * By default each property gets its own N generated kernels, made with that
 * property's generator settings. With --together one stream of N kernels is
 * generated (values read flow into indices and conditions, assumptions at the
 * top level, non-uniform barriers) and every selected property is checked on
 * each kernel, sharing the interpreter's enumeration between P2 and P4: the
 * same number of kernels for a third of the time.
 *
 * Prints, per property, the kernels checked, what the checks saw (launches
 * compared, verdicts, alarms replayed) and the time, or the first
 * counterexample, shrunk, as source. Exit code 1 on a counterexample.
 */
import fc from 'fast-check';
import { kernelArbitrary, type GenConfig, type Generated } from '../test/properties/generator.js';
import {
  SOLVER_TIMEOUT_MS,
  checkCompleteness,
  checkReplay,
  checkSoundness,
  checkTheorem1,
  interestingLaunches,
  load,
  type Loaded,
} from '../test/properties/harness.js';

type Property = 'P1' | 'P2' | 'P3' | 'P4';
const PROPERTIES: readonly Property[] = ['P1', 'P2', 'P3', 'P4'];

interface Args {
  readonly runs: number;
  readonly seed: number;
  readonly only: ReadonlySet<Property>;
  readonly together: boolean;
  readonly timeoutMs: number;
}

const USAGE = 'use --runs N --seed S --only P1,P2,P3,P4 --together --timeout MS';

function argsOf(argv: readonly string[]): Args {
  let runs = 1000;
  let seed = Date.now() % 2 ** 31;
  let only = new Set<Property>(PROPERTIES);
  let together = false;
  let timeoutMs = SOLVER_TIMEOUT_MS;
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1] ?? '';
    switch (argv[i]) {
      case '--runs':
        runs = Number(value);
        i++;
        break;
      case '--seed':
        seed = Number(value);
        i++;
        break;
      case '--timeout':
        timeoutMs = Number(value);
        i++;
        break;
      case '--only': {
        const names = value.split(',');
        const unknown = names.filter((n) => !(PROPERTIES as readonly string[]).includes(n));
        if (unknown.length > 0) throw new Error(`unknown property ${unknown.join(', ')} (${USAGE})`);
        only = new Set(names as Property[]);
        i++;
        break;
      }
      case '--together':
        together = true;
        break;
      default:
        throw new Error(`unknown argument ${argv[i]} (${USAGE})`);
    }
  }
  if (![runs, seed, timeoutMs].every(Number.isInteger) || runs < 1 || timeoutMs < 1) throw new Error(`--runs, --seed and --timeout take integers (${USAGE})`);
  return { runs, seed, only, together, timeoutMs };
}

/** The generator settings of each property: P3 and P4 keep assumptions to the top level, where both semantics agree. */
const CONFIGS: Record<Property, GenConfig> = {
  P1: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P2: { dataFlow: true, assumes: 'any', nonUniformSync: true },
  P3: { dataFlow: true, assumes: 'top', nonUniformSync: true },
  P4: { dataFlow: false, assumes: 'top', nonUniformSync: true },
};
const TOGETHER: GenConfig = { dataFlow: true, assumes: 'top', nonUniformSync: true };

/** What the checks saw, so that a campaign's figures say how much was actually compared. */
type Tally = Map<string, number>;

function count(t: Tally, key: string, by = 1): void {
  t.set(key, (t.get(key) ?? 0) + by);
}

/**
 * The selected properties on one kernel. P2 and P4 share the interpreter's
 * enumeration: the first launch with a race or divergence (P2, P4) and the
 * first without (P4).
 */
async function checkKernel(g: Generated, selected: ReadonlySet<Property>, timeoutMs: number, tally: Tally): Promise<void> {
  const timed = async <T>(key: string, f: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await f();
    } finally {
      count(tally, `time ${key} (s)`, (performance.now() - started) / 1000);
    }
  };
  const loaded: Loaded = load(g);
  count(tally, 'kernels');
  if (loaded.map.violations.length === 0) count(tally, 'well-typed');
  if (selected.has('P1')) count(tally, 'P1 launches compared', await timed('P1', () => checkTheorem1(g)));
  if (selected.has('P2') || selected.has('P4')) {
    const { bad, good } = await timed('enumeration', () => interestingLaunches(loaded));
    if (bad !== null) count(tally, 'interpreter alarm at some launch');
    if (selected.has('P2') && bad !== null) count(tally, `P2 verify at the alarm's launch: ${await timed('P2', () => checkSoundness(g, loaded, bad, timeoutMs))}`);
    if (selected.has('P4') && loaded.map.violations.length === 0) {
      for (const at of [bad, good]) if (at !== null) count(tally, 'P4 confirmed alarms compared', await timed('P4', () => checkCompleteness(g, loaded, at, timeoutMs)));
    }
  }
  if (selected.has('P3')) count(tally, 'P3 confirmed alarms replayed', await timed('P3', () => checkReplay(g, loaded, timeoutMs)));
  if (tally.get('kernels')! % 500 === 0) console.error(`  … ${tally.get('kernels')} kernels`);
}

async function campaign(name: string, config: GenConfig, selected: ReadonlySet<Property>, args: Args): Promise<boolean> {
  const tally: Tally = new Map();
  const started = performance.now();
  const details = await fc.check(
    fc.asyncProperty(kernelArbitrary(config), (g) => checkKernel(g, selected, args.timeoutMs, tally)),
    { seed: args.seed, numRuns: args.runs },
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (details.failed) {
    console.log(`${name}: FAILED after ${details.numRuns} kernels (${seconds} s), seed ${args.seed}, path ${details.counterexamplePath ?? ''}`);
    console.log(details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance));
    return false;
  }
  // fast-check also counts the shrinking runs of a failure; on success every run is one kernel
  console.log(`${name}: ${details.numRuns} kernels passed in ${seconds} s`);
  for (const [key, n] of [...tally].sort(([a], [b]) => a.localeCompare(b))) console.log(`  ${key}: ${Number.isInteger(n) ? n : n.toFixed(1)}`);
  return true;
}

async function main(): Promise<void> {
  const args = argsOf(process.argv.slice(2));
  console.log(`seed ${args.seed}, ${args.runs} kernels ${args.together ? 'checked by every property' : 'per property'}, ${args.timeoutMs} ms per query`);
  let passed = true;
  if (args.together) {
    passed = await campaign([...args.only].join('+'), TOGETHER, args.only, args);
  } else {
    for (const p of PROPERTIES) if (args.only.has(p)) passed = (await campaign(p, CONFIGS[p], new Set([p]), args)) && passed;
  }
  process.exitCode = passed ? 0 : 1;
}

await main();
