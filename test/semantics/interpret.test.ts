import { describe, it, expect } from 'vitest';
import { runKernel, elementKey, randomElement, type Race } from '../../src/semantics/interpret.js';
import { accessText, dim, finished, history, kernelOf, run, textAt } from './helpers.js';

const FIG3 = `kernel fig3(M) {
  shared A;
  for x in 0..M {
    let y = A[x] in
    A[x] := y + 1
  }
}`;

const FIG4 = `kernel fig4() {
  shared A;
  if (tid = 0) { A[0] := tid } else { skip }
}`;

/** `array[index] kind@line-text / kind@line-text` for each race, for compact assertions. */
function raceText(source: string, r: Race): string {
  return `${r.array}[${r.index.join('][')}] ${r.first.kind} ${textAt(source, r.first.span)} t${r.first.thread[0]}b${r.first.block[0]} / ${r.second.kind} ${textAt(source, r.second.span)} t${r.second.thread[0]}b${r.second.block[0]}`;
}

describe('access histories (paper, Figure 5)', () => {
  it('equation (1): Figure 3 with M = 2 and two threads is one phase where both threads read then write A[0] and A[1]', () => {
    const r = finished(run(FIG3, { params: { M: 2n }, block: 2 }));
    expect(history(r)).toEqual([
      {
        0: ['rd A[0]=0', 'wr A[0]=1', 'rd A[1]=0', 'wr A[1]=1'],
        1: ['rd A[0]=0', 'wr A[0]=1', 'rd A[1]=0', 'wr A[1]=1'],
      },
    ]);
    expect(r.blocks[0]!.phases[0]!.end).toEqual({ kind: 'exit' });
  });

  it('each sync closes a phase; a phase lists only the threads that accessed memory', () => {
    const src = `kernel k() {
      shared A;
      A[tid] := tid + 10;
      sync;
      if (tid = 0) { let v = A[1] in A[0] := v }
    }`;
    const r = finished(run(src, { block: 2 }));
    expect(history(r)).toEqual([{ 0: ['wr A[0]=10'], 1: ['wr A[1]=11'] }, { 0: ['rd A[1]=11', 'wr A[0]=11'] }]);
    expect(r.blocks[0]!.phases.map((p) => p.end.kind)).toEqual(['sync', 'exit']);
    const end = r.blocks[0]!.phases[0]!.end;
    expect(end.kind === 'sync' && textAt(src, end.span)).toBe('sync');
    expect(r.races).toEqual([]);
    expect(r.memory).toEqual([
      { array: 'A', scope: 'shared', block: [0n, 0n, 0n], cells: [
        { array: 'A', index: [0n], value: 11n },
        { array: 'A', index: [1n], value: 11n },
      ] },
    ]);
  });
});

