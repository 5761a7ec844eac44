/** Pairs of alike accesses asked as one question (src/encode/grouped.ts). */
import { describe, expect, it } from 'vitest';
import { NO_LAUNCH, type Launch } from '../../src/core/launch.js';
import { spanText } from '../../src/core/source.js';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { inferMap } from '../../src/map/infer.js';
import type { KernelMap } from '../../src/map/map.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { queryScripts } from '../../src/verify/scripts.js';
import { phasesOf, raceGroups, verifyKernel } from '../../src/verify/verify.js';

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
  it('are one question: 18 pairs of the race-free kernel, 5 classes, 5 queries', async () => {
    const map = kernel(false);
    const [{ group }] = raceGroups(map, await phasesOf(map, NO_LAUNCH, 10_000, z3Wasm), NO_LAUNCH);
    expect(group!.pairs).toHaveLength(18);
    // the three writes and the two reads of s[tid] outside the `if` are one access each: pairs write-write, write-read, and each with the conditional write, and that write with itself
    expect(new Set(group!.classOf).size).toBe(5);
    const r = await verify(map);
    expect(r.status).toBe('drf');
    expect(r.stats.queries).toBe(5);
  });

  it('are asked one by one where the class races: each racing pair reported once, with its own witness', async () => {
    const map = kernel(true);
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
    expect(free.map((s) => s.name)).toEqual(['alike.phase0.s.3.3-3.3', 'alike.phase0.s.3.3-4.11', 'alike.phase0.s.3.3-8.18', 'alike.phase0.s.4.11-8.18', 'alike.phase0.s.8.18-8.18']);
    expect(free[0]!.script).toMatch(/^; the question of 5 more pairs of alike accesses, asked only where this one is not unsat\n; decided unsat by the simplifier/);
    expect(free[4]!.script).not.toContain('alike accesses');
    const racy = await queryScripts(kernel(true), NO_LAUNCH, 10_000, z3Wasm);
    const reads = racy.map((s) => s.name).filter((n) => n.endsWith('-9.11'));
    // the class of the three writes and the neighbour's read is sat: its other two pairs are printed too, then the conditional write's
    expect(reads).toEqual(['alike.phase0.s.3.3-9.11', 'alike.phase0.s.5.3-9.11', 'alike.phase0.s.7.3-9.11', 'alike.phase0.s.8.18-9.11']);
  });
});
