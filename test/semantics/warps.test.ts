import { describe, expect, it } from 'vitest';
import { finished, run, textAt } from './helpers.js';

/** The races of a run, as `array[index] first-line:col/second` texts of the two sites. */
function raceSites(source: string, r: ReturnType<typeof finished>): string[] {
  return r.races.map((x) => `${x.array}[${x.index.join(',')}] ${textAt(source, x.first.span)} / ${textAt(source, x.second.span)} (${x.first.thread[0]},${x.second.thread[0]})`);
}

describe('the interpreter with lockstep warps', () => {
  const shift = `kernel k() {
    shared s;
    global out;
    s[tid] := tid + 1;
    let x = s[tid + 1] in
    out[tid] := x
  }`;

  it('lets a thread read what a thread of its warp wrote in an earlier statement of the phase', () => {
    const free = finished(run(shift, { block: 4 }));
    const lockstep = finished(run(shift, { block: 4 }, { warpSize: 4 }));
    const out = (r: typeof free): string => r.memory.find((m) => m.array === 'out')!.cells.map((c) => `${c.index[0]}=${c.value}`).join(' ');
    // independent threads see only their own writes (lastwrite): the neighbour's element is still 0
    expect(out(free)).toBe('0=0 1=0 2=0 3=0');
    expect(free.races.length).toBeGreaterThan(0);
    // in lockstep every write happens before every read of the next statement
    expect(out(lockstep)).toBe('0=2 1=3 2=4 3=0');
    expect(lockstep.races).toEqual([]);
  });

  it('still finds races between warps', () => {
    const r = finished(run(shift, { block: 4 }, { warpSize: 2 }));
    expect(raceSites(shift, r)).toEqual(['s[2] s[tid + 1] / s[tid] (1,2)']);
  });

  it('finds two threads of a warp writing one element in one statement', () => {
    const src = `kernel k() { shared s; s[tid / 2] := tid }`;
    expect(raceSites(src, finished(run(src, { block: 4 }, { warpSize: 4 })))).toEqual(['s[0] s[tid / 2] / s[tid / 2] (0,1)', 's[1] s[tid / 2] / s[tid / 2] (2,3)']);
  });

  it('finds a race between the two sides of an if a warp diverged at, in the same iteration only', () => {
    const src = `kernel k() { shared s; if (tid = 0) { s[1] := 1 } else { let x = s[tid] in skip } }`;
    expect(raceSites(src, finished(run(src, { block: 2 }, { warpSize: 2 })))).toEqual(['s[1] s[1] / s[tid] (0,1)']);
    // thread 1 reads s[1] in iteration 0, thread 0 writes it in iteration 1: ordered
    const loop = `kernel k() { shared s; for i in 0..2 { if (tid = 0) { if (i = 1) { s[1] := 1 } } else { if (i = 0) { let x = s[1] in skip } } } }`;
    expect(finished(run(loop, { block: 2 }, { warpSize: 2 })).races).toEqual([]);
    expect(finished(run(loop, { block: 2 })).races.length).toBe(1);
  });

  it('keeps only unordered instances apart: one statement in two iterations, or two sides of ifs of two iterations, are ordered', () => {
    // thread 0 writes s[0] in iteration 0, thread 1 in iteration 1: one site, two statement instances
    const instances = `kernel k() { shared s; for i in 0..2 { if (tid = i) { s[0] := 1 } } }`;
    expect(finished(run(instances, { block: 2 }, { warpSize: 2 })).races).toEqual([]);
    expect(finished(run(instances, { block: 2 })).races.length).toBe(1);
    // thread 0 writes s[1] on the then side in iteration 0, thread 1 reads it on the else side in iteration 1
    const sides = `kernel k() { shared s; for i in 0..2 { if (tid = 0) { if (i = 0) { s[1] := 1 } } else { if (i = 1) { let x = s[1] in skip } } } }`;
    expect(finished(run(sides, { block: 2 }, { warpSize: 2 })).races).toEqual([]);
    expect(finished(run(sides, { block: 2 })).races.length).toBe(1);
  });

  it('finds the two sides of an if racing after a long then side, the first thread of the else side in the witness', () => {
    const src = `kernel k(n) { shared s; for i in 0..2 { if (tid = 0) { for j in 0..n { s[0] := i * n + j } } else { let x = s[0] in skip } } }`;
    const r = finished(run(src, { params: { n: 300n }, block: 3 }, { warpSize: 4 }));
    // threads 1 and 2 read on the else side, after thread 0's 300 writes: one race, with thread 1
    expect(raceSites(src, r)).toEqual(['s[0] s[0] / s[0] (0,1)']);
    expect([r.races[0]!.first.kind, r.races[0]!.second.kind]).toEqual(['write', 'read']);
  });

  it('runs the iterations of a loop in lockstep, threads that finished waiting after it', () => {
    // thread 0 loops twice, thread 1 once; thread 1's write after the loop comes after thread 0's second iteration
    const src = `kernel k() { shared s; global out; for i in 0..2 - tid { s[0] := i }; if (tid = 1) { let x = s[0] in out[0] := x } }`;
    const r = finished(run(src, { block: 2 }, { warpSize: 2 }));
    expect(r.memory.find((m) => m.array === 'out')!.cells.map((c) => c.value)).toEqual([1n]);
    // thread 0's iteration 0 and thread 1's iteration 0 write s[0] in one step
    expect(raceSites(src, r)).toEqual(['s[0] s[0] / s[0] (0,1)']);
  });
});

