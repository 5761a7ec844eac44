/** Pairs of alike accesses asked as one question (src/encode/grouped.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NO_LAUNCH, type Launch } from '../../src/core/launch.js';
import { spanText } from '../../src/core/source.js';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { inferMap } from '../../src/map/infer.js';
import type { KernelMap } from '../../src/map/map.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { queryScripts } from '../../src/verify/scripts.js';
import { phasesOf, raceGroups, verifyKernel } from '../../src/verify/verify.js';
import { decidedUnsat } from '../../src/encode/query.js';
import { ask } from '../../src/verify/ask.js';
import { checkedKernels } from '../../src/api/check.js';

/**
 * Three writes and two reads of s[tid], alike; a write of s[tid] under a
 * condition, a path of its own. The racy twin reads the neighbour's s[tid + 1]
 * at the end, which races with each of the four writes.
 */
const kernel = (racy: boolean): KernelMap => {
  const text = `kernel alike() {
  shared s;
  s[tid] := 1;
  let a = s[tid] in skip;
  s[tid] := 2;
  let b = s[tid] in skip;
  s[tid] := 3;
  if (tid < 5) { s[tid] := 4 } else { skip }${racy ? ';\n  let c = s[tid + 1] in skip' : ''}
}
`;
  const program = parseProgram('alike.bcu', text);
  return inferMap(program.file, program.kernels[0]!);
};

const verify = (map: KernelMap, launch: Launch = NO_LAUNCH) => verifyKernel(map, { launch, timeoutMs: 10_000, maxRaces: 20, solver: z3Wasm });

describe('pairs of alike accesses', () => {
  it('are one question: 18 pairs of the race-free kernel, 5 classes, asked as one question of the array, unsat: no pair is asked', async () => {
    const map = kernel(false);
    const [{ group }] = raceGroups(map, await phasesOf(map, NO_LAUNCH, 10_000, z3Wasm), NO_LAUNCH);
    expect(group!.pairs).toHaveLength(18);
    // the three writes and the two reads of s[tid] outside the `if` are one access each: pairs write-write, write-read, and each with the conditional write, and that write with itself
    expect(new Set(group!.classOf).size).toBe(5);
    // the question of all 18 (src/encode/query.ts, arrayQuery): every thread's index is its id, so the simplifier decides it
    const question = group!.question();
    expect(question?.id).toBe('alike/phase0/s');
    expect(decidedUnsat(question!)).toBe(true);
    const r = await verify(map);
    expect(r.status).toBe('drf');
    expect(r.stats.queries).toBe(1);
  });

  it('are asked one by one where the class races: each racing pair reported once, with its own witness', async () => {
    const map = kernel(true);
    // the question of all the pairs is not unsat (the neighbour's read races): the pairs are asked
    const [{ group }] = raceGroups(map, await phasesOf(map, NO_LAUNCH, 10_000, z3Wasm), NO_LAUNCH);
    expect(decidedUnsat(group!.question()!)).toBe(false);
    const r = await verify(map);
    expect(r.status).toBe('racy');
    const pairs = r.races.map((race) => race.accesses.map((a) => `${a.mode} ${spanText(r.file, a.span)}`).join(' / '));
    expect(pairs).toEqual(['write s[tid] / read s[tid + 1]', 'write s[tid] / read s[tid + 1]', 'write s[tid] / read s[tid + 1]', 'write s[tid] / read s[tid + 1]']);
    expect(new Set(r.races.map((race) => race.accesses[0].id)).size).toBe(4);
    expect(r.races.every((race) => race.confidence === 'confirmed')).toBe(true);
    // each witness is its own pair's: thread 2 reads what thread 1 writes
    for (const race of r.races) expect(race.witness.threads[1].threadIdx[0]! + 1n).toBe(race.witness.threads[0].threadIdx[0]);
  });

  it('stay apart in lockstep warps, where the order of two accesses in the code matters', async () => {
    const map = kernel(false);
    const launch: Launch = { ...NO_LAUNCH, warpSize: 32 };
    const [{ group }] = raceGroups(map, await phasesOf(map, launch, 10_000, z3Wasm), launch);
    expect(new Set(group!.classOf).size).toBe(18);
    expect((await verify(map, launch)).stats.queries).toBe(18);
  });

  it('are printed by smt as verify asks them: the class question says for how many it stands, the others follow only where it is not unsat', async () => {
    const free = await queryScripts(kernel(false), NO_LAUNCH, 10_000, z3Wasm);
    // the question of the array is unsat: it is all that is asked
    expect(free.map((s) => s.name)).toEqual(['alike.phase0.s']);
    expect(free[0]!.script).toMatch(/^; the question of all 18 pairs of s here: unsat, so none of them is asked\n; decided unsat by the simplifier/);
    const racy = await queryScripts(kernel(true), NO_LAUNCH, 10_000, z3Wasm);
    // where the simplifier leaves it open, no solver is given it: the classes are asked
    expect(racy.map((s) => s.name).slice(0, 2)).toEqual(['alike.phase0.s.3.3-3.3', 'alike.phase0.s.3.3-4.11']);
    expect(racy[0]!.script).toMatch(/^; the question of 5 more pairs of alike accesses, asked only where this one is not unsat\n; decided unsat by the simplifier/);
    const reads = racy.map((s) => s.name).filter((n) => n.endsWith('-9.11'));
    // the class of the three writes and the neighbour's read is sat: its other two pairs are printed too, then the conditional write's
    expect(reads).toEqual(['alike.phase0.s.3.3-9.11', 'alike.phase0.s.5.3-9.11', 'alike.phase0.s.7.3-9.11', 'alike.phase0.s.8.18-9.11']);
  });
});

