import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { inferMap } from '../../src/map/infer.js';
import { lockstepRelations } from '../../src/map/lockstep.js';
import { spanText } from '../../src/core/source.js';
import { warpOf, type Launch } from '../../src/core/launch.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { replayAlarms, replayRace } from '../../src/verify/replay.js';
import type { Race } from '../../src/verify/result.js';
import { warpSizeOf, UsageError } from '../../src/api/options.js';
import { launchWithHeader, testHeader } from '../../src/api/cuda.js';
import { kernelText } from '../../src/report/text.js';
import { z3Wasm } from '../../src/solve/z3.js';

function mapOf(text: string) {
  const program = parseProgram('w.bcu', text);
  return inferMap(program.file, program.kernels[0]!);
}

function launch(warpSize?: number): Launch {
  return { params: new Map(), blockDim: null, gridDim: null, ...(warpSize === undefined ? {} : { warpSize }) };
}

async function verify(text: string, warpSize?: number) {
  const map = mapOf(text);
  const options = { launch: launch(warpSize), timeoutMs: 20_000, maxRaces: 10, solver: z3Wasm };
  const result = await verifyKernel(map, options);
  const replayed = await replayAlarms(map, result, options);
  expect(replayed.failures).toEqual([]);
  return replayed.result;
}

describe('lockstep relation of two statements (src/map/lockstep.ts)', () => {
  const map = mapOf(`kernel k() {
    global A;
    A[tid] := 0;
    for i in 0..4 {
      if (tid < 2) { A[tid + i] := 1 } else { let x = A[tid] in A[x] := 2 }
    }
  }`);
  const id = (text: string) => map.accesses.find((a) => spanText(map.file, a.span) === text && a.mode !== 'read')?.id ?? map.accesses.find((a) => spanText(map.file, a.span) === text)!.id;
  const rel = lockstepRelations(map.body);

  it('orders two statements of one sequence, whatever the loops', () => {
    expect(rel(id('A[tid]'), id('A[tid + i]'))).toEqual({ kind: 'ordered' });
  });
  it('leaves one statement unordered with itself, in the same iteration of the loops around it', () => {
    expect(rel(id('A[tid + i]'), id('A[tid + i]'))).toEqual({ kind: 'same', depth: 1 });
    expect(rel(id('A[tid]'), id('A[tid]'))).toEqual({ kind: 'same', depth: 0 });
  });
  it('leaves the two sides of an if unordered, in the same iteration of the loops around the if', () => {
    expect(rel(id('A[tid + i]'), id('A[x]'))).toEqual({ kind: 'divergent', depth: 1 });
  });
  it('numbers warps by linear thread id, x fastest', () => {
    expect(warpOf([31n, 0n, 0n], [64n, 1n, 1n], 32)).toBe(0n);
    expect(warpOf([0n, 1n, 0n], [16n, 4n, 1n], 32)).toBe(0n);
    expect(warpOf([0n, 2n, 0n], [16n, 4n, 1n], 32)).toBe(1n);
    expect(warpOf([0n, 0n, 1n], [8n, 2n, 2n], 16)).toBe(1n);
  });
});