describe('the interpreter with syncwarp', () => {
  /** each thread writes its element, then reads its neighbour's, with a syncwarp between (the warp of thread 63 reads 64: nobody writes it) */
  const exchange = (between: string): string => `kernel k() {
    shared s;
    global out;
    s[tid] := tid + 1;
    ${between};
    let x = s[tid + 1] in
    out[tid] := x
  }`;

  it('orders the threads of a warp: no race within it, and a thread sees the writes its warp made before the syncwarp', () => {
    const r = finished(run(exchange('syncwarp'), { block: 64 }));
    const out = r.memory.find((m) => m.array === 'out')!.cells;
    // thread 30 reads thread 31's write (same warp); thread 31 reads 32's element, written by the other warp, unordered
    expect(out.find((c) => c.index[0] === 30n)!.value).toBe(32n);
    expect(raceSites(exchange('syncwarp'), r)).toEqual(['s[32] s[tid + 1] / s[tid] (31,32)']);
  });

  it('does not order threads of different warps, nor the threads of a warp without it', () => {
    const src = exchange('skip');
    const r = finished(run(src, { block: 64 }));
    // one race per element written and read, within warps (s[1]) and across them (s[32])
    expect(r.races).toHaveLength(63);
    expect(raceSites(src, r)).toContain('s[1] s[tid + 1] / s[tid] (0,1)');
    expect(raceSites(src, r)).toContain('s[32] s[tid + 1] / s[tid] (31,32)');
  });

  it('takes warps of the lockstep size when one is given, else of 32 threads', () => {
    // with warps of 16, thread 15 reads 16's element across warps
    expect(raceSites(exchange('syncwarp'), finished(run(exchange('syncwarp'), { block: 32 }, { warpSize: 16 })))).toEqual(['s[16] s[tid + 1] / s[tid] (15,16)']);
    expect(finished(run(exchange('syncwarp'), { block: 32 })).races).toEqual([]);
  });

  it('counts warps by linear thread id over x, y and z', () => {
    // blockDim (16, 4): threads (x, y) with y < 2 are warp 0; thread (15, 1) reads (0, 2)'s element of the next warp
    const src = `kernel k() { shared s; s[threadIdx.y * 16 + threadIdx.x] := 1; syncwarp; let x = s[threadIdx.y * 16 + threadIdx.x + 1] in skip }`;
    const r = finished(run(src, { blockDim: [16n, 4n, 1n] }));
    expect(r.races.map((x) => `${x.index[0]} (${x.first.thread.join(',')}) (${x.second.thread.join(',')})`)).toEqual(['32 (15,1,0) (0,2,0)']);
  });

  it('separates the iterations of a loop whose body meets it, and races within one warp phase', () => {
    const src = `kernel k() {
      shared s, t;
      for d in 16 downto 1 step / 2 {
        if (tid % 32 < d) { let a = s[tid + d] in t[tid] := a };
        syncwarp;
        if (tid % 32 < d) { let a = t[tid] in let b = s[tid] in s[tid] := a + b };
        syncwarp
      }
    }`;
    const init = { s: { kind: 'list' as const, values: Array.from({ length: 64 }, (_, i) => BigInt(i < 32 ? 1 : 2)) } };
    const r = finished(run(src, { block: 64 }, { init }));
    expect(r.races).toEqual([]);
    const s = r.memory.find((m) => m.array === 's')!.cells;
    expect([0n, 32n].map((i) => s.find((c) => c.index[0] === i)!.value)).toEqual([32n, 64n]);
    // the second syncwarp removed: iteration d's write of s[j] (j < d) and iteration d / 2's read of s[j] by another thread of the warp
    const racy = finished(run(src.replace(/syncwarp\n/, 'skip\n'), { block: 64 }, { init }));
    expect(racy.races.length).toBeGreaterThan(0);
    expect(racy.races.every((x) => x.first.thread[0]! / 32n === x.second.thread[0]! / 32n)).toBe(true);
  });

  it('reports a syncwarp that only part of a warp reaches as barrier divergence, with two threads of the warp', () => {
    const src = `kernel k() { shared s; if (tid % 32 < 16) { s[tid] := 1; syncwarp } }`;
    const r = finished(run(src, { block: 64 }));
    expect(r.divergences).toHaveLength(1);
    const d = r.divergences[0]!;
    expect(d.barrier).toBe('syncwarp');
    expect(textAt(src, d.sync)).toBe('syncwarp');
    expect([d.reached[0], d.notReached[0], d.notReachedAt.kind]).toEqual([0n, 16n, 'exit']);
    expect(r.blocks[0]!.phases.at(-1)!.end).toEqual({ kind: 'divergence' });
  });

  it('accepts a thread-dependent if around syncwarp that is uniform per warp, and a loop in the same iterations', () => {
    const src = `kernel k() { shared s; if (tid < 32) { s[tid] := 1; syncwarp; let x = s[tid + 1] in skip }; for i in tid / 32..tid / 32 + 2 { syncwarp } }`;
    const r = finished(run(src, { block: 64 }));
    expect(r.divergences).toEqual([]);
    // thread 31 reads s[32], which nobody writes
    expect(r.races).toEqual([]);
  });

  it('meets threads at one syncwarp in the same iteration only', () => {
    const src = `kernel k() { for i in 0..tid % 2 + 1 { syncwarp } }`;
    const d = finished(run(src, { block: 4 })).divergences;
    expect(d.map((x) => [x.barrier, x.notReachedAt.kind])).toEqual([['syncwarp', 'exit']]);
  });

  it('in lockstep, checks a syncwarp for divergence and keeps the lockstep order', () => {
    const diverged = `kernel k() { shared s; if (tid % 2 = 0) { syncwarp } else { s[tid] := 1 } }`;
    expect(finished(run(diverged, { block: 4 }, { warpSize: 4 })).divergences.map((d) => d.barrier)).toEqual(['syncwarp']);
    const r = finished(run(exchange('syncwarp'), { block: 8 }, { warpSize: 4 }));
    expect(raceSites(exchange('syncwarp'), r)).toEqual(['s[4] s[tid + 1] / s[tid] (3,4)']);
  });
});