describe('lastwrite: what a read sees', () => {
  it("a thread does not see another thread's write of the same phase", () => {
    const src = `kernel k() {
      shared A, B;
      if (tid = 0) { A[0] := 7 } else { let v = A[0] in B[tid] := v }
    }`;
    const r = finished(run(src, { block: 2 }));
    expect(history(r)[0]![1]).toEqual(['rd A[0]=0', 'wr B[1]=0']);
    expect(r.races.map((x) => `${x.array}[${x.index[0]}]`)).toEqual(['A[0]']);
  });

  it('a thread sees its own last write of the phase', () => {
    const src = `kernel k() { shared A; A[tid] := 1; A[tid] := 2; let v = A[tid] in A[tid] := v + 1 }`;
    const r = finished(run(src, { block: 1 }));
    expect(history(r)).toEqual([{ 0: ['wr A[0]=1', 'wr A[0]=2', 'rd A[0]=2', 'wr A[0]=3'] }]);
  });

  it('after a barrier every thread sees the writes of earlier phases', () => {
    const src = `kernel k(N) {
      shared A;
      A[tid] := tid * 2;
      sync;
      let v = A[(tid + 1) % N] in
      sync;
      A[tid] := v;
      sync;
      let w = A[(tid + 1) % N] in
      A[tid + N] := w
    }`;
    const r = finished(run(src, { params: { N: 3n }, block: 3 }));
    expect(r.races).toEqual([]);
    const hist = history(r);
    expect(hist[1]).toEqual({ 0: ['rd A[1]=2'], 1: ['rd A[2]=4'], 2: ['rd A[0]=0'] });
    // the rotated values, visible in the last phase; the value written in phase 0 at A[0] was overwritten in phase 2
    expect(hist[3]).toEqual({ 0: ['rd A[1]=4', 'wr A[3]=4'], 1: ['rd A[2]=0', 'wr A[4]=0'], 2: ['rd A[0]=2', 'wr A[5]=2'] });
  });

  it('global arrays: a block sees its own earlier phases, never another block', () => {
    const src = `kernel k() {
      global G;
      if (blockIdx.x = 0) { G[0] := 5 } else { skip };
      sync;
      let v = G[0] in
      G[blockIdx.x + 1] := v
    }`;
    const r = finished(run(src, { block: 1, grid: 2 }));
    expect(history(r, 0)[1]).toEqual({ 0: ['rd G[0]=5', 'wr G[1]=5'] });
    expect(history(r, 1)[1]).toEqual({ 0: ['rd G[0]=0', 'wr G[2]=0'] });
    // block 1 reads what block 0 writes: a race between blocks, whatever the phases
    expect(r.races.map((x) => `${x.between} ${x.array}[${x.index[0]}] ${x.first.kind}/b${x.first.block[0]} ${x.second.kind}/b${x.second.block[0]}`)).toEqual([
      'blocks G[0] write/b0 read/b1',
    ]);
    expect(r.memory).toEqual([
      { array: 'G', scope: 'global', block: null, cells: [
        { array: 'G', index: [0n], value: 5n },
        { array: 'G', index: [1n], value: 5n },
        { array: 'G', index: [2n], value: 0n },
      ] },
    ]);
  });

  it('let bindings reach the rest of the enclosing block', () => {
    const src = `kernel k() { shared A, B; A[0] := 4; sync; let y = A[0] in skip; let z = y + 1 in skip; B[tid] := y * z }`;
    const r = finished(run(src, { block: 1 }));
    expect(history(r)[1]).toEqual({ 0: ['rd A[0]=4', 'wr B[0]=20'] });
  });

  it('loop bodies bind their lets afresh each iteration', () => {
    const src = `kernel k() { shared A; for i in 0..3 { let y = A[i] in A[i + 1] := y + 1 } }`;
    const r = finished(run(src, { block: 1 }));
    expect(history(r)[0]![0]).toEqual(['rd A[0]=0', 'wr A[1]=1', 'rd A[1]=1', 'wr A[2]=2', 'rd A[2]=2', 'wr A[3]=3']);
  });
});

