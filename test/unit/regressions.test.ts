// Bugs found by the stage tests, each kept as the kernel that showed it.
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../src/api/check.js';
import { verifyText } from '../../src/api/verify.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { divergenceQueries, verifyKernel } from '../../src/verify/verify.js';
import { z3Wasm } from '../../src/solve/z3.js';
import type { Solver } from '../../src/solve/solver.js';
import { reasonText, wellTypedText } from '../../src/report/describe.js';
import type { KernelResult } from '../../src/verify/result.js';
import type { KernelMap } from '../../src/map/map.js';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { runKernel } from '../../src/semantics/interpret.js';

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
  it('benign races alone never end the search: a race of different values after more benign pairs than --max-races makes the kernel racy', async () => {
    const benignWrites = Array.from({ length: 12 }, (_, i) => `A[${i}] := 7;`).join(' ');
    const r = await verify(`kernel k() { shared A; ${benignWrites} A[12] := tid }`);
    expect(r.status).toBe('racy');
    expect(r.races.filter((race) => race.benign !== true).map((race) => race.index)).toEqual([[12n]]);
    // the benign ones past the cap (10) are not listed
    expect(r.races.filter((race) => race.benign === true)).toHaveLength(10);
  });

  it('a pair benign in one phase may race with different values in a later one: the kernel is racy, the pair listed once (found by the extracted Coq oracle)', async () => {
    // i = 1 (the first phase): A[j] := j, equal values wherever two threads meet; i = 0: A[0] := 1 and A[0] := 0
    const r = await verify('kernel k() { shared A; for i in 1 downto 0 { for j in 1 downto 0 { A[i * j] := j }; sync } }');
    expect(r.status).toBe('racy');
    expect(r.races.map((race) => `${race.phase} ${race.benign === true}`)).toEqual(['2 false']);
    // the same pair racing with equal values in every phase stays one benign race
    const equal = await verify('kernel k() { shared A; for i in 1 downto 0 { for j in 1 downto 0 { A[i * j] := 7 }; sync } }');
    expect(equal.status).toBe('benign');
    expect(equal.races).toHaveLength(1);
  });

  it('a pure let does not outlive its block: a later loop variable of the same name is not inlined', async () => {
    const r = await verify('kernel k() { shared A; if (tid < 1) { let x = tid in skip }; for x in 0..2 { A[x] := tid } }');
    expect(r.status).toBe('racy');
    expect(r.races[0]!.kind).toBe('write-write');
  });

  it('a later read-bound local of the same name is data-dependent, not the earlier let', async () => {
    const r = await verify('kernel k(N) { shared A; if (N < 1) { let x = 5 in skip } else { let x = A[0] in A[x + tid + 1] := tid } }');
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
    // thread 0 waits at the first barrier, the others at the second: nobody reaches `assume 0 == 1`; but the
    // check that no thread of the witness's launch fails an assumption takes every thread past its barriers
    expect(r.divergences[0]!.confidence).toBe('possible');
    expect(r.divergences[0]!.doubts).toEqual([expect.objectContaining({ kind: 'assumption', query: 'k/in-scope' })]);
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
    // (here the barrier never splits the block, t² = t + 7 having no solution, but only a solver shows it: the search for a model by evaluation cannot)
    const text = 'kernel k() {\n  shared S0;\n  if ((tid * tid) == (tid + 7)) { sync };\n  S0[(0 + 0)] := tid\n}\n';
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
    expect(r.races[0]!.doubts).toContainEqual(expect.objectContaining({ kind: 'divergence-unknown', query: 'k/sync0' }));
    // well-typed, and yet this alarm proves nothing: the report must not say it does
    expect(wellTypedText(r)).toBe('well-typed: yes — no alarm depends on data; the possible ones come from approximations of the tool');
    // with the divergence decided (no thread reaches the barrier), the race is confirmed
    const decided = await verifyKernel(map, { launch, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm });
    expect(decided.status).toBe('racy');
    expect(decided.races.map((race) => race.confidence)).toEqual(['confirmed']);
    expect(wellTypedText(decided)).toBe('well-typed: yes — every alarm is a proof of a bug');
  });
});

