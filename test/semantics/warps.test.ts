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

  it('runs the iterations of a loop in lockstep, threads that finished waiting after it', () => {
    // thread 0 loops twice, thread 1 once; thread 1's write after the loop comes after thread 0's second iteration
    const src = `kernel k() { shared s; global out; for i in 0..2 - tid { s[0] := i }; if (tid = 1) { let x = s[0] in out[0] := x } }`;
    const r = finished(run(src, { block: 2 }, { warpSize: 2 }));
    expect(r.memory.find((m) => m.array === 'out')!.cells.map((c) => c.value)).toEqual([1n]);
    // thread 0's iteration 0 and thread 1's iteration 0 write s[0] in one step
    expect(raceSites(src, r)).toEqual(['s[0] s[0] / s[0] (0,1)']);
  });
});
