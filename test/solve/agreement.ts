/**
 * The three solvers on every query of every example (divergence, loop
 * completion and race queries, as `faial-ts smt --out` writes them): a sat on
 * one side and unsat on another is a failure, and so is a model that does not
 * satisfy its query. A timeout or unknown on either side is no disagreement;
 * it is counted and printed. The timeout per query is short so that the test
 * stays affordable; the verdicts that matter are the decided ones.
 */
import { describe, expect, it } from 'vitest';
import { examples } from '../examples/expectations.js';
import { hasPrograms } from '../support/binaries.js';
import type { Launch } from '../../src/core/launch.js';
import { readFileSync } from 'node:fs';
import { solverOf } from '../../src/solve/backends.js';
import type { Solver, Verdict } from '../../src/solve/solver.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { DEFAULT_RLIMIT } from '../../src/solve/budget.js';
import { checkedKernels } from '../../src/api/check.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { queryScripts } from '../../src/verify/scripts.js';
import { completedModel, modelSatisfies } from '../../src/verify/witness.js';
import { decodeModel } from '../../src/encode/smtlib.js';

export const QUERY_TIMEOUT_MS = 1_000;
const PHASE_SPLIT_TIMEOUT_MS = 2_000;

const SOLVERS: readonly Solver[] = [z3Wasm, solverOf({ kind: 'z3' }, DEFAULT_RLIMIT), solverOf({ kind: 'cvc5' }, DEFAULT_RLIMIT)];
const NO_LAUNCH: Launch = { params: new Map(), blockDim: null, gridDim: null };

export interface Agreement {
  readonly queries: number;
  /** `query: z3-wasm=sat z3=unsat …` */
  readonly disagreements: string[];
  readonly wrongModels: string[];
  /** queries some solver did not decide in time, by solver */
  readonly undecided: Map<string, number>;
  readonly milliseconds: number;
}

const shown = (v: Verdict): string => (v.status === 'unknown' ? `unknown (${v.reason})` : v.status);

export async function agreementOn(paths: readonly string[]): Promise<Agreement> {
  const started = performance.now();
  const result: Agreement = { queries: 0, disagreements: [], wrongModels: [], undecided: new Map(), milliseconds: 0 };
  let queries = 0;
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    // a .cu example through the CUDA front end, as the examples test and the CLI read it
    const checked = checkedKernels(path, text, undefined, undefined, await frontEndsFor(path, text, {}));
    if (!checked.ok) throw new Error(`${path} does not parse`);
    for (const map of checked.kernels) {
      for (const { name, script, query } of await queryScripts(map, NO_LAUNCH, PHASE_SPLIT_TIMEOUT_MS, z3Wasm)) {
        queries++;
        const verdicts = await Promise.all(SOLVERS.map((s) => s.check(script, QUERY_TIMEOUT_MS)));
        const statuses = new Set(verdicts.map((v) => v.status).filter((s) => s !== 'unknown'));
        const line = `${path} ${name}: ${SOLVERS.map((s, i) => `${s.name}=${shown(verdicts[i]!)}`).join(' ')}`;
        if (statuses.size > 1) result.disagreements.push(line);
        verdicts.forEach((v, i) => {
          if (v.status === 'unknown') result.undecided.set(SOLVERS[i]!.name, (result.undecided.get(SOLVERS[i]!.name) ?? 0) + 1);
          if (v.status === 'sat' && query !== null && !modelSatisfies(query, completedModel(query, decodeModel(query.encoding, v.model)))) result.wrongModels.push(`${line}: the model of ${SOLVERS[i]!.name}`);
        });
      }
    }
  }
  return { ...result, queries, milliseconds: performance.now() - started };
}

export function summary(a: Agreement): string {
  const undecided = [...a.undecided].map(([s, n]) => `${s} ${n}`).join(', ');
  return `${a.queries} queries in ${Math.round(a.milliseconds / 1000)} s; not decided within ${QUERY_TIMEOUT_MS} ms: ${undecided || 'none'}`;
}

/**
 * The agreement test on the k-th of n slices of the examples. The examples are
 * split over several files so that the test workers share them and each file
 * stays well inside its time limit on a loaded machine.
 */
export function describeAgreementOnSlice(k: number, n: number): void {
  describe.runIf(hasPrograms('z3', 'cvc5'))(`z3-wasm, z3 and cvc5 agree on every query of the examples (slice ${k + 1} of ${n})`, () => {
    it('no sat against unsat, every model satisfies its query', async () => {
      const a = await agreementOn(examples().filter((_, i) => i % n === k).map((e) => e.path));
      console.log(`solver agreement (slice ${k + 1} of ${n}): ${summary(a)}`);
      expect(a.queries).toBeGreaterThan(100);
      expect(a.disagreements).toEqual([]);
      expect(a.wrongModels).toEqual([]);
    }, 600_000);
  });
}