describe('data races within a block (paper, Definition 1)', () => {
  it('Figure 3 races on A[x] with two threads', () => {
    const r = finished(run(FIG3, { params: { M: 2n }, block: 2 }));
    expect(r.races.map((x) => raceText(FIG3, x))).toEqual([
      'A[0] read A[x] t0b0 / write A[x] t1b0',
      'A[0] write A[x] t0b0 / write A[x] t1b0',
      'A[1] read A[x] t0b0 / write A[x] t1b0',
      'A[1] write A[x] t0b0 / write A[x] t1b0',
    ]);
    for (const race of r.races) {
      expect(race.between).toBe('threads');
      expect(race.scope).toBe('shared');
      expect(race.first.phase).toBe(0);
    }
  });

  it('Figure 3 does not race with one thread, nor when M = 0', () => {
    expect(finished(run(FIG3, { params: { M: 5n }, block: 1 })).races).toEqual([]);
    expect(finished(run(FIG3, { params: { M: 0n }, block: 4 })).races).toEqual([]);
  });

  it('Figure 4 is data-race free', () => {
    const r = finished(run(FIG4, { block: 8 }));
    expect(r.races).toEqual([]);
    expect(history(r)).toEqual([{ 0: ['wr A[0]=0'] }]);
  });

  it('two reads never race', () => {
    const r = finished(run(`kernel k() { shared A, B; let v = A[0] in B[tid] := v }`, { block: 4 }));
    expect(r.races).toEqual([]);
  });

  it('accesses separated by a barrier do not race', () => {
    const src = `kernel k() { shared A; A[tid] := 1; sync; let v = A[0] in skip }`;
    expect(finished(run(src, { block: 4 })).races).toEqual([]);
  });

  it('races only on the same element, index by index in every dimension', () => {
    const src = `kernel k() { shared M; M[tid][0] := 1; M[0][tid] := 2 }`;
    const r = finished(run(src, { block: 2 }));
    // thread 0 writes M[0][0] twice; thread 1 writes M[1][0] and M[0][1]: no common element
    expect(r.races).toEqual([]);
    const src2 = `kernel k() { shared M; M[tid][0] := 1; M[0][0] := 2 }`;
    const r2 = finished(run(src2, { block: 2 }));
    expect(r2.races.map((x) => raceText(src2, x))).toEqual(['M[0][0] write M[tid][0] t0b0 / write M[0][0] t1b0', 'M[0][0] write M[0][0] t0b0 / write M[0][0] t1b0']);
  });

  it('a pair of sites racing with equal writes in one phase and different ones in a later phase is reported with the different values', () => {
    // i = 1: both threads write A[j] := j (equal); i = 0: A[0] := 1 by one thread, A[0] := 0 by the other
    const src = 'kernel k() { shared A; for i in 1 downto 0 { for j in 1 downto 0 { A[i * j] := j }; sync } }';
    const r = finished(run(src, { block: 2 }));
    const onA0 = r.races.filter((x) => x.index[0] === 0n);
    expect(onA0).toHaveLength(1);
    expect(onA0[0]!.first.value).not.toBe(onA0[0]!.second.value);
    expect(onA0[0]!.first.phase).toBe(1);
  });

  it('a write of different values by the first threads to reach an element does not hide the race of a thread apart from them (found by P4 with lockstep warps)', () => {
    // threads 0 and 1 share a lockstep warp and write S0[2] first (0, then 1); thread 2, in the other warp, writes 2 there too
    const src = 'kernel k() { shared S0; for i0 in 0..3 { let v = S0[tid] in S0[tid + i0] := tid } }';
    const r = finished(run(src, { block: 3 }, { warpSize: 2 }));
    const ww = r.races.filter((x) => x.index[0] === 2n && x.first.kind === 'write' && x.second.kind === 'write');
    expect(ww.map((x) => [x.first.thread[0], x.second.thread[0]].sort().join(','))).toEqual([expect.stringMatching(/2$/)]);
  });

  it('uses all three thread dimensions', () => {
    const src = `kernel k() { shared A; A[threadIdx.y] := threadIdx.z }`;
    const r = finished(runKernel(kernelOf(src), { params: {}, blockDim: dim(1, 2, 2) }));
    const races = r.races.map((x) => `${x.array}[${x.index[0]}] ${x.first.thread.join('')} ${x.second.thread.join('')}`);
    expect(races).toEqual(['A[0] 000 001', 'A[1] 010 011']);
  });

  it('a conditional write before a barrier and reads after it do not race', () => {
    const src = `kernel k() { shared A; if (tid = 0) { A[0] := 1 } else { skip }; sync; let v = A[0] in skip }`;
    expect(finished(run(src, { block: 2 })).races).toEqual([]);
  });

  it('shared arrays of different blocks never race', () => {
    const src = `kernel k() { shared A; A[0] := blockIdx.x }`;
    const r = finished(run(src, { block: 1, grid: 4 }));
    expect(r.races).toEqual([]);
    expect(r.memory.map((m) => `${m.array}@${m.block?.[0]}=${m.cells.map((c) => c.value).join(',')}`)).toEqual(['A@0=0', 'A@1=1', 'A@2=2', 'A@3=3']);
  });

  it('reports each (array, element, pair of sites) once and stays bounded', () => {
    const many = finished(run(`kernel k() { shared A; for i in 0..50 { A[i] := tid } }`, { block: 32 }));
    expect(many.races).toHaveLength(50);
    expect(new Set(many.races.map((x) => elementKey(x.index))).size).toBe(50);
    const bounded = finished(run(`kernel k() { shared A; for i in 0..50 { A[i] := tid } }`, { block: 32 }, { maxReports: 10 }));
    expect(bounded.races).toHaveLength(10);
    expect(bounded.truncated).toBe(true);
  });

  it('keeps only the races on one element when asked (replay looks for one), so that races elsewhere do not crowd it out', () => {
    const src = `kernel k() { shared A; for i in 0..50 { A[i] := tid } }`;
    const bounded = finished(run(src, { block: 32 }, { maxReports: 10 }));
    expect(bounded.races.some((x) => x.index[0] === 40n)).toBe(false);
    const focused = finished(run(src, { block: 32 }, { maxReports: 10, racesOn: { array: 'A', index: [40n] } }));
    expect(focused.races.map((x) => `${x.array}[${x.index[0]}]`)).toEqual(['A[40]']);
    expect(focused.truncated).toBe(false);
    // warps in lockstep record their races through the same list
    const lockstep = finished(run(src, { block: 32 }, { maxReports: 10, warpSize: 4, racesOn: { array: 'A', index: [40n] } }));
    expect(lockstep.races.map((x) => `${x.array}[${x.index[0]}]`)).toEqual(['A[40]']);
  });
});

