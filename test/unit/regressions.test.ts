// Bugs found by the stage tests, each kept as the kernel that showed it.
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../src/api/check.js';
import { verifyText } from '../../src/api/verify.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { divergenceQueries, verifyKernel } from '../../src/verify/verify.js';
import { z3Wasm } from '../../src/solve/z3.js';
import type { Solver } from '../../src/solve/solver.js';
import { wellTypedText } from '../../src/report/describe.js';
import type { KernelResult } from '../../src/verify/result.js';

async function verify(text: string, params: Record<string, number> = {}): Promise<KernelResult> {
  const r = await verifyText('t.bcu', text, {
    launch: { params: new Map(Object.entries(params).map(([k, v]) => [k, BigInt(v)])), blockDim: null, gridDim: null },
    timeoutMs: 10_000,
    maxRaces: 10,
    solver: z3Wasm,
  });
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r.kernels[0]!;
}

describe('regressions', () => {
  it('a pure let does not outlive its block: a later loop variable of the same name is not inlined', async () => {
    const r = await verify('kernel k() { shared A; if (tid < 1) { let x = tid in skip }; for x in 0..2 { A[x] := tid } }');
    expect(r.status).toBe('racy');
    expect(r.races[0]!.kind).toBe('write-write');
  });

  it('a later read-bound local of the same name is data-dependent, not the earlier let', async () => {
    const r = await verify('kernel k(N) { shared A; if (N < 1) { let x = 5 in skip } else { let x = A[0] in A[x] := 1 } }');
    expect(r.wellTyped).toBe(false);
    expect(r.status).toBe('racy');
    expect(r.races.every((race) => race.confidence === 'possible')).toBe(true);
  });

  it('a loop variable is not mistaken for a later read of the same name', async () => {
    const r = await verify('kernel k() { shared A; for v in 0..2 { if (v = tid) { skip } }; let v = A[0] in A[1] := v }');
    expect(r.wellTyped).toBe(true);
    expect(r.races.length).toBeGreaterThan(0);
    expect(r.races.every((race) => race.confidence === 'confirmed')).toBe(true);
  });

  it("a witness shows the loop variable of the access's own iteration", async () => {
    const r = await verify('kernel k(N) { shared A; for i in 0..N { A[i] := tid; sync; let v = A[i + 1] in skip } }', { N: 2 });
    const race = r.races.find((x) => x.kind === 'read-write')!;
    expect(race.index).toEqual([1n]);
    for (const [t, site] of race.accesses.entries()) {
      // the write of A[1] is in iteration 1, the read of A[1] in iteration 0
      expect(race.witness.threads[t]!.locals.get('i')).toBe(site.mode === 'write' ? 1n : 0n);
    }
  });
});