describe('race queries with --warp-size', () => {
  const reduction = `kernel r() <<<1, 64>>> {
    shared s;
    if (tid < 32) {
      let a = s[tid] in let b = s[tid + 16] in s[tid] := a + b;
      let c = s[tid] in let d = s[tid + 8] in s[tid] := c + d
    }
  }`;

  it('finds the race of a kernel relying on lockstep with independent threads, and proves it with warps of 32', async () => {
    const free = await verify(reduction);
    expect(free.status).toBe('racy');
    expect(free.warpSize).toBeUndefined();
    const lockstep = await verify(reduction, 32);
    expect(lockstep.status).toBe('drf');
    expect(lockstep.warpSize).toBe(32);
  });

  it('still finds races between warps: thread 16 writes s[16], thread 0 reads it in warps of 16', async () => {
    const r = await verify(reduction, 16);
    expect(r.status).toBe('racy');
    for (const race of r.races) {
      const [t1, t2] = race.witness.threads.map((t) => t.threadIdx[0]! / 16n);
      expect(t1).not.toBe(t2);
    }
  });

  it('finds two threads of one warp writing one element in one statement', async () => {
    const r = await verify(`kernel k() <<<1, 32>>> { shared s; s[tid / 2] := tid }`, 32);
    expect(r.status).toBe('racy');
    expect(r.races[0]!.kind).toBe('write-write');
    expect(r.races[0]!.confidence).toBe('confirmed');
  });

  it('finds a read and a write on the two sides of one if in one warp', async () => {
    const r = await verify(`kernel k() <<<1, 32>>> { shared s; if (tid = 0) { s[1] := 1 } else { let x = s[tid] in skip } }`, 32);
    expect(r.status).toBe('racy');
    expect(r.races.map((x) => x.kind)).toEqual(['read-write']);
  });

  it('orders different iterations of a loop whose range depends on the thread by their iteration numbers', async () => {
    // thread t visits i = t, t + 1: iteration 0 of thread 1 writes A[1], iteration 1 of thread 0 writes A[1] too: ordered in lockstep
    const loop = `kernel k() <<<1, 32>>> { shared A; for i in tid..tid + 2 { A[i] := tid } }`;
    expect((await verify(loop)).status).toBe('racy');
    expect((await verify(loop, 32)).status).toBe('drf');
    // iteration 1 of thread 0 and iteration 1 of thread 2 (step 2): i = 2 and i = 4; iteration 0 of thread 2 and iteration 1 of thread 0 both write A[2]
    const same = `kernel k() <<<1, 32>>> { shared A; for i in tid..tid + 4 step + 2 { A[i / 2 + tid % 2] := tid } }`;
    expect((await verify(same, 32)).status).toBe('racy');
  });

  it('orders the iterations of a geometric loop whose start depends on the thread', async () => {
    const r = await verify(`kernel k() <<<1, 8>>> { shared A; for i in tid + 1..64 step * 2 { A[i] := tid } }`, 8);
    // thread 0 visits 1, 2, 4, …; thread 1 visits 2, 4, …: thread 0 at i = 2 is iteration 1, thread 1 at i = 2 iteration 0: ordered
    expect(r.status).toBe('drf');
    expect((await verify(`kernel k() <<<1, 8>>> { shared A; for i in tid + 1..64 step * 2 { A[i] := tid } }`)).status).toBe('racy');
  });

  it('states the execution model in the report', async () => {
    expect(kernelText(await verify(reduction, 32), { colour: false })).toContain('execution: warp size 32 (lockstep, which holds only before sm_70)');
    expect(kernelText(await verify(reduction), { colour: false })).toContain('execution: independent threads');
  });
});

describe('--warp-size and --warp-sync options', () => {
  it('reads either spelling, and refuses two that disagree or a zero', () => {
    expect(warpSizeOf('32', undefined)).toBe(32);
    expect(warpSizeOf(undefined, '16')).toBe(16);
    expect(warpSizeOf('32', '32')).toBe(32);
    expect(warpSizeOf(undefined, undefined)).toBeUndefined();
    expect(() => warpSizeOf('32', '16')).toThrow(UsageError);
    expect(() => warpSizeOf('0', undefined)).toThrow(UsageError);
  });
  it("takes GPUVerify's --warp-sync=N from a test header, unless the caller gives a warp size", () => {
    const text = '//pass\n//--warp-sync=32 --blockDim=64 --gridDim=1\n__global__ void k() {}\n';
    expect(testHeader(text)?.warpSize).toBe(32);
    expect(launchWithHeader(launch(), text).launch.warpSize).toBe(32);
    expect(launchWithHeader(launch(16), text).launch.warpSize).toBe(16);
    expect(launchWithHeader(launch(), '//pass\n//--blockDim=64\n').launch.warpSize).toBeUndefined();
  });
});