describe('global arrays across blocks', () => {
  it('threads of different blocks race on a global element whatever the phases', () => {
    const src = `kernel k() {
      global G;
      if (blockIdx.x = 0) { G[0] := 1 } else { skip };
      sync;
      sync;
      if (blockIdx.x = 1) { let v = G[0] in skip } else { skip }
    }`;
    const r = finished(run(src, { block: 1, grid: 2 }));
    expect(r.races).toHaveLength(1);
    const race = r.races[0]!;
    expect(race).toMatchObject({ array: 'G', scope: 'global', index: [0n], between: 'blocks' });
    expect(race.first).toMatchObject({ block: [0n, 0n, 0n], kind: 'write', phase: 0 });
    expect(race.second).toMatchObject({ block: [1n, 0n, 0n], kind: 'read', phase: 2 });
    expect(textAt(src, race.first.span)).toBe('G[0]');
  });

  it('the usual global indexing does not race', () => {
    const src = `kernel k(N) { global G; let i = blockIdx.x * blockDim.x + tid in if (i < N) { let v = G[i] in G[i] := v + 1 } }`;
    const r = finished(run(src, { params: { N: 10n }, block: 4, grid: 3 }));
    expect(r.races).toEqual([]);
    expect(r.memory[0]!.cells.map((c) => c.index[0])).toEqual([0n, 1n, 2n, 3n, 4n, 5n, 6n, 7n, 8n, 9n]);
  });

  it('a missing blockIdx term races between blocks and within blocks', () => {
    const src = `kernel k() { global G; G[tid] := blockIdx.x }`;
    const r = finished(run(src, { block: 2, grid: 2 }));
    expect(r.races.map((x) => `${x.between} G[${x.index[0]}]`)).toEqual(['blocks G[0]', 'blocks G[1]']);
    // the last block's commit wins in the final memory
    expect(r.memory[0]!.cells.map((c) => c.value)).toEqual([1n, 1n]);
  });

  it('lists the final memory in element order, whatever order the threads wrote it in', () => {
    const src = `kernel k() { shared S[2]; for i in 0..3 { S[tid][2 - i] := i } }`;
    const r = finished(run(src, { block: 2 }));
    expect(r.memory[0]!.cells.map((c) => `${c.index.join(',')}=${c.value}`)).toEqual(['0,0=2', '0,1=1', '0,2=0', '1,0=2', '1,1=1', '1,2=0']);
  });

  it('an atomic after a thread\'s own write is what the thread reads next, however often the two alternate', () => {
    const src = `kernel k(n) { shared A; for i in 0..n { A[0] := i; atomic add(A[0], 10); let v = A[0] in A[1] := v } }`;
    const r = finished(run(src, { params: { n: 3n }, block: 1 }));
    expect(r.memory[0]!.cells.map((c) => `${c.index[0]}=${c.value}`)).toEqual(['0=12', '1=12']);
  });
});

