import type { Launch } from '../../src/core/launch.js';
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { inferMap } from '../../src/map/infer.js';
import { spanText } from '../../src/core/source.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { checkedKernels } from '../../src/api/check.js';
import { verifyText } from '../../src/api/verify.js';
import type { KernelResult, Race } from '../../src/verify/result.js';
import type { Solver } from '../../src/solve/solver.js';
import { z3Wasm } from '../../src/solve/z3.js';

interface Options {
  readonly params?: Record<string, number>;
  readonly blockDim?: readonly number[];
  readonly gridDim?: readonly number[];
  readonly maxRaces?: number;
  readonly timeoutMs?: number;
}

function launchOf(o: Options): Launch {
  return {
    params: new Map(Object.entries(o.params ?? {}).map(([k, v]) => [k, BigInt(v)])),
    blockDim: o.blockDim ? o.blockDim.map(BigInt) : null,
    gridDim: o.gridDim ? o.gridDim.map(BigInt) : null,
  };
}

async function verify(text: string, o: Options = {}): Promise<KernelResult> {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  const map = inferMap(program.file, program.kernels[0]!);
  return verifyKernel(map, { launch: launchOf(o), timeoutMs: o.timeoutMs ?? 10_000, maxRaces: o.maxRaces ?? 10, solver: z3Wasm });
}

const at = (r: KernelResult, race: Race): string[] => race.accesses.map((a) => `${a.mode} ${spanText(r.file, a.span)}`).sort();

function expectDistinctThreads(race: Race): void {
  const [t1, t2] = race.witness.threads;
  const same = t1.threadIdx.every((v, i) => v === t2.threadIdx[i]) && t1.blockIdx.every((v, i) => v === t2.blockIdx[i]);
  expect(same).toBe(false);
  for (const t of race.witness.threads) {
    t.threadIdx.forEach((v, i) => expect(v).toBeLessThan(race.witness.blockDim[i]!));
    t.blockIdx.forEach((v, i) => expect(v).toBeLessThan(race.witness.gridDim[i]!));
  }
}