describe('regressions of issue 15 (soundness and false confirmations)', () => {
  it('a downward loop to 0 with a barrier ends, and the race after it is found and replays', async () => {
    const text = 'kernel k() { shared B; for i in 0 downto 0 { sync }; B[tid + 1] := 1; let v = B[tid] in skip }';
    const r = await verify(text);
    expect(r.status).toBe('racy');
    expect(r.races.map((race) => race.confidence)).toEqual(['confirmed']);
    const map = mapOf(text);
    const options = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm };
    const replayed = await replayAlarms(map, r, options);
    expect(replayed.failures).toEqual([]);
    expect(replayed.result.races[0]!.replay?.replayed).toBe(true);
  });
});

describe('regressions of issue 15: an easy race is not hidden by a hard pair', () => {
  const text = 'kernel k(p) { global A; A[0] := tid; A[tid % p] := tid; A[tid | 1] := tid }';
  const options = (solver: Solver) => ({ launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 10, solver });

  it('every thread writes A[0]: racy and confirmed, however the pairs with A[tid % p] and A[tid | 1] fare', async () => {
    // the hard pairs stand for a budget the solver exhausts: every query naming p, or using a bitwise or, gets no answer
    const stuck: Solver = {
      name: 'stuck on the hard pairs',
      check: (script, ms, extra) => (/p\.p|bvor/.test(script) ? Promise.resolve({ status: 'unknown', reason: 'timeout' }) : z3Wasm.check(script, ms, extra)),
    };
    const map = mapOf(text);
    const r = await verifyKernel(map, options(stuck));
    expect(r.status).toBe('racy');
    const own = r.races.find((race) => race.accesses.every((a) => a.span.start === text.indexOf('A[0]')))!;
    expect(own.confidence).toBe('confirmed');
    expect(own.index).toEqual([0n]);
    // only the pairs really undecided are listed, each by its two accesses' places
    expect(r.unknowns.length).toBeGreaterThan(0);
    for (const u of r.unknowns) expect(u.query).toMatch(/^k\/phase0\/A\/1\.\d+-1\.\d+$/);
    expect(r.unknowns.map((u) => u.query)).not.toContain('k/phase0/A/1.25-1.25');
    const replayed = await replayAlarms(map, r, options(z3Wasm));
    expect(replayed.failures).toEqual([]);
  });

  it('with a solver that answers, every racing pair is reported, each confirmed and replayed', async () => {
    const map = mapOf(text);
    const r = await verifyKernel(map, options(z3Wasm));
    expect(r.status).toBe('racy');
    expect(r.unknowns).toEqual([]);
    expect(r.races.every((race) => race.confidence === 'confirmed')).toBe(true);
    expect((await replayAlarms(map, r, options(z3Wasm))).failures).toEqual([]);
  });
});

describe('regressions of issue 15: the phase split asks about a loop in its context', () => {
  it('an inner loop whose barrier depends on an outer loop variable is checked under the outer loop, not as if that variable were free', async () => {
    const r = await verify('kernel k() { shared B; for i in 0..2 { for j in 0..1 { if (i < 1) { sync } } }; B[tid] := 1 }');
    expect(r.errors).toEqual([]);
    expect(r.status).toBe('drf');
  });

  it('an outer condition decides whether an inner loop meets a barrier in every iteration', async () => {
    // under N < 1 the loop meets its barrier in every iteration: aligned exactly, each iteration is a phase and
    // A[tid + j] of two threads differ within one; erased, thread 1 in iteration 0 and thread 0 in iteration 1 would race
    const text = 'kernel k(N) { shared A; if (N < 1) { for j in 0..2 { if (N < 1) { sync }; A[tid + j] := 1 } } }';
    const r = await verify(text);
    expect(r.errors).toEqual([]);
    expect(r.status).toBe('drf');
  });
});

describe('regressions of issue 15: replay', () => {
  it('replays the original witness when it cannot be shrunk (a launch clause fixing 2,048 threads, more than a shrunk block has)', async () => {
    const text = 'kernel k() <<<1, 2048>>> { shared A; if (tid = 2047) { A[0] := 1 }; if (tid + 1 = blockDim.x - 1) { A[0] := 2 } }';
    const r = await verify(text);
    expect(r.races.map((race) => race.confidence)).toEqual(['confirmed']);
    const options = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm };
    const replayed = await replayAlarms(mapOf(text), r, options);
    expect(replayed.failures).toEqual([]);
    expect(replayed.result.races[0]!.replay).toEqual({ replayed: true, note: null, minimised: null });
  });
});