describe('barrier divergence', () => {
  it('a sync reached by some threads only', () => {
    const src = `kernel k() { shared A; if (tid < 1) { sync } else { skip }; A[tid] := 1 }`;
    const r = finished(run(src, { block: 3 }));
    expect(r.divergences).toHaveLength(1);
    const d = r.divergences[0]!;
    expect(textAt(src, d.sync)).toBe('sync');
    expect(d.reached).toEqual([0n, 0n, 0n]);
    expect(d.notReached).toEqual([1n, 0n, 0n]);
    expect(d.notReachedAt).toEqual({ kind: 'exit' });
    expect(r.blocks[0]!.phases.at(-1)!.end).toEqual({ kind: 'divergence' });
  });

  it('different sync statements at the same phase boundary', () => {
    const src = `kernel k() { if (tid = 1) { sync } else { sync } }`;
    const r = finished(run(src, { block: 2 }));
    const d = r.divergences[0]!;
    expect(d.reached).toEqual([0n, 0n, 0n]);
    expect(d.notReached).toEqual([1n, 0n, 0n]);
    expect(d.notReachedAt.kind).toBe('sync');
    expect(d.sync.start).toBeGreaterThan(d.notReachedAt.kind === 'sync' ? d.notReachedAt.span.start : Infinity);
  });

  it('a different number of barriers (loop bound depending on tid)', () => {
    const src = `kernel k() { for i in 0..tid { sync } }`;
    const r = finished(run(src, { block: 3 }));
    expect(r.divergences).toHaveLength(1);
    const d = r.divergences[0]!;
    expect(d.phase).toBe(0);
    expect(d.reached).toEqual([1n, 0n, 0n]);
    expect(d.notReached).toEqual([0n, 0n, 0n]);
  });

  it('barriers in uniform loops are fine', () => {
    const src = `kernel k(N) { shared A; for i in 0..N { A[tid] := i; sync } }`;
    const r = finished(run(src, { params: { N: 3n }, block: 4 }));
    expect(r.divergences).toEqual([]);
    expect(r.blocks[0]!.phases.map((p) => p.end.kind)).toEqual(['sync', 'sync', 'sync', 'exit']);
  });

  it('one sync met in different iterations of a loop around it is divergence, even when the counts agree', () => {
    // thread 0 meets the sync at i = 0, thread 1 at i = 2: one barrier each, but not the same one
    const src = `kernel k(N) { for i in tid..N { if (i == tid + tid) { sync } } }`;
    const r = finished(run(src, { params: { N: 3n }, block: 2 }));
    expect(r.divergences).toHaveLength(1);
    expect(r.divergences[0]!.notReachedAt.kind).toBe('sync');
  });

  it('each block is checked on its own; other blocks run on', () => {
    const src = `kernel k() { if (blockIdx.x = 1 && tid = 0) { sync } else { skip } }`;
    const r = finished(run(src, { block: 2, grid: 3 }));
    expect(r.divergences.map((d) => d.block[0])).toEqual([1n]);
    expect(r.blocks).toHaveLength(3);
  });
});

describe('assume', () => {
  it('a launch where some thread fails an assumption is infeasible, with no races', () => {
    const src = `kernel k(N) { shared A; assume tid < N; A[0] := tid }`;
    const r = run(src, { params: { N: 2n }, block: 4 });
    expect(r.kind).toBe('infeasible');
    if (r.kind !== 'infeasible') return;
    expect(r.thread).toEqual([2n, 0n, 0n]);
    expect(textAt(src, r.span)).toBe('assume tid < N');
    expect(r.message).toContain('thread (2,0,0)');
  });

  it('assumptions that every thread satisfies change nothing', () => {
    const src = `kernel k(N) { shared A; assume tid < N; A[0] := tid }`;
    const r = finished(run(src, { params: { N: 4n }, block: 4 }));
    expect(r.races).toHaveLength(1);
  });

  it('an assumption failed in a later phase, or in a loop, makes the whole launch infeasible, races before it included', () => {
    const later = `kernel k() { shared A; A[0] := tid; sync; if (blockDim.x > 0) { assume tid = 0 } }`;
    expect(run(later, { block: 2 })).toMatchObject({ kind: 'infeasible', thread: [1n, 0n, 0n] });
    expect(finished(run(later, { block: 1 })).races).toEqual([]);
    const loop = `kernel k() { shared A; for i in 0..2 { assume tid + i < 2 }; A[0] := tid }`;
    expect(run(loop, { block: 2 })).toMatchObject({ kind: 'infeasible', thread: [1n, 0n, 0n] });
  });

  it('only threads that reach the assumption must satisfy it', () => {
    const src = `kernel k() { shared A; if (tid = 0) { assume tid = 0; A[0] := 1 } else { skip } }`;
    expect(finished(run(src, { block: 4 })).races).toEqual([]);
  });
});