/**
 * Kernels with each thing a pair query encodes: reads against writes and
 * atomics (and atomics against atomics, which never race), benign writes,
 * loops with barriers (shared binders), warp phases, threads of different
 * blocks, values read, machine integers.
 */
const KERNELS = [
  'examples/paper/figure3.bcu',
  'examples/atomics/counter-and-read.bcu',
  'examples/atomics/histogram.bcu',
  'examples/benign/done-flag-tid.bcu',
  'examples/loops/row-sums-missing-sync.bcu',
  'examples/loops/jacobi.bcu',
  'examples/global/block-flag-global.bcu',
  'examples/warps/warp-xor-sum-no-syncwarp.bcu',
  'examples/data-dependent/scatter.bcu',
  'examples/reductions/reduce-missing-sync.bcu',
];

describe('the question of one array in one phase', () => {
  it('is implied by every pair query: where a pair is sat, so is the question; unsat, every pair is', async () => {
    const verdicts = { unsat: 0, sat: 0 };
    for (const path of KERNELS) {
      const checked = checkedKernels(path, readFileSync(path, 'utf8'));
      if (!checked.ok) throw new Error(`${path} does not parse`);
      for (const map of checked.kernels) {
        for (const { group } of raceGroups(map, await phasesOf(map, NO_LAUNCH, 10_000, z3Wasm), NO_LAUNCH)) {
          const question = group.question();
          if (question === null) continue;
          const status = async (q: typeof question): Promise<string> => (await ask(q, [], { solver: z3Wasm, timeoutMs: 10_000, reads: 'verdict' })).verdict.status;
          const asked = await status(question);
          const pairs = await Promise.all(group.pairs.map((p) => status(group.pairQuery(p))));
          if (pairs.includes('sat')) expect(asked, `${question.id}: a pair is sat`).toBe('sat');
          if (asked === 'unsat') expect(pairs.every((v) => v === 'unsat'), question.id).toBe(true);
          if (asked === 'unsat' || asked === 'sat') verdicts[asked]++;
        }
      }
    }
    // both answers seen: the check above is not vacuous
    expect(verdicts.unsat).toBeGreaterThan(0);
    expect(verdicts.sat).toBeGreaterThan(0);
  }, 120_000);

  it('is not asked where it would save no query: one class, or lockstep warps', async () => {
    const one = parseProgram('one.bcu', 'kernel one() {\n  shared s;\n  s[tid] := 1;\n  s[tid] := 2\n}\n');
    const map = inferMap(one.file, one.kernels[0]!);
    const [{ group }] = raceGroups(map, await phasesOf(map, NO_LAUNCH, 10_000, z3Wasm), NO_LAUNCH);
    expect(new Set(group!.classOf).size).toBe(1);
    expect(group!.question()).toBeNull();
    const lockstep: Launch = { ...NO_LAUNCH, warpSize: 32 };
    const alike = kernel(false);
    const [{ group: warps }] = raceGroups(alike, await phasesOf(alike, lockstep, 10_000, z3Wasm), lockstep);
    expect(warps!.question()).toBeNull();
  });
});