describe('races', () => {
  it('proves a kernel DRF with stats', async () => {
    const r = await verify('kernel k() { shared A; A[tid] := 1; sync; let v = A[tid + 1] in skip }');
    expect(r.status).toBe('drf');
    expect(r.races).toEqual([]);
    expect(r.divergences).toEqual([]);
    expect(r.unknowns).toEqual([]);
    expect(r.wellTyped).toBe(true);
    expect(r.stats.phases).toBe(2);
    expect(r.stats.arrays).toBe(1);
    expect(r.kernel).toBe('k');
  });

  it('finds figure 3 racy and figure 4 DRF', async () => {
    const fig3 = await verify('kernel fig3(M) { shared A; for x in 0..M { let y = A[x] in A[x] := y + 1 } }');
    expect(fig3.status).toBe('racy');
    expect(fig3.races[0]!.confidence).toBe('confirmed');
    expect(fig3.races[0]!.witness.parameters.get('M')).toBeGreaterThanOrEqual(1n);
    expect((await verify('kernel fig4() { shared A; if (tid = 0) { A[0] := tid } else { skip } }')).status).toBe('drf');
  });

  it('reports kind, phase, element, and a witness of two threads satisfying requires', async () => {
    const r = await verify('kernel k(N) requires N > 4 { shared A; A[tid] := 1; sync; let v = A[tid + 1] in A[N] := v }');
    expect(r.status).toBe('racy');
    const byKind = new Map(r.races.map((x) => [x.kind, x]));
    expect([...byKind.keys()].sort()).toEqual(['read-write', 'write-write']);
    for (const race of r.races) {
      expect(race.array).toBe('A');
      expect(race.level).toBe('block');
      expect(race.phase).toBe(1);
      expect(race.confidence).toBe('confirmed');
      expect(race.doubts).toEqual([]);
      expectDistinctThreads(race);
      const n = race.witness.parameters.get('N')!;
      expect(n).toBeGreaterThan(4n);
      // both accesses hit the same element: A[N]
      expect(race.index).toEqual([n]);
    }
    expect(at(r, byKind.get('write-write')!)).toEqual(['write A[N]', 'write A[N]']);
    expect(at(r, byKind.get('read-write')!)).toEqual(['read A[tid + 1]', 'write A[N]']);
    // the reader is the thread whose tid + 1 is N
    const rw = byKind.get('read-write')!;
    const reader = rw.accesses[0].mode === 'read' ? rw.witness.threads[0] : rw.witness.threads[1];
    expect(reader.threadIdx[0]! + 1n).toBe(rw.index[0]);
  });

  it('reports each racing pair once (blocking), two pairs in one query', async () => {
    const r = await verify('kernel k() { shared A; A[0] := tid; let v = A[1] in A[1] := v }');
    const pairs = r.races.map((x) => at(r, x).join(' / '));
    expect(pairs.sort()).toEqual(['read A[1] / write A[1]', 'write A[0] / write A[0]', 'write A[1] / write A[1]']);
    expect(new Set(r.races.map((x) => x.accesses.map((a) => a.id).sort().join(','))).size).toBe(r.races.length);
  });

  it('caps the number of races with maxRaces', async () => {
    const text = 'kernel k() { shared A, B; A[0] := tid; B[0] := tid; let v = A[1] in A[1] := v }';
    expect((await verify(text)).races).toHaveLength(4);
    const one = await verify(text, { maxRaces: 1 });
    expect(one.races).toHaveLength(1);
    expect(one.status).toBe('racy');
    expect((await verify(text, { maxRaces: 2 })).races).toHaveLength(2);
  });

  it('reports races in a loop with barriers across iterations, in the aligned phase', async () => {
    const text = 'kernel k(N) { shared A; for i in 0..N { A[tid] := 1; sync; let v = A[tid + 1] in skip } }';
    const r = await verify(text);
    expect(r.status).toBe('racy');
    expect(r.races).toHaveLength(1);
    expect(r.races[0]!.witness.parameters.get('N')).toBeGreaterThanOrEqual(2n);
    expect(r.stats.phases).toBe(4);
    // one iteration: the read and the write are in different phases
    expect((await verify(text, { params: { N: 1 } })).status).toBe('drf');
  });

  it('separates iterations of an aligned loop', async () => {
    expect((await verify('kernel k(N) { shared A; for i in 0..N { A[tid + i] := 1; sync } }')).status).toBe('drf');
    expect((await verify('kernel k(N) { shared A; for i in 0..N { let v = A[tid + 1] in sync; A[tid] := v; sync } }')).status).toBe('drf');
  });

  it('considers the path that skips a loop with barriers', async () => {
    const text = 'kernel k(N) { shared A; A[tid] := 1; for i in 0..N { sync }; let v = A[tid + 1] in skip }';
    const r = await verify(text);
    expect(r.status).toBe('racy');
    expect(r.races[0]!.witness.parameters.get('N')).toBe(0n);
    expect((await verify(text, { params: { N: 1 } })).status).toBe('drf');
  });

  it('finds a race that needs at least three threads', async () => {
    const text = 'kernel k() { shared A; A[tid % 2] := tid }';
    const r = await verify(text);
    expect(r.status).toBe('racy');
    const race = r.races[0]!;
    expect(race.witness.blockDim[0]).toBeGreaterThanOrEqual(3n);
    const tids = race.witness.threads.map((t) => t.threadIdx[0]!);
    expect(tids[0]! % 2n).toBe(tids[1]! % 2n);
    expect(tids[0]).not.toBe(tids[1]);
    expect((await verify(text, { blockDim: [2] })).status).toBe('drf');
    expect((await verify(text, { blockDim: [3] })).status).toBe('racy');
  });

  it('uses the other thread dimensions only when mentioned', async () => {
    expect((await verify('kernel k() <<<1, (4, 2)>>> { shared A; A[threadIdx.y * 4 + tid] := 1 }')).status).toBe('drf');
    expect((await verify('kernel k() <<<1, (4, 2)>>> { shared A; A[threadIdx.y * 3 + tid] := tid }')).status).toBe('racy');
    const r = await verify('kernel k() { shared A; A[threadIdx.y] := tid }');
    expect(r.status).toBe('racy');
    expectDistinctThreads(r.races[0]!);
    // only threads that differ in x can race: blockDim.z stays 1
    expect(r.races[0]!.witness.blockDim[2]).toBe(1n);
    expect(r.races[0]!.witness.threads[0].threadIdx[1]).toBe(r.races[0]!.witness.threads[1].threadIdx[1]);
  });
});

