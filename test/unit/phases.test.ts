import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { inferMap } from '../../src/map/infer.js';
import { splitPhases, warpLevel, type Phase, type PhaseSplit } from '../../src/phases/split.js';
import { showPhases } from '../../src/phases/print.js';
import type { Code } from '../../src/phases/code.js';
import type { KernelMap } from '../../src/map/map.js';
import { phasesOf, raceQueries } from '../../src/verify/verify.js';
import type { Formula } from '../../src/encode/term.js';
import { showAccess } from '../../src/map/print.js';
import { z3Wasm } from '../../src/solve/z3.js';
import type { Solver } from '../../src/solve/solver.js';

function mapOf(text: string): KernelMap {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  return inferMap(program.file, program.kernels[0]!);
}

/** opens → closes, as sync ids ('start' / 'end' for the kernel's ends), sorted. */
function shape(split: PhaseSplit): string[] {
  const ids = (syncs: Phase['opens'], none: string): string => (syncs.length === 0 ? none : syncs.map((s) => `s${s.id}`).sort().join('|'));
  return split.phases.map((p) => `${ids(p.opens, 'start')} -> ${ids(p.closes, 'end')}`);
}

/** The accesses of a phase, in order. */
function accesses(c: Code): string[] {
  switch (c.kind) {
    case 'access':
      return [showAccess(c.access)];
    case 'seq':
      return c.items.flatMap(accesses);
    case 'choice':
      return c.options.flatMap(accesses);
    case 'if':
      return [...accesses(c.then), ...accesses(c.else)];
    case 'loop':
    case 'bind':
      return accesses(c.body);
    default:
      return [];
  }
}

async function split(text: string): Promise<{ map: KernelMap; split: PhaseSplit }> {
  const map = mapOf(text);
  return { map, split: await splitPhases(map) };
}