describe('launches', () => {
  it('takes the dimensions from the launch clause, over the parameters', () => {
    const src = `kernel k(N) <<<2, (N, 2)>>> { shared A; A[0] := 1 }`;
    const r = finished(run(src, { params: { N: 3n } }));
    expect(r.launch.gridDim).toEqual([2n, 1n, 1n]);
    expect(r.launch.blockDim).toEqual([3n, 2n, 1n]);
    expect(r.blocks).toHaveLength(2);
  });

  it('user dimensions must agree with the launch clause', () => {
    const src = `kernel k(N) <<<1, N>>> { shared A; A[0] := 1 }`;
    expect(finished(run(src, { params: { N: 4n }, block: 4 })).launch.blockDim).toEqual([4n, 1n, 1n]);
    const r = run(src, { params: { N: 4n }, block: 8 });
    expect(r).toMatchObject({ kind: 'error', reason: 'dims' });
    expect(r.kind === 'error' && r.message).toContain('(8,1,1) disagrees');
  });

  it('needs a block size when there is no launch clause', () => {
    expect(run(`kernel k() { skip }`, {})).toMatchObject({ kind: 'error', reason: 'dims' });
    expect(run(`kernel k() { skip }`, { block: 0 })).toMatchObject({ kind: 'error', reason: 'dims' });
  });

  it('rejects a launch that violates requires, pointing at the clause', () => {
    const src = `kernel k(N) requires N > 2 requires blockDim.x <= N { skip }`;
    const ok = run(src, { params: { N: 4n }, block: 4 });
    expect(ok.kind).toBe('finished');
    const bad = run(src, { params: { N: 4n }, block: 8 });
    expect(bad).toMatchObject({ kind: 'error', reason: 'requires' });
    expect(bad.kind === 'error' && bad.span !== null && textAt(src, bad.span)).toBe('blockDim.x <= N');
  });

  it('needs every parameter', () => {
    const r = run(FIG3, { block: 2 });
    expect(r).toMatchObject({ kind: 'error', reason: 'params' });
    expect(r.kind === 'error' && r.message).toContain("'M'");
  });
});

describe('initial contents', () => {
  const src = `kernel k() { shared A, B; let v = A[tid] in B[tid] := v }`;

  it('arrays are 0 unless given; reads of never-written, not-given elements are reported', () => {
    const r = finished(run(src, { block: 2 }));
    expect(history(r)[0]).toEqual({ 0: ['rd A[0]=0', 'wr B[0]=0'], 1: ['rd A[1]=0', 'wr B[1]=0'] });
    expect(r.uninitializedReads.map((u) => `${u.array}[${u.index[0]}] t${u.thread[0]} ${textAt(src, u.span)}`)).toEqual(['A[0] t0 A[tid]', 'A[1] t1 A[tid]']);
  });

  it('a list gives the first elements', () => {
    const r = finished(run(src, { block: 3 }, { init: { A: { kind: 'list', values: [7n, 8n] } } }));
    expect(history(r)[0]).toEqual({ 0: ['rd A[0]=7', 'wr B[0]=7'], 1: ['rd A[1]=8', 'wr B[1]=8'], 2: ['rd A[2]=0', 'wr B[2]=0'] });
    expect(r.uninitializedReads.map((u) => u.index[0])).toEqual([2n]);
  });

  it('a list fills a multi-dimensional array in row-major order of its declared sizes', () => {
    const m = `kernel k(W) { shared M[2][W], B; let v = M[tid / W][tid % W] in B[tid] := v }`;
    const r = finished(run(m, { params: { W: 3n }, block: 6 }, { init: { M: { kind: 'list', values: [0n, 1n, 2n, 3n, 4n, 5n].map((x) => x * 10n) } } }));
    expect(r.blocks[0]!.phases[0]!.threads.map((t) => t.accesses[0]!.value)).toEqual([0n, 10n, 20n, 30n, 40n, 50n]);
  });

  it('elements by key', () => {
    const r = finished(run(src, { block: 2 }, { init: { A: { kind: 'elements', values: new Map([[elementKey([1n]), 9n]]) } } }));
    expect(r.blocks[0]!.phases[0]!.threads.map((t) => accessText(t.accesses[0]!))).toEqual(['rd A[0]=0', 'rd A[1]=9']);
  });

  it('random contents are a deterministic function of seed, array and element', () => {
    const init = { A: { kind: 'random' as const, seed: 42 } };
    const a = finished(run(src, { block: 16 }, { init }));
    const b = finished(run(src, { block: 16 }, { init }));
    const values = a.blocks[0]!.phases[0]!.threads.map((t) => t.accesses[0]!.value);
    expect(b.blocks[0]!.phases[0]!.threads.map((t) => t.accesses[0]!.value)).toEqual(values);
    expect(values).toEqual(values.map((_, i) => randomElement(42, 'A', [BigInt(i)])));
    expect(new Set(values).size).toBeGreaterThan(8);
    expect(values.every((v) => v >= 0n && v < 256n)).toBe(true);
    expect(a.uninitializedReads).toEqual([]);
    const other = finished(run(src, { block: 16 }, { init: { A: { kind: 'random', seed: 43 } } }));
    expect(other.blocks[0]!.phases[0]!.threads.map((t) => t.accesses[0]!.value)).not.toEqual(values);
  });

  it('rejects contents for an array the kernel does not declare', () => {
    expect(run(src, { block: 1 }, { init: { C: { kind: 'list', values: [1n] } } })).toMatchObject({ kind: 'error', reason: 'init' });
  });
});

