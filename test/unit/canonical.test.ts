/**
 * Canonical witnesses (issue 29, src/verify/canonical.ts): a portfolio takes
 * the first sat from any member, so the model behind a witness comes from
 * whichever solver was fastest; the witness must not depend on it. Solvers
 * that give other models for the same questions (a solver steered away
 * from z3's model, and each member of the real portfolio made the one that
 * answers) must give the same reports.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../src/api/check.js';
import { launchWithHeader } from '../../src/api/cuda.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { kernelJson } from '../../src/report/json.js';
import { DEFAULT_RLIMIT } from '../../src/solve/budget.js';
import { defaultMembers, racingPortfolio } from '../../src/solve/members.js';
import type { Solver } from '../../src/solve/solver.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { least } from '../../src/verify/canonical.js';
import { hasPrograms } from '../support/binaries.js';

/** Kernels whose races a solver finds (the search does not): a ring index mod 32; signed loop values and a grid-level race. */
const KERNELS = ['examples/cuda/unsigned/rotate-left-racy.cu', 'examples/cuda/macros/config-if-in-place.cu'];

/** Each kernel's report as `verify --json` gives it, stats aside, and how many checks the solver was given. */
async function reports(solver: Solver, paths: readonly string[] = KERNELS): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const path of paths) {
    const text = readFileSync(path, 'utf8');
    const checked = checkedKernels(path, text, undefined, undefined, await frontEndsFor(path, text, {}));
    if (!checked.ok) throw new Error(`${path} does not parse`);
    for (const map of checked.kernels) {
      const k = await verifyKernel(map, { launch: launchWithHeader(NO_LAUNCH, text).launch, timeoutMs: 600_000, maxRaces: 20, solver });
      const { stats: _stats, ...report } = kernelJson(k);
      out.push(report);
    }
  }
  return out;
}

/** An SMT-LIB constant's literal of the sort it is declared with in the script. */
function literal(script: string, name: string, value: bigint): string {
  const width = new RegExp(`\\(declare-const ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(_ BitVec (\\d+)\\)\\)`).exec(script)?.[1];
  if (width !== undefined) return `(_ bv${value < 0n ? (1n << BigInt(width)) + value : value} ${width})`;
  return value < 0n ? `(- ${-value})` : `${value}`;
}

/** z3-wasm, but where a query has another model than z3's, that one: a solver as fast to answer, with models of its own. */
function steered(): Solver & { readonly steered: () => number } {
  let count = 0;
  return {
    name: 'steered',
    steered: () => count,
    async check(script, timeoutMs, options) {
      const first = await z3Wasm.check(script, timeoutMs, options);
      if (first.status !== 'sat' || first.model.size === 0) return first;
      const same = [...first.model].map(([name, value]) => `(= ${name} ${literal(script, name, value)})`).join(' ');
      // the scripts a solver is given are declarations and assertions (it asks check-sat itself)
      const other = await z3Wasm.check(`${script}\n(assert (not (and ${same})))`, timeoutMs, options);
      if (other.status !== 'sat') return first;
      count++;
      return other;
    },
  };
}

describe('canonical witnesses', () => {
  it('are the same whichever model the solver gives', async () => {
    const other = steered();
    const [z3, steeredReports] = [await reports(z3Wasm), await reports(other)];
    // the solver did give other models
    expect(other.steered()).toBeGreaterThan(0);
    expect(steeredReports).toEqual(z3);
  }, 300_000);

  // the portfolio of the command line, each member in turn the one whose answer is taken (a seam, not timing)
  it.runIf(hasPrograms('z3', 'cvc5'))('are the same whichever member of the portfolio answers', async () => {
    const members = defaultMembers();
    const [first, ...others] = await Promise.all(members.map((m) => reports(racingPortfolio(members, DEFAULT_RLIMIT, m), KERNELS.slice(1))));
    for (const [i, r] of others.entries()) expect(r, `${members[i + 1]} answering`).toEqual(first);
  }, 600_000);
});

describe('the least value of a variable', () => {
  /**
   * `least` against a solver whose model sits on the bound it is given (the
   * least model at L): the value found, and the questions asked.
   */
  async function search(start: bigint, L: bigint): Promise<{ value: bigint; asked: number }> {
    let value = start;
    let asked = 0;
    await least(
      () => value,
      async (k) => {
        asked++;
        if (k < L) return false;
        value = k;
        return true;
      },
    );
    return { value, asked };
  }

  it('is found wherever it is, and next to either end of the gap in a few questions', async () => {
    const top = (1n << 31n) - 1n;
    for (const L of [0n, 1n, 2n, 5n, 1000n, 1n << 24n, (1n << 24n) + 1n, (1n << 30n) - 31n, top - 1n, top]) {
      expect((await search(top, L)).value).toBe(L);
    }
    // the gallop from the bottom (26 questions here; the simplifier decides most of them in a real query) leaves 2^24 − 2
    // without a model and 2^25 − 2 with one: the least, 2^24, is two above the one, found in 3 more (halving took 24)
    expect((await search(top, 1n << 24n)).asked).toBeLessThanOrEqual(1 + 26 + 3);
    // 2^30 − 31 is 29 below the model on the bound 2^30 − 2: 14 more, not 29
    expect((await search(top, (1n << 30n) - 31n)).asked).toBeLessThanOrEqual(1 + 31 + 14);
  });
});