describe('regressions found by the differential tests', () => {
  const verifyAt = async (text: string, blockDim: bigint[] | null, gridDim: bigint[] | null): Promise<KernelResult> => {
    const r = await verifyText('t.bcu', text, { launch: { params: new Map(), blockDim, gridDim }, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm });
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
    return r.kernels[0]!;
  };

  it('a block dimension the kernel never mentions, fixed above 1 on the command line, has threads of its own', async () => {
    const r = await verifyAt('kernel k() { shared S0; S0[tid] := tid }', [2n, 2n, 1n], null);
    // threads (0,0) and (0,1) both write their threadIdx.x, 0: a benign race, found
    expect(r.status).toBe('benign');
    const [t1, t2] = r.races[0]!.witness.threads;
    expect(t1.threadIdx[0]).toBe(t2.threadIdx[0]);
    expect(t1.threadIdx[1]).not.toBe(t2.threadIdx[1]);
  });

  it('a grid dimension the kernel never mentions, fixed above 1, has blocks that race on global arrays', async () => {
    const r = await verifyAt('kernel k() { global G; if (tid = 0) { G[0] := 1 } }', [1n, 1n, 1n], [2n, 1n, 1n]);
    // both blocks write the same constant: a benign race, found
    expect(r.status).toBe('benign');
    expect(r.races[0]!.level).toBe('grid');
  });

  it('an assumption under a condition does not keep a thread from a barrier', async () => {
    const r = await verify('kernel k(N) {\n  shared A;\n  if (N == 0) { assume tid > 0 };\n  sync;\n  A[tid] := 1\n}');
    expect(r.divergences).toEqual([]);
    expect(r.status).toBe('drf');
  });

  it('a top-level assumption after a diverging barrier does not hide the divergence', async () => {
    const r = await verify(
      'kernel k() {\n  shared S0;\n  if (tid == 0) {\n    if (tid == 1) { S0[0] := tid } else { sync }\n  };\n  sync;\n  assume 0 == 1;\n  S0[tid] := tid\n}',
    );
    expect(r.status).toBe('divergent');
    expect(r.divergences[0]!.confidence).toBe('confirmed');
  });

  it('a loop with barriers that runs zero times does not keep threads from a later barrier', async () => {
    // thread (1,0) skips the branch and its barrier, thread (0,0) takes both
    const text = 'kernel k() {\n  shared S0;\n  for i in 0..0 { sync };\n  if (threadIdx.y == tid) {\n    sync;\n    S0[tid] := tid\n  }\n}';
    const r = await verifyAt(text, [2n, 1n, 1n], null);
    expect(r.status).toBe('divergent');
    expect(r.divergences.map((d) => d.sync.span.start)).toEqual([text.indexOf('sync;\n    S0')]);
  });

  it('a thread that runs fewer iterations of an earlier loop with barriers is not taken to miss a later barrier', async () => {
    // shrunk by P3: the divergence at the last barrier was confirmed with a witness (blockDim 2) whose threads both reach it
    const text = 'kernel k()\n{\n  shared S0;\n  for i0 in 0..tid {\n    if (((i0 + 0) >> 1) == 0) {\n      let v2_0 = S0[(i0 + i0)] in skip\n    } else {\n      sync\n    };\n    if (i0 == ((i0 + tid) + i0)) {\n      S0[i0] := (i0 + i0)\n    }\n  };\n  if (0 < 1) {\n    if (tid == 2) {\n      let a2_0 = 1 in skip\n    } else {\n      sync\n    };\n    S0[(0 + 1)] := (1 ^ 0)\n  };\n  S0[(1 + 1)] := 1\n}\n';
    // with two threads neither barrier diverges: thread 1's one iteration takes the read, and both threads reach the last barrier
    const r = await verifyAt(text, [2n, 1n, 1n], null);
    expect(r.divergences).toEqual([]);
    // for all launches, each divergence is confirmed and replays
    const checked = checkedKernels('t.bcu', text);
    if (!checked.ok) throw new Error('does not parse');
    const map = checked.kernels[0]!;
    const options = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm };
    const result = await verifyKernel(map, options);
    expect(result.divergences.filter((d) => d.confidence === 'confirmed').length).toBe(2);
    expect((await replayAlarms(map, result, options)).failures).toEqual([]);
  });

  it('a race is not confirmed while a barrier before it may split the block', async () => {
    // shrunk by P3 at --timeout 1000: the divergence query timed out, and the race was confirmed at blockDim 2^31, where thread 0 skips the barrier
    const text = 'kernel k() {\n  shared S0;\n  if ((blockDim.x * tid) == (tid + 0)) { for i1 in 0..(0 + 0) { sync } } else { sync };\n  S0[(0 + 0)] := tid\n}\n';
    const checked = checkedKernels('t.bcu', text);
    if (!checked.ok) throw new Error('does not parse');
    const map = checked.kernels[0]!;
    const launch = { params: new Map(), blockDim: null, gridDim: null };
    // the divergence queries come first; this solver leaves them undecided, as a timeout does
    let undecided = divergenceQueries(map, launch).length;
    const solver: Solver = {
      name: 'divergence-undecided',
      check: (script, timeoutMs) => (undecided-- > 0 ? Promise.resolve({ status: 'unknown', reason: 'timeout' }) : z3Wasm.check(script, timeoutMs)),
    };
    const r = await verifyKernel(map, { launch, timeoutMs: 10_000, maxRaces: 10, solver });
    expect(r.status).toBe('racy');
    expect(r.races.map((race) => race.confidence)).toEqual(['possible']);
    expect(r.races[0]!.doubts).toContainEqual(expect.objectContaining({ kind: 'divergence-unknown', query: 'k/sync1' }));
    // well-typed, and yet this alarm proves nothing: the report must not say it does
    expect(wellTypedText(r)).toBe('well-typed: yes — no alarm depends on data; the possible ones come from approximations of the tool');
    // with the divergence decided, the kernel is divergent and no race is reported
    const decided = await verifyKernel(map, { launch, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm });
    expect(decided.status).toBe('divergent');
    expect(decided.races).toEqual([]);
    expect(wellTypedText(decided)).toBe('well-typed: yes — every alarm is a proof of a bug');
  });
});