describe('limits', () => {
  it('stops after maxSteps with a clear message', () => {
    const r = run(`kernel k(N) { shared A; for i in 0..N { A[tid] := i } }`, { params: { N: 1000000000n }, block: 2 }, { maxSteps: 5000 });
    expect(r.kind).toBe('limit');
    if (r.kind !== 'limit') return;
    expect(r.limit).toBe('steps');
    expect(r.message).toContain('5000 steps');
  });

  it('stops after maxAccesses, counted over all threads, well before its steps run out', () => {
    const src = `kernel k(N) { shared A; for i in 0..N { let x = A[tid] in A[tid + 2] := x } }`;
    // 2 threads × 3 iterations × 2 accesses: exactly the limit
    expect(run(src, { params: { N: 3n }, block: 2 }, { maxAccesses: 12 }).kind).toBe('finished');
    const r = run(src, { params: { N: 4n }, block: 2 }, { maxAccesses: 12 });
    expect(r).toMatchObject({ kind: 'limit', limit: 'accesses' });
    expect(r.kind === 'limit' && r.message).toContain('12 memory accesses');
    // the same in lockstep, where the warp's accesses are also kept for its races
    expect(run(src, { params: { N: 4n }, block: 2 }, { maxAccesses: 12, warpSize: 2 })).toMatchObject({ kind: 'limit', limit: 'accesses' });
  });

  it('refuses launches with more threads than maxThreads', () => {
    const r = run(`kernel k() { skip }`, { block: 64, grid: 64 }, { maxThreads: 1024 });
    expect(r).toMatchObject({ kind: 'limit', limit: 'threads' });
    expect(r.kind === 'limit' && r.message).toContain('4096 threads');
  });

  it('refuses values too large to hold', () => {
    const r = run(`kernel k() { shared A; A[1 << 100000000000] := 1 }`, { block: 1 });
    expect(r).toMatchObject({ kind: 'limit', limit: 'value' });
  });

  it('reports an unbound name as an error', () => {
    // names are resolved before interpretation; the interpreter still refuses an unbound one
    const r = run(`kernel k() { shared A; A[0] := q }`, { block: 1 });
    expect(r).toMatchObject({ kind: 'error', reason: 'unbound' });
  });

  it('is deterministic', () => {
    const src = `kernel k(N) { shared A; global G; for i in 0..N { let v = A[(tid + i) % N] in G[v % 3] := v + tid; sync; A[tid] := v + 1; sync } }`;
    const launch = { params: { N: 4n }, block: 4, grid: 2 };
    expect(run(src, launch)).toEqual(run(src, launch));
  });
});