describe('regressions of issue 15: barriers are matched by iteration number, not by the loop variable', () => {
  const options = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm };
  const runAt = (text: string, block: bigint): ReturnType<typeof runKernel> =>
    runKernel(parseProgram('t.bcu', text).kernels[0]!, { params: {}, blockDim: [block, 1n, 1n] });

  it('a loop whose bounds depend on the thread but whose trip count does not meets its barrier uniformly', async () => {
    const text = 'kernel k() { shared A; for i in tid..tid + 2 { sync }; A[tid] := 1 }';
    const r = await verify(text);
    expect(r.divergences).toEqual([]);
    expect(r.status).toBe('drf');
    const run = runAt(text, 3n);
    expect(run.kind === 'finished' && run.divergences).toEqual([]);
  });

  it('a race inside such a loop is confirmed, with each thread its own value of the loop variable, and replays', async () => {
    const text = 'kernel k() { shared A; for i in tid..tid + 2 { A[i] := 1; let v = A[i + 1] in sync } }';
    const r = await verify(text);
    expect(r.status).toBe('racy');
    const race = r.races[0]!;
    expect(race.confidence).toBe('confirmed');
    // thread t writes A[t + k] and reads A[t + k + 1] in iteration k: the two threads' i differ by one
    const [i1, i2] = race.witness.threads.map((t) => t.locals.get('i')!);
    expect(i1! - i2! === 1n || i2! - i1! === 1n).toBe(true);
    expect((await replayAlarms(mapOf(text), r, options)).failures).toEqual([]);
  });

  it('threads that reach one barrier in different iterations of a loop around it diverge, for the verifier and the interpreter', async () => {
    const text = 'kernel k() { shared A; for i in 0..2 { if (tid = i) { sync } } }';
    const r = await verify(text);
    expect(r.status).toBe('divergent');
    expect((await replayAlarms(mapOf(text), r, options)).failures).toEqual([]);
    const run = runAt(text, 2n);
    expect(run.kind === 'finished' && run.divergences.length).toBe(1);
  });

  it('geometric loops too: a thread-dependent start with the same trip count is uniform, one with another trip count diverges', async () => {
    expect((await verify('kernel k() { shared A; for i in tid + 1..(tid + 1) * 8 step * 2 { A[i] := 1; sync; let v = A[2 * i] in sync } }')).status).toBe('drf');
    // thread 0 visits 1, 2, 4 and thread 1 visits 2, 4: thread 0 waits at the barrier a third time alone
    const text = 'kernel k() { shared A; for i in tid + 1..8 step * 2 { sync } }';
    const r = await verify(text);
    expect(r.status).toBe('divergent');
    expect((await replayAlarms(mapOf(text), r, options)).failures).toEqual([]);
  });

  it('a loop whose trip count depends on the thread diverges at its barrier', async () => {
    const text = 'kernel k() { shared A; for i in 2 * tid + 8 downto tid { sync } }';
    const r = await verify(text);
    expect(r.status).toBe('divergent');
    expect(r.divergences[0]!.confidence).toBe('confirmed');
    expect((await replayAlarms(mapOf(text), r, options)).failures).toEqual([]);
  });
});