describe('syncwarp', () => {
  /** a warp's butterfly sum: each round reads the partner's element, syncwarp, writes its own, syncwarp */
  const tree = (between: string, after: string): string => `kernel sum() <<<1, 64>>> {
    shared s;
    for d in 16 downto 1 step / 2 {
      let partner = s[tid ^ d] in
      ${between};
      let mine = s[tid] in
      s[tid] := mine + partner;
      ${after}
    }
  }`;
  const warpOfThread = (t: { threadIdx: readonly bigint[] }): bigint => t.threadIdx[0]! / 32n;

  it('orders the threads of a warp: a warp reduction is DRF with syncwarp between its reads and writes, racy without', async () => {
    expect((await verify(tree('syncwarp', 'syncwarp'))).status).toBe('drf');
    // without the first: a round's read of the partner's element and the partner's write; without the second: a
    // round's write and the next round's read; each by two threads of one warp, in one warp phase
    for (const racy of [await verify(tree('skip', 'syncwarp')), await verify(tree('syncwarp', 'skip'))]) {
      expect(racy.status).toBe('racy');
      expect(racy.races.every((r) => r.level === 'warp' && r.confidence === 'confirmed' && r.replay?.replayed === true)).toBe(true);
      for (const r of racy.races) expect(warpOfThread(r.witness.threads[0])).toBe(warpOfThread(r.witness.threads[1]));
    }
  });

  it('reports a race within a warp phase at warp level, and names its warp phase', async () => {
    const r = await verify(`kernel k() { shared s; s[tid] := tid; syncwarp; let x = s[tid ^ 1] in s[tid] := x }`);
    expect(r.races.map((x) => [x.level, x.phase, x.kind, x.confidence])).toEqual([['warp', 1, 'read-write', 'confirmed']]);
    expect(kernelText(r, { colour: false })).toContain('within a warp, warp phase 1: thread 1 reads');
  });

  it('does not order threads of different warps: a race across warps stays a block-level race, reported once', async () => {
    const r = await verify(`kernel k() <<<1, 64>>> { shared s; s[tid] := tid; syncwarp; let x = s[tid + 1] in skip }`);
    expect(r.races).toHaveLength(1);
    const [race] = r.races;
    expect(race!.level).toBe('block');
    expect(warpOfThread(race!.witness.threads[0])).not.toBe(warpOfThread(race!.witness.threads[1]));
    expect(race!.index).toEqual([32n]);
  });

  it('reports a pair that races both across warps and within one once, at block level, the first asked', async () => {
    const r = await verify(`kernel k() <<<1, 64>>> { shared s; s[tid] := tid; let x = s[tid + 1] in skip; syncwarp }`);
    expect(r.races.map((x) => [x.level, x.phase, x.kind])).toEqual([['block', 0, 'read-write']]);
    expect(warpOfThread(r.races[0]!.witness.threads[0])).not.toBe(warpOfThread(r.races[0]!.witness.threads[1]));
  });

  it('reports a syncwarp under a branch that splits a warp as divergence, witnessed by two threads of one warp', async () => {
    const r = await verify(`kernel k() <<<1, 64>>> { shared s; if (tid % 32 < 16) { s[tid] := 1; syncwarp } }`);
    expect(r.status).toBe('divergent');
    const [d] = r.divergences;
    expect(d!.sync.scope).toBe('warp');
    expect(d!.confidence).toBe('confirmed');
    expect(warpOfThread(d!.witness.threads[0])).toBe(warpOfThread(d!.witness.threads[1]));
    expect(kernelText(r, { colour: false })).toContain('thread 1 reaches this syncwarp, thread 2 of its warp does not');
  });

  it('accepts a thread-dependent branch or loop around it that is uniform per warp, matching iterations by number', async () => {
    expect((await verify(`kernel k() <<<1, 64>>> { shared s; if (tid < 32) { s[tid] := 1; syncwarp; let x = s[tid ^ 1] in skip } }`)).status).toBe('drf');
    expect((await verify(`kernel k() <<<1, 64>>> { for i in tid / 32..tid / 32 + 2 { syncwarp } }`)).status).toBe('drf');
    expect((await verify(`kernel k() <<<1, 64>>> { for i in 0..tid % 2 + 1 { syncwarp } }`)).status).toBe('divergent');
  });

  it('replays a warp-level race only where the interpreter finds the two threads racing in one warp phase', async () => {
    // DRF: the syncwarp orders the write and the read, which are in one block phase
    const map = mapOf(`kernel k() <<<1, 2>>> { shared s; s[tid] := tid; syncwarp; let x = s[tid ^ 1] in skip }`);
    const [write, read] = map.accesses.map((a) => ({ id: a.id, mode: a.mode, span: a.span }));
    const thread = (x: bigint) => ({ threadIdx: [x, 0n, 0n], blockIdx: [0n, 0n, 0n], locals: new Map<string, bigint>() });
    const race: Race = {
      array: 's',
      kind: 'read-write',
      level: 'warp',
      phase: 0,
      confidence: 'confirmed',
      doubts: [],
      accesses: [write!, read!],
      index: [1n],
      witness: { parameters: new Map(), blockDim: [2n, 1n, 1n], gridDim: [1n, 1n, 1n], threads: [thread(1n), thread(0n)] },
    };
    const replay = await replayRace(map, race, { launch: launch(), timeoutMs: 20_000, solver: z3Wasm });
    expect(replay.verdict.kind).toBe('mismatch');
    expect(replay.verdict.kind === 'mismatch' ? replay.verdict.message : '').toContain('gridDim = (1, 1, 1) and each warp ordered by its syncwarps, the interpreter finds no race between these accesses to s[1]');
  });

  it('in lockstep, keeps the lockstep order and checks divergence, with no warp-level split', async () => {
    expect((await verify(tree('skip', 'skip'), 32)).status).toBe('drf');
    expect((await verify(`kernel k() <<<1, 64>>> { shared s; if (tid % 32 < 16) { s[tid] := 1; syncwarp } }`, 32)).status).toBe('divergent');
    // warps of 16: the branch is uniform per warp
    expect((await verify(`kernel k() <<<1, 64>>> { shared s; if (tid % 32 < 16) { s[tid] := 1; syncwarp } }`, 16)).status).toBe('drf');
  });
});