describe('global arrays', () => {
  it('finds a race between blocks at grid level', async () => {
    const r = await verify('kernel k() { global G; G[tid] := blockIdx.x }');
    expect(r.status).toBe('racy');
    const [race] = r.races;
    expect(race!.level).toBe('grid');
    expect(race!.phase).toBeNull();
    expect(race!.kind).toBe('write-write');
    expect(race!.witness.threads[0].blockIdx[0]).not.toBe(race!.witness.threads[1].blockIdx[0]);
    expect(race!.witness.threads[0].threadIdx[0]).toBe(race!.witness.threads[1].threadIdx[0]);
    expect(race!.witness.gridDim[0]).toBeGreaterThanOrEqual(2n);
  });

  it('has no grid-level races with one block, nor on shared arrays', async () => {
    expect((await verify('kernel k() { global G; G[tid] := blockIdx.x }', { gridDim: [1] })).status).toBe('drf');
    expect((await verify('kernel k() { shared S; S[tid] := blockIdx.x }')).status).toBe('drf');
    expect((await verify('kernel k() { global G; G[tid] := 1 }')).status).toBe('drf');
  });

  it('uses the launch clause', async () => {
    expect((await verify('kernel k() <<<2, 4>>> { global G; G[tid + blockIdx.x * 4] := 1 }')).status).toBe('drf');
    const r = await verify('kernel k() <<<2, 4>>> { global G; G[tid + blockIdx.x * 3] := tid }');
    expect(r.status).toBe('racy');
    expect(r.races[0]!.level).toBe('grid');
    expect(r.races[0]!.index).toEqual([3n]);
    expect(r.races[0]!.witness.blockDim).toEqual([4n, 1n, 1n]);
    expect(r.races[0]!.witness.gridDim).toEqual([2n, 1n, 1n]);
  });

  it('finds a race on a global array within a block at block level', async () => {
    const r = await verify('kernel k() { global G; let v = G[0] in G[tid] := 1 }');
    expect(r.races.map((x) => [x.level, x.kind])).toEqual([['block', 'read-write']]);
  });
});

describe('confirmed and possible alarms', () => {
  it('labels a race on a data-dependent index possible, naming the variable and its read', async () => {
    const r = await verify('kernel k() { shared A, B; let v = A[tid] in B[v + tid] := 1 }');
    expect(r.wellTyped).toBe(false);
    expect(r.violations.map((v) => [v.variable, v.use])).toEqual([['v', 'index']]);
    const [race] = r.races;
    expect(race!.array).toBe('B');
    expect(race!.confidence).toBe('possible');
    expect(race!.doubts).toHaveLength(1);
    const doubt = race!.doubts[0]!;
    expect(doubt.kind).toBe('data');
    if (doubt.kind !== 'data') throw new Error();
    expect(doubt.variable).toBe('v');
    expect(doubt.origin.array).toBe('A');
    expect(spanText(r.file, doubt.origin.span)).toBe('A[tid]');
    // the witness shows the value each thread read
    for (const t of race!.witness.threads) expect(t.locals.get('v')! + t.threadIdx[0]!).toBe(race!.index[0]);
  });

  it('labels a race whose own accesses do not depend on data confirmed, in an ill-typed kernel', async () => {
    const r = await verify('kernel k() { shared A, B; let v = A[0] in B[v + tid] := 1; A[tid] := 2 }');
    expect(r.wellTyped).toBe(false);
    const onA = r.races.find((x) => x.array === 'A')!;
    const onB = r.races.find((x) => x.array === 'B')!;
    expect(onA.confidence).toBe('confirmed');
    expect(onA.doubts).toEqual([]);
    expect(at(r, onA)).toEqual(['read A[0]', 'write A[tid]']);
    expect(onB.confidence).toBe('possible');
  });

  it('labels a race under a data-dependent condition possible', async () => {
    const r = await verify('kernel k() { shared A; let v = A[tid] in if (v > 0) { A[0] := 1 } }');
    const ww = r.races.find((x) => x.kind === 'write-write');
    expect(ww?.confidence).toBe('possible');
    expect(ww?.doubts.map((d) => d.kind)).toEqual(['data']);
  });

  it('labels an alarm of an approximated loop possible', async () => {
    const r = await verify('kernel k(N) { shared A; for i in 0..N { if (i < 2) { sync }; A[tid] := 1; let v = A[tid + 1] in skip } }');
    // the loop can finish an iteration without a barrier: its barriers are erased
    expect(r.status).toBe('racy');
    expect(r.races.every((x) => x.confidence === 'possible')).toBe(true);
    expect(r.races.some((x) => x.doubts.some((d) => d.kind === 'approximated-loop'))).toBe(true);
  });
});