describe('regressions of issue 15: one meaning for assume (a thread failing one excludes the launch)', () => {
  const options = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 10, solver: z3Wasm };

  it('an assumption in an earlier phase, under a uniform condition, still constrains the threads after the barrier', async () => {
    const r = await verify('kernel a() { shared A; if (blockDim.x > 0) { assume tid = 0 }; sync; A[0] := tid }');
    expect(r.status).toBe('drf');
  });

  it('an assumption in a loop constrains the thread after the loop', async () => {
    expect((await verify('kernel b() { shared A; for i in 0..1 { assume tid = 0 }; A[0] := tid }')).status).toBe('drf');
    // but not when the loop may not run
    const r = await verify('kernel b(N) { shared A; for i in 0..N { assume tid = 0 }; A[0] := tid }');
    expect(r.status).toBe('racy');
    expect(r.races[0]!.witness.parameters.get('N')).toBe(0n);
  });

  it('the thread that does not reach a barrier satisfies the assumptions before it too', async () => {
    const r = await verify('kernel c(n) { shared A; assume tid < n; if (tid < n) { sync } }');
    expect(r.divergences).toEqual([]);
    expect(r.status).toBe('drf');
  });

  it('a race between two threads is not confirmed while a third thread of the launch fails or may fail an assumption', async () => {
    // at blockDim 3 and n = 0, threads 0 and 2 race on A[0] and satisfy the assumption, but thread 1 fails it:
    // that launch is excluded, and with it every launch the command line allows
    const text = 'kernel k(n) { shared A; assume tid != 1 || n > 0; A[tid % 2] := tid }';
    const at = async (n: bigint): Promise<KernelResult> => {
      const r = await verifyText('t.bcu', text, { ...options, launch: { params: new Map([['n', n]]), blockDim: [3n, 1n, 1n], gridDim: null } });
      if (!r.ok) throw new Error('does not parse');
      return r.kernels[0]!;
    };
    expect((await at(0n)).status).toBe('vacuous');
    expect(runKernel(parseProgram('t.bcu', text).kernels[0]!, { params: { n: 0n }, blockDim: [3n, 1n, 1n] }).kind).toBe('infeasible');
    // with n = 1 every thread satisfies it: confirmed, and it replays
    const feasible = await at(1n);
    expect(feasible.races.map((x) => x.confidence)).toEqual(['confirmed']);
    expect((await replayAlarms(mapOf(text), feasible, options)).failures).toEqual([]);
    // an assumption on a value read, after the race: whether some thread fails it depends on the array's contents
    // (7, which zero-filled memory fails: the run that confirms such races cannot)
    const data = 'kernel k() { shared A, B; A[tid % 2] := tid; sync; let x = B[tid] in assume x = 7 }';
    const r = await verifyText('t.bcu', data, { ...options, launch: { params: new Map(), blockDim: [3n, 1n, 1n], gridDim: null } });
    if (!r.ok) throw new Error('does not parse');
    const race = r.kernels[0]!.races[0]!;
    expect(race.confidence).toBe('possible');
    expect(race.doubts).toEqual([expect.objectContaining({ kind: 'assumption', query: 'k/in-scope' })]);
    expect(reasonText(r.kernels[0]!.file, 'possible', race.doubts)).toMatch(/^at the witness's launch, thread [012] of block 0 may fail the assumption at 1:77, which would exclude the launch$/);
    // where zero-filled memory satisfies it, the run of the witness confirms the race
    const zero = await verifyText('t.bcu', data.replace('x = 7', 'x = 0'), { ...options, launch: { params: new Map(), blockDim: [3n, 1n, 1n], gridDim: null } });
    if (!zero.ok) throw new Error('does not parse');
    expect(zero.kernels[0]!.races.map((x) => [x.confidence, x.confirmedBy])).toEqual([['confirmed', 'run']]);
  });

  it('the feasibility check of a witness binds the loop variables an assumption in a loop mentions (found by the campaign)', async () => {
    const r = await verify('kernel k() { shared S0; for i0 in 0..2 { assume i0 + tid >= i0; sync }; S0[0] := tid }');
    expect(r.errors).toEqual([]);
    expect(r.races.map((x) => x.confidence)).toEqual(['confirmed']);
  });

  it('an assumption every launch fails for its last thread makes the kernel vacuous, never DRF', async () => {
    const r = await verify('kernel d() { shared A; assume tid + 1 < blockDim.x; A[tid] := 1; let v = A[tid + 1] in skip }');
    expect(r.status).toBe('vacuous');
    expect(r.races).toEqual([]);
  });

  it('requires clauses that contradict the command line, or each other, are vacuous', async () => {
    expect((await verify('kernel k(N) requires N > 4 { shared A; A[tid] := 1 }', { N: 2 })).status).toBe('vacuous');
    expect((await verify('kernel k(N) requires N > 4 requires N < 3 { shared A; A[0] := tid }')).status).toBe('vacuous');
    expect((await verify('kernel k(N) requires N > 4 { shared A; A[tid] := 1 }', { N: 5 })).status).toBe('drf');
    // neither the first nor the last thread fails it: the thread that does is found and asked about
    expect((await verify('kernel k() <<<1, 3>>> { shared A; assume tid != 1; A[tid % 2] := tid }')).status).toBe('vacuous');
  });

  it('a nested assumption constrains the divergence query too, and a confirmed alarm under assumptions replays', async () => {
    const text = 'kernel k(n) { shared A; if (n > 1) { assume tid < n }; if (tid < 1) { sync }; A[tid] := 1 }';
    const r = await verify(text);
    expect(r.status).toBe('divergent');
    expect(r.divergences.map((d) => d.confidence)).toEqual(['confirmed']);
    expect((await replayAlarms(mapOf(text), r, options)).failures).toEqual([]);
  });
});

function mapOf(text: string): KernelMap {
  const checked = checkedKernels('t.bcu', text);
  if (!checked.ok) throw new Error('does not parse');
  return checked.kernels[0]!;
}