describe('phase split', () => {
  it('gives a kernel without barriers one phase from the start to the end', async () => {
    const { map, split: s } = await split('kernel k() { shared A; A[tid] := 1; let v = A[0] in skip }');
    expect(shape(s)).toEqual(['start -> end']);
    expect(accesses(s.phases[0]!.code)).toEqual(['wr A[tid]', 'rd A[0]']);
    expect(showPhases(map, s)).toBe('kernel k: 1 phase\n  phase 0: from the start to the end\n    wr A[tid]\n    rd A[0]');
  });

  it('gives two barriers in sequence three phases', async () => {
    const { map, split: s } = await split('kernel k() { shared A; A[tid] := 1; sync; A[0] := 2; sync; A[1] := 3 }');
    expect(shape(s)).toEqual(['start -> s0', 's0 -> s1', 's1 -> end']);
    expect(s.phases.map((p) => accesses(p.code))).toEqual([['wr A[tid]'], ['wr A[0]'], ['wr A[1]']]);
    expect(s.phases.map((p) => p.id)).toEqual([0, 1, 2]);
    const text = showPhases(map, s);
    expect(text).toContain('kernel k: 3 phases');
    expect(text).toContain('phase 0: from the start to sync at 1:37');
    expect(text).toContain('phase 1: from sync at 1:37 to sync at 1:54');
    expect(text).toContain('phase 2: from sync at 1:54 to the end');
  });

  it('shows an empty phase as having no accesses', async () => {
    const { map, split: s } = await split('kernel k() { shared A; sync; A[0] := 1 }');
    expect(shape(s)).toEqual(['start -> s0', 's0 -> end']);
    expect(showPhases(map, s)).toContain('phase 0: from the start to sync at 1:24\n    (no accesses)');
  });

  it('aligns a loop with a barrier: first, barrier to next iteration, last, and zero iterations', async () => {
    const { map, split: s } = await split('kernel k(N) { shared A; A[0] := 1; for i in 0..N { A[i] := 2; sync; A[i + 1] := 3 }; A[4] := 5 }');
    expect(shape(s)).toEqual(['start -> end', 'start -> s0', 's0 -> s0', 's0 -> end']);
    const [skipped, first, aligned, last] = s.phases.map((p) => accesses(p.code));
    // the loop may run zero times: the code before and after it meet
    expect(skipped).toEqual(['wr A[0]', 'wr A[4]']);
    expect(first).toEqual(['wr A[0]', 'wr A[i~1]']);
    // the end of iteration i and the start of the iteration after it
    expect(aligned).toEqual(['wr A[i + 1]', 'wr A[i~3]']);
    expect(last).toEqual(['wr A[i~2 + 1]', 'wr A[4]']);
    const text = showPhases(map, s);
    expect(text).toContain('assume [0, N) is empty');
    expect(text).toContain('shared i~1 ∈ [0, N), the first iteration {');
    expect(text).toContain('shared i ∈ [0, N), any iteration {');
    expect(text).toContain('shared i~3 ∈ [0, N), the iteration after i {');
    expect(text).toContain('shared i~2 ∈ [0, N), the last iteration {');
  });

  it('keeps the zero-iteration phase when the loop bound is a parameter that may be 0', async () => {
    const { split: s } = await split('kernel k(N) { shared A; for i in 1..N step * 2 { sync }; A[0] := 1 }');
    const zero = s.phases.find((p) => p.opens.length === 0 && p.closes.length === 0);
    expect(zero).toBeDefined();
    expect(zero!.code).toMatchObject({ kind: 'seq', items: [{ kind: 'empty' }, { kind: 'access' }] });
  });

  it('splits under a uniform if: the branch without the barrier is its own phase', async () => {
    const { map, split: s } = await split('kernel k(N) { shared A; A[1] := 0; if (N > 2) { sync }; A[2] := 1 }');
    expect(shape(s)).toEqual(['start -> end', 'start -> s0', 's0 -> end']);
    expect(s.phases.map((p) => accesses(p.code))).toEqual([['wr A[1]', 'wr A[2]'], ['wr A[1]'], ['wr A[2]']]);
    // each phase keeps the condition of its branch (the other branch is unreachable)
    const text = showPhases(map, s);
    expect(text).toContain('if N > 2 {\n      assume false\n    } else {');
  });

  it('splits a barrier in both branches of an if into phases closed by either', async () => {
    const { split: s } = await split('kernel k(N) { shared A; A[0] := 1; if (N > 2) { sync; A[1] := 1 } else { sync }; A[2] := 1 }');
    expect(shape(s)).toEqual(['start -> s0|s1', 's0|s1 -> end']);
    expect(s.phases.map((p) => accesses(p.code))).toEqual([['wr A[0]'], ['wr A[1]', 'wr A[2]']]);
  });

  it('splits nested loops with barriers', async () => {
    const { split: s } = await split('kernel k(N, M) { shared A; for i in 0..N { sync; for j in 0..M { A[j] := i; sync } } }');
    // s0: the outer barrier, s1: the inner one
    expect(shape(s)).toEqual(['start -> end', 'start -> s0', 's1 -> s1', 's0 -> s1', 's0|s1 -> s0', 's0|s1 -> end']);
    const [, , innerAligned, innerFirst] = s.phases.map((p) => accesses(p.code));
    expect(innerAligned).toEqual(['wr A[j~3]']);
    expect(innerFirst).toEqual(['wr A[j~1]']);
    // the phases inside the outer loop are bound to an iteration of it
    expect(s.phases[2]!.code).toMatchObject({ kind: 'bind', var: 'i', relation: { kind: 'member' }, body: { kind: 'bind', var: 'j' } });
  });

  it('renames the copies of a loop variable and records them as loop variables', async () => {
    const { split: s } = await split('kernel k(N) { shared A; for i in 0..N { let v = A[i] in sync } }');
    for (const name of ['i~1', 'i~2', 'i~3']) expect(s.vars.get(name)).toEqual({ kind: 'loop', source: 'i' });
  });

  it('erases the barriers of a loop that may finish an iteration without one', async () => {
    const { map, split: s } = await split('kernel k(N) { shared A; for i in 0..N { A[i] := 1; if (i < 2) { sync } } }');
    expect(shape(s)).toEqual(['start -> end']);
    expect(showPhases(map, s)).toContain('(barriers of the next loop erased: over-approximated)');
  });

  it('aligns such a loop when the solver proves every iteration meets the barrier', async () => {
    const map = mapOf('kernel k(N) { shared A; for i in 0..N { A[i] := 1; if (i < N) { sync } } }');
    const s = await phasesOf(map, { params: new Map(), blockDim: null, gridDim: null }, 10_000, z3Wasm);
    expect(shape(s)).toEqual(['start -> end', 'start -> s0', 's0 -> s0', 's0 -> end']);
  });

  it('aligns nested loops whose inner loop runs whenever the outer one does, without asking the solver', async () => {
    // the inner loop's range [0, N) is empty only when N = 0, and then no outer iteration exists: the simplifier proves it
    const map = mapOf('kernel k(N) { shared A; for i in 0..N { for j in 0..N { for l in 0..N { A[tid] := i + j + l; sync } } } }');
    const asked: string[] = [];
    const counting: Solver = { name: 'counting', check: (script, ms, options) => (asked.push(script), z3Wasm.check(script, ms, options)) };
    const s = await phasesOf(map, { params: new Map(), blockDim: null, gridDim: null }, 10_000, counting);
    expect(asked).toEqual([]);
    // every loop aligned: a phase bound to an iteration of each, none erased
    expect(s.phases.length).toBe(6);
    expect(showPhases(map, s)).not.toContain('erased');
  });

  it('does not align it when some iteration misses the barrier', async () => {
    const map = mapOf('kernel k(N) { shared A; for i in 0..N { A[i] := 1; if (i < 2) { sync } } }');
    const s = await phasesOf(map, { params: new Map(), blockDim: null, gridDim: null }, 10_000, z3Wasm);
    expect(shape(s)).toEqual(['start -> end']);
  });
});