describe('barrier divergence', () => {
  it('finds `if (tid < 3) { sync }` divergent, with one thread on each side', async () => {
    const r = await verify('kernel k() { shared A; if (tid < 3) { sync } }');
    expect(r.status).toBe('divergent');
    expect(r.divergences).toHaveLength(1);
    const d = r.divergences[0]!;
    expect(d.confidence).toBe('confirmed');
    expect(spanText(r.file, d.sync.span)).toBe('sync');
    const [reaches, misses] = d.witness.threads;
    expect(reaches.threadIdx[0]).toBeLessThan(3n);
    expect(misses.threadIdx[0]).toBeGreaterThanOrEqual(3n);
    expect(misses.threadIdx[0]).toBeLessThan(d.witness.blockDim[0]!);
    expect(reaches.blockIdx).toEqual(misses.blockIdx);
    // a divergent kernel is not split into phases
    expect(r.races).toEqual([]);
  });

  it('accepts a barrier under a condition every thread satisfies', async () => {
    expect((await verify('kernel k() { shared A; if (tid < blockDim.x) { sync } }')).status).toBe('drf');
    expect((await verify('kernel k(N) { shared A; if (N > 3) { sync } }')).status).toBe('drf');
  });

  it('is not divergent when the launch leaves one side empty', async () => {
    expect((await verify('kernel k() { shared A; if (tid < 3) { sync } }', { blockDim: [3] })).status).toBe('drf');
    expect((await verify('kernel k() { shared A; if (tid < 3) { sync } }', { blockDim: [4] })).status).toBe('divergent');
  });

  it('finds a loop with a thread-dependent bound around a barrier divergent', async () => {
    const r = await verify('kernel k() { shared A; for i in 0..tid { sync } }');
    expect(r.status).toBe('divergent');
    const [reaches, misses] = r.divergences[0]!.witness.threads;
    // the thread that reaches the barrier in iteration i has tid > i; the other does not
    const i = reaches.locals.get('i')!;
    expect(reaches.threadIdx[0]).toBeGreaterThan(i);
    expect(misses.threadIdx[0]! <= i).toBe(true);
  });

  it('labels a divergence under a condition on a value read possible', async () => {
    const r = await verify('kernel k() { shared A; let v = A[tid] in if (v < 3) { sync } }');
    expect(r.status).toBe('divergent');
    const d = r.divergences[0]!;
    expect(d.confidence).toBe('possible');
    expect(d.doubts).toHaveLength(1);
    expect(d.doubts[0]).toMatchObject({ kind: 'data', variable: 'v', origin: { array: 'A' } });
  });
});

describe('solver limits', () => {
  // A solver that never decides stands for a timeout, deterministically.
  const undecided: Solver = { name: 'undecided', check: () => Promise.resolve({ status: 'unknown', reason: 'timeout' }) };

  it('reports unknown, never DRF, when the solver decides nothing', async () => {
    // DRF (two threads' squares differ), but neither the simplifier nor the search for a model by evaluation decides it
    const program = parseProgram('t.bcu', 'kernel k(N) { shared A; A[tid * tid] := N }');
    const map = inferMap(program.file, program.kernels[0]!);
    const r = await verifyKernel(map, { launch: launchOf({}), timeoutMs: 10_000, maxRaces: 10, solver: undecided });
    expect(r.status).toBe('unknown');
    expect(r.unknowns.map((u) => u.query)).toEqual(['k/phase0/A/1.25-1.25']);
    expect(r.unknowns[0]!.reason).toBe('timeout');
    expect(r.races).toEqual([]);
  });

  it('a barrier check that is not decided is not divergence, and the kernel is not proved', async () => {
    // every thread passes (a square is 0 or 1 modulo 4), but no rewrite of the simplifier shows it: the solver is asked
    const program = parseProgram('t.bcu', 'kernel k() { shared A; if ((tid * tid) % 4 != 2) { sync }; A[tid] := 1 }');
    const map = inferMap(program.file, program.kernels[0]!);
    const r = await verifyKernel(map, { launch: launchOf({}), timeoutMs: 10_000, maxRaces: 10, solver: undecided });
    expect(r.divergences).toEqual([]);
    expect(r.status).toBe('unknown');
    expect(r.unknowns.map((u) => u.query)).toContain('k/sync0');
  });
});

describe('pipeline', () => {
  it('stops at diagnostics before inference', async () => {
    const bad = await verifyText('t.bcu', 'kernel k() { shared A; A[x] := 1 }', { launch: launchOf({}), timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.diagnostics.map((d) => d.code)).toEqual(['E0103']);
    const syntax = checkedKernels('t.bcu', 'kernel k() { shared A; A[0] = 1 }');
    expect(syntax.ok).toBe(false);
    if (!syntax.ok) expect(syntax.diagnostics.map((d) => d.code)).toEqual(['E0001']);
  });

  it('verifies every kernel of a file, or only the one asked for', async () => {
    const text = 'kernel a() { shared A; A[0] := tid }\nkernel b() { shared B; B[tid] := 0 }';
    const all = await verifyText('t.bcu', text, { launch: launchOf({}), timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm });
    expect(all.ok).toBe(true);
    if (all.ok) expect(all.kernels.map((k) => [k.kernel, k.status])).toEqual([['a', 'racy'], ['b', 'drf']]);
    const one = await verifyText('t.bcu', text, { launch: launchOf({}), timeoutMs: 10_000, maxRaces: 10, kernel: 'b', solver: z3Wasm });
    if (one.ok) expect(one.kernels.map((k) => k.kernel)).toEqual(['b']);
  });
});