describe('the warp-level split (syncwarp)', () => {
  const kernel = 'kernel k(N) { shared A; A[tid] := 1; syncwarp; A[0] := 2; for i in 0..N { syncwarp; A[i] := 3 }; sync; A[1] := 4 }';
  const free = { params: new Map(), blockDim: null, gridDim: null };

  it('ignores syncwarp in the block phases and splits at it, as at sync, in the warp phases', async () => {
    const map = mapOf(kernel);
    const block = await splitPhases(map);
    expect(shape(block)).toEqual(['start -> s2', 's2 -> end']);
    const warp = await splitPhases(warpLevel(map));
    // syncwarp s0; the loop's syncwarp s1 is met in every iteration: aligned, as a loop with a sync is
    expect(shape(warp)).toEqual(['start -> s0', 's1 -> s1', 's0 -> s1', 's0|s1 -> s2', 's2 -> end']);
    expect(warp.phases.map((p) => accesses(p.code))).toEqual([['wr A[tid]'], ['wr A[i]'], ['wr A[0]'], ['wr A[i~2]', 'wr A[0]'], ['wr A[1]']]);
    expect(warp.phases.flatMap((p) => [...p.opens, ...p.closes]).map((x) => x.scope)).toContain('warp');
  });

  it('is made by phasesOf with independent threads only, and shown after the block phases', async () => {
    const map = mapOf(kernel);
    const s = await phasesOf(map, free, 10_000, z3Wasm);
    expect(s.warp?.phases).toHaveLength(5);
    const text = showPhases(map, s);
    expect(text).toContain('kernel k: 2 phases (for threads of different warps)\n  phase 0: from the start to sync at 1:');
    expect(text).toContain('kernel k: 5 warp phases (for threads of one warp: syncwarp splits too)\n  warp phase 0: from the start to syncwarp at 1:38');
    expect((await phasesOf(map, { ...free, warpSize: 32 }, 10_000, z3Wasm)).warp).toBeUndefined();
    expect((await phasesOf(mapOf('kernel k() { shared A; A[tid] := 1; sync }'), free, 10_000, z3Wasm)).warp).toBeUndefined();
  });

  it('asks each pair where it races: different warps in the block phases, one warp (of one block) in the warp phases; without syncwarp, as before', async () => {
    const map = mapOf(kernel);
    const queries = raceQueries(map, await phasesOf(map, free, 10_000, z3Wasm), free).map((q) => q.query);
    // accesses: A[tid] at 1.25, A[0] at 1.48, A[i] at 1.85, A[1] at 1.104
    expect(queries.map((q) => q.id)).toEqual([
      ...['1.25-1.25', '1.25-1.48', '1.25-1.85', '1.48-1.48', '1.48-1.85', '1.85-1.85'].map((p) => `k/phase0/A/${p}`),
      'k/phase1/A/1.104-1.104',
      'k/warpphase0/A/1.25-1.25',
      'k/warpphase1/A/1.85-1.85',
      'k/warpphase2/A/1.48-1.48',
      ...['1.48-1.48', '1.48-1.85', '1.85-1.85'].map((p) => `k/warpphase3/A/${p}`),
      'k/warpphase4/A/1.104-1.104',
    ]);
    expect(queries.map((q) => q.level)).toEqual([...Array<string>(7).fill('block'), ...Array<string>(7).fill('warp')]);
    // the warp constraint among the query's facts as built: the two threads' warps (linear id / 32) equal, or not
    const warpOfThreads = (f: Formula): boolean => f.k === 'cmp' && f.op === '==' && [f.a, f.b].every((t) => t.k === 'op' && t.op === '/' && t.b.k === 'num' && t.b.v === 32n);
    const warpsOf = (q: (typeof queries)[number]): string =>
      q.built.assertions.some(warpOfThreads) ? 'together' : q.built.assertions.some((f) => f.k === 'not' && warpOfThreads(f.arg)) ? 'apart' : 'none';
    expect(queries.map(warpsOf)).toEqual([...Array<string>(7).fill('apart'), ...Array<string>(7).fill('together')]);
    // both threads of a warp-level query are of one block: one block id, as in a block-level query
    const byBlock = mapOf('kernel k() { shared A; A[threadIdx.x + blockIdx.x] := 1; syncwarp; A[blockIdx.x] := 2 }');
    const blockIds = raceQueries(byBlock, await phasesOf(byBlock, free, 10_000, z3Wasm), free).map(({ query: q }) => [q.level, q.built.declarations.map((d) => d.name).filter((n) => n.includes('blockIdx.x'))]);
    expect(blockIds).toEqual([...Array(3).fill(['block', ['blockIdx.x']]), ...Array(2).fill(['warp', ['blockIdx.x']])]);
    // skip, padded to keep the accesses' columns
    const plain = mapOf(kernel.replaceAll('syncwarp', 'skip    '));
    const before = raceQueries(plain, await phasesOf(plain, free, 10_000, z3Wasm), free).map((q) => q.query);
    expect(before.map((q) => q.id)).toEqual([...['1.25-1.25', '1.25-1.48', '1.25-1.85', '1.48-1.48', '1.48-1.85', '1.85-1.85'].map((p) => `k/phase0/A/${p}`), 'k/phase1/A/1.104-1.104']);
    expect(before.map(warpsOf)).toEqual(Array<string>(7).fill('none'));
  });
});

describe('race queries of an array kept in rows', () => {
  it('asks no query of a pair whose indices are different constants in some dimension, and one of every other conflicting pair', async () => {
    const text = 'kernel k() { shared A; A[0][tid] := 1; A[1][tid] := 2; let v = A[0][tid + 1] in A[tid][1] := v }';
    const map = mapOf(text);
    const free = { params: new Map(), blockDim: null, gridDim: null };
    const ids = raceQueries(map, await phasesOf(map, free, 10_000, z3Wasm), free).map((q) => q.query.id);
    // A[0][tid] at 1.24, A[1][tid] at 1.40, A[0][tid + 1] at 1.64, A[tid][1] at 1.81: rows 0 and 1 never meet
    expect(ids).toEqual(['1.24-1.24', '1.24-1.64', '1.24-1.81', '1.40-1.40', '1.40-1.81', '1.64-1.81', '1.81-1.81'].map((p) => `k/phase0/A/${p}`));
  });
});
