/**
 * `verify` on kernels with machine integers, built with the test builder:
 * races through negative indices, typed downward loops, conditionals, casts
 * of negative values, unknown values, and a race reachable only through a
 * wrap-around (outside the scope, which the report states). Every confirmed
 * alarm is replayed by the interpreter.
 */
import { describe, expect, it } from 'vitest';
import * as b from '../support/core.js';
import type { Launch } from '../../src/core/launch.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import type { Kernel } from '../../src/core/ast.js';
import { spanText } from '../../src/core/source.js';
import type { KernelMap } from '../../src/map/map.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { replayAlarms } from '../../src/verify/replay.js';
import type { KernelResult } from '../../src/verify/result.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { textReport } from '../../src/report/text.js';
import { runKernel } from '../../src/semantics/interpret.js';

const tid = b.tidAs('i32');
const utid = b.tidAs('u32');
const block = (x: bigint): Launch => ({ params: new Map(), blockDim: [x, 1n, 1n], gridDim: [1n, 1n, 1n] });
const options = (launch: Launch) => ({ launch, timeoutMs: 20_000, maxRaces: 4, solver: z3Wasm });

async function verified(k: Kernel, launch: Launch = NO_LAUNCH): Promise<{ map: KernelMap; result: KernelResult }> {
  const map = b.mapOf(k);
  const result = await verifyKernel(map, options(launch));
  return { map, result };
}

/** Every confirmed alarm replays in the interpreter. */
async function replays(map: KernelMap, result: KernelResult, launch: Launch = NO_LAUNCH): Promise<number> {
  const { failures, result: replayed } = await replayAlarms(map, result, options(launch));
  expect(failures).toEqual([]);
  return [...replayed.races, ...replayed.divergences].filter((a) => a.replay?.replayed === true).length;
}

const text = (r: KernelResult): string => textReport([{ ok: true, path: r.file.path, kernels: [r] }], { colour: false });

describe('verify with machine integers', () => {
  it('finds a race through negative indices, confirmed, with a negative element', async () => {
    const k = b.kernel('neg', { arrays: [b.shared('A')] }, [b.write('A', [b.sub(b.i32(-1), tid)], b.i32(1)), b.read('x', 'A', [b.sub(tid, b.i32(3))])]);
    const { map, result } = await verified(k, block(4n));
    expect(result.status).toBe('racy');
    const race = result.races[0]!;
    expect(race.confidence).toBe('confirmed');
    expect(race.index[0]! < 0n).toBe(true);
    expect([-1n, -3n]).toContain(race.index[0]);
    expect(await replays(map, result, block(4n))).toBe(result.races.length);
  });

  it('visits n, …, 0 in `for i: i32 in n downto 0`, and nothing when n < 0', async () => {
    const loop = (requires: Parameters<typeof b.kernel>[1]['requires']) =>
      b.kernel('down', { params: [b.param('n', 'i32')], arrays: [b.shared('A')], requires }, [
        b.forLoop('i', { type: 'i32', from: b.v('n', 'i32'), to: b.i32(0), down: true }, [b.write('A', [b.v('i', 'i32')], tid)]),
      ]);
    const racy = await verified(loop([]));
    expect(racy.result.status).toBe('racy');
    const race = racy.result.races[0]!;
    expect(race.confidence).toBe('confirmed');
    expect(race.index[0]! >= 0n && race.index[0]! <= race.witness.parameters.get('n')!).toBe(true);
    expect(await replays(racy.map, racy.result)).toBe(racy.result.races.length);
    // n < 0: the loop never runs; with naturals `n downto 0` could not even be written so
    const empty = await verified(loop([b.cmp('<', b.v('n', 'i32'), b.i32(0))]));
    expect(empty.result.status).toBe('drf');
    // the interpreter visits the same values
    const run = runKernel(racy.map.source, { params: { n: 2n }, blockDim: [1n, 1n, 1n] });
    expect(run.kind === 'finished' && run.blocks[0]!.phases[0]!.threads[0]!.accesses.map((a) => a.index[0])).toEqual([2n, 1n, 0n]);
    const none = runKernel(b.mapOf(loop([])).source, { params: { n: -1n }, blockDim: [2n, 1n, 1n] });
    expect(none.kind === 'finished' && none.blocks[0]!.phases[0]!.threads).toEqual([]);
  });

  it('reports the race that an unsigned wrap-around makes, as C defines it, and states its scope', async () => {
    // thread 2's index 2 << 31 = 2^32 wraps to thread 0's 0: a race on A[0]
    const k = b.kernel('wrap', { arrays: [b.shared('A')] }, [b.write('A', [b.bin('<<', utid, b.u32(31n))], utid)]);
    const { map, result } = await verified(k);
    expect(result.status).toBe('racy');
    expect(result.races.map((r) => [r.confidence, r.index])).toEqual([['confirmed', [0n]]]);
    expect(result.machineIntegers).toBe(true);
    expect(text(result)).toContain('scope: assuming no signed overflow, no unsigned loop counter wrapping around, no division by zero, shifts in range (undefined behaviour is outside the scope of verification)');
    expect(await replays(map, result)).toBe(1);
    // the interpreter computes the same wrapped indices
    const run = runKernel(map.source, { params: {}, blockDim: [4n, 1n, 1n] });
    expect(run.kind === 'finished' && run.blocks[0]!.phases[0]!.threads.map((t) => t.accesses[0]!.index[0])).toEqual([0n, 2n ** 31n, 0n, 2n ** 31n]);
  });

  it('wraps an unsigned product modulo 2^32 however many times: encoder, replay and interpreter agree', async () => {
    // thread t writes A[(t * 3221225472) mod 2^32]; 3221225472 = 3 * 2^30, so
    // threads 0 and 4 (product 3 * 2^32, wrapped three times) both write A[0]
    const k = b.kernel('umul', { arrays: [b.shared('A')] }, [b.write('A', [b.bin('*', utid, b.u32(3221225472n))], utid)]);
    const { map, result } = await verified(k, block(5n));
    expect(result.status).toBe('racy');
    expect(result.races.map((r) => [r.confidence, r.index])).toEqual([['confirmed', [0n]]]);
    expect(await replays(map, result, block(5n))).toBe(1);
    const run = runKernel(map.source, { params: {}, blockDim: [5n, 1n, 1n] });
    expect(run.kind === 'finished' && run.blocks[0]!.phases[0]!.threads.map((t) => t.accesses[0]!.index[0])).toEqual([0n, 3221225472n, 2147483648n, 1073741824n, 0n]);
    // at 4 threads the wrapped products are distinct
    expect((await verified(k, block(4n))).result.status).toBe('drf');
  });

  it('with naturals the same kernel has no such scope line', async () => {
    const k = b.kernel('nat', { arrays: [b.shared('A')] }, [b.write('A', [b.mul(b.tid, b.nat(2))], b.nat(1))]);
    const { result } = await verified(k);
    expect(result.status).toBe('drf');
    expect(result.machineIntegers).toBeUndefined();
    expect(text(result)).not.toContain('scope:');
  });

  it('races between the branches of a conditional', async () => {
    const k = b.kernel('ite', { arrays: [b.shared('A')] }, [b.write('A', [b.ite(b.cmp('<', tid, b.i32(4)), tid, b.sub(tid, b.i32(4)))], tid)]);
    const { map, result } = await verified(k, block(8n));
    expect(result.status).toBe('racy');
    expect(result.races[0]!.confidence).toBe('confirmed');
    const ids = result.races[0]!.witness.threads.map((t) => t.threadIdx[0]! % 4n);
    expect(ids[0]).toBe(ids[1]);
    expect(await replays(map, result, block(8n))).toBe(result.races.length);
  });

  it("counts a conditional's branch's definedness only when it is taken", async () => {
    // 100 / n is not evaluated when n = 0: the race at n = 0 is in scope
    const k = b.kernel('taken', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
      b.write('A', [b.ite(b.cmp('==', b.v('n', 'i32'), b.i32(0)), b.i32(0), b.bin('/', b.i32(100), b.v('n', 'i32')))], tid),
    ]);
    const zero: Launch = { params: new Map([['n', 0n]]), blockDim: [2n, 1n, 1n], gridDim: [1n, 1n, 1n] };
    const { map, result } = await verified(k, zero);
    expect(result.status).toBe('racy');
    expect(result.races[0]!.index).toEqual([0n]);
    expect(await replays(map, result, zero)).toBe(1);
  });

  it('casts a negative i32 to u32 modulo 2^32: a race on A[4294967295]', async () => {
    const k = b.kernel('cast', { arrays: [b.shared('A')] }, [b.write('A', [b.cast('u32', b.sub(tid, b.i32(1)))], b.u32(1)), b.read('x', 'A', [b.u32(4294967295)])]);
    const { map, result } = await verified(k, block(2n));
    expect(result.status).toBe('racy');
    expect(result.races[0]!.index).toEqual([4294967295n]);
    expect(result.races[0]!.confidence).toBe('confirmed');
    expect(await replays(map, result, block(2n))).toBe(1);
  });

  it('gives a possible alarm on a havocked index, naming the unknown value and where it is', async () => {
    const k = b.kernel('fetch', { arrays: [b.shared('A')] }, [b.havoc('h', 'i32', b.unknownValue('a texture fetch'), b.write('A', [b.v('h', 'i32')], tid))]);
    const { map, result } = await verified(k);
    expect(result.status).toBe('racy');
    const race = result.races[0]!;
    expect(race.confidence).toBe('possible');
    expect(race.doubts).toEqual([{ kind: 'unknown', variable: 'h', origin: { kind: 'value', what: 'a texture fetch', span: expect.anything() as unknown } }]);
    expect(text(result)).toContain('possible: depends on h, unknown: a texture fetch at 4:16');
    // each thread's unknown value is in its witness
    expect(race.witness.threads.map((t) => t.locals.get('h'))).toEqual([race.index[0], race.index[0]]);
    expect(spanText(map.file, map.violations[0]!.origin.span)).toBe('/* a texture fetch */');
  });

  it('lists approximations under the verdict', async () => {
    const k = b.kernel('approx', { arrays: [b.shared('A')] }, [
      b.havoc('n', 'i32', b.approximation('the trip count of a while loop', 'its condition is not a bound the front end solves'), b.forLoop('i', { type: 'i32', from: b.i32(0), to: b.v('n', 'i32') }, [b.write('A', [tid], b.v('i', 'i32'))])),
    ]);
    const { result } = await verified(k);
    expect(result.status).toBe('drf');
    expect(result.approximations?.map((a) => a.what)).toEqual(['the trip count of a while loop']);
    expect(text(result)).toContain('approximated (sound; alarms that depend on them are possible): the trip count of a while loop at 4:16: its condition is not a bound the front end solves');
  });

  it('puts negative parameters of signed types in witnesses', async () => {
    const k = b.kernel('param', { params: [b.param('n', 'i32')], arrays: [b.shared('A')], requires: [b.cmp('<', b.v('n', 'i32'), b.i32(0))] }, [
      b.write('A', [b.add(tid, b.v('n', 'i32'))], b.i32(1)),
      b.read('x', 'A', [b.i32(0)]),
    ]);
    const { map, result } = await verified(k);
    expect(result.status).toBe('racy');
    const n = result.races[0]!.witness.parameters.get('n')!;
    expect(n < 0n).toBe(true);
    expect(await replays(map, result)).toBe(result.races.length);
  });

  it('finds a divergence on a signed condition that naturals would not have', async () => {
    const k = b.kernel('div', { arrays: [b.shared('A')] }, [b.if_(b.cmp('<', b.sub(tid, b.i32(1)), b.i32(0)), [b.sync])]);
    const { map, result } = await verified(k);
    expect(result.status).toBe('divergent');
    expect(result.divergences[0]!.confidence).toBe('confirmed');
    expect(await replays(map, result)).toBe(1);
  });

  it('proves a typed tree reduction, and finds its race without the barrier', async () => {
    const reduction = (barrier: boolean) =>
      b.kernel('reduce', { arrays: [b.shared('A')] }, [
        b.forLoop('s', { type: 'u32', from: b.bin('/', b.cast('u32', b.builtin('blockDim')), b.u32(2)), to: b.u32(1), down: true, step: { op: '/', amount: b.u32(2) } }, [
          b.if_(b.cmp('<', utid, b.v('s', 'u32')), [b.read('x', 'A', [b.add(utid, b.v('s', 'u32'))], b.write('A', [utid], b.v('x', 'u32')))]),
          ...(barrier ? [b.sync] : []),
        ]),
      ]);
    expect((await verified(reduction(true))).result.status).toBe('drf');
    // the race at a launch fixed keeps the query small (a model over all launches can take long under load)
    const racy = await verified(reduction(false), block(8n));
    expect(racy.result.status).toBe('racy');
    expect(racy.result.races[0]!.confidence).toBe('confirmed');
    expect(await replays(racy.map, racy.result, block(8n))).toBe(racy.result.races.length);
  });

  it('keeps out of the scope a division by zero on the path to an access: with it in every thread, no launch is in scope', async () => {
    // (100 / n) is evaluated before the write: with n = 0 there is no execution to race in, nor any other
    const k = b.kernel('zero', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
      b.let_('q', b.bin('/', b.i32(100), b.v('n', 'i32')), b.write('A', [b.i32(0)], tid)),
    ]);
    const zero: Launch = { params: new Map([['n', 0n]]), blockDim: [2n, 1n, 1n], gridDim: [1n, 1n, 1n] };
    expect((await verified(k, zero)).result.status).toBe('vacuous');
    const one: Launch = { params: new Map([['n', 1n]]), blockDim: [2n, 1n, 1n], gridDim: [1n, 1n, 1n] };
    expect((await verified(k, one)).result.status).toBe('racy');
  });

  it('asks for races only between threads in scope: two threads of a block stepping by blockDim.x meet only where one overflows after its access', async () => {
    // CUDA's `for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)`: blocks overlap (a race between blocks);
    // in one block, a thread whose u32 start is cast to a negative int can reach the value another thread starts at
    // (blockDim = 1023, n = 2^31 - 1), but that other thread's next step overflows: no race of the block is in scope
    const [n, bd] = [b.v('n', 'i32'), b.cast('u32', b.builtin('blockDim'))];
    const start = b.cast('i32', b.add(b.mul(b.cast('u32', b.builtin('blockIdx')), bd), b.cast('u32', b.tid)));
    const limits = [b.cmp('<=', b.builtin('blockDim'), b.nat(1024)), b.cmp('<=', b.builtin('gridDim'), b.nat(2n ** 31n - 1n))];
    const k = b.kernel('stride', { params: [b.param('n', 'i32')], arrays: [b.global('y')], requires: limits }, [
      b.let_('i', start, b.forLoop('j', { type: 'i32', from: b.v('i', 'i32'), to: n, step: { op: '+', amount: b.cast('i32', bd) } }, [b.write('y', [b.v('j', 'i32')], b.v('j', 'i32'))])),
    ]);
    const { map, result } = await verified(k);
    expect(result.races.map((r) => [r.level, r.confidence])).toEqual([['grid', 'confirmed']]);
    expect(await replays(map, result)).toBe(1);
  });

  it('is vacuous when every thread evaluates an undefined operation in an earlier iteration, and confirms the race when none does', async () => {
    // every thread's first iteration (i = -1) divides INT_MIN by -1: signed overflow, undefined, so no launch is in scope
    const loop = (dividend: bigint) =>
      b.kernel('earlier', { arrays: [b.global('G')] }, [
        b.forLoop('i', { type: 'i32', from: b.i32(-1), to: b.i32(3), step: { op: '+', amount: b.i32(2) } }, [
          b.write('G', [b.v('i', 'i32')], tid),
          b.let_('a', b.bin('/', b.i32(dividend), b.v('i', 'i32'))),
        ]),
      ]);
    const { map, result } = await verified(loop(-(2n ** 31n)), block(2n));
    expect(result.status).toBe('vacuous');
    expect(result.races).toEqual([]);
    expect(runKernel(map.source, { params: {}, blockDim: [2n, 1n, 1n] }).kind).toBe('undefined');
    // with INT_MIN + 1 nothing is undefined: the race is confirmed, and replays
    const fine = await verified(loop(1n - 2n ** 31n), block(2n));
    expect(fine.result.races.map((r) => r.confidence)).toEqual(fine.result.races.map(() => 'confirmed'));
    expect(await replays(fine.map, fine.result, block(2n))).toBe(fine.result.races.length);
  });

  describe('a confirmed race needs its whole launch in scope, not only its two threads', () => {
    // thread 0 divides by n; threads 1, 2, … write A[0] when n = 0: every racing launch has thread 0 divide by zero
    const k = b.kernel('other', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
      b.if_(b.cmp('==', tid, b.i32(0)), [b.let_('q', b.bin('/', b.i32(100), b.v('n', 'i32')))]),
      b.if_(b.and(b.cmp('==', b.v('n', 'i32'), b.i32(0)), b.cmp('>', tid, b.i32(0))), [b.write('A', [b.i32(0)], tid)]),
    ]);

    it('is possible, naming the thread and the operation, for all launches', async () => {
      const { map, result } = await verified(k);
      expect(result.status).toBe('racy');
      const race = result.races[0]!;
      expect(race.confidence).toBe('possible');
      expect(race.witness.threads.map((t) => t.threadIdx[0])).not.toContain(0n);
      expect(race.doubts).toEqual([expect.objectContaining({ kind: 'undefined-operation', thread: { threadIdx: [0n, 0n, 0n], blockIdx: [0n, 0n, 0n] }, query: 'other/in-scope' })]);
      const doubt = race.doubts[0]!;
      if (doubt.kind === 'undefined-operation') expect(doubt.span === null ? null : spanText(map.file, doubt.span)).toBe('100 / n');
      expect(text(result)).toContain("possible: at the witness's launch, thread 0 of block 0 may evaluate an undefined operation at");
      // the interpreter stops that launch at thread 0's division
      const run = runKernel(map.source, { params: { n: 0n }, blockDim: [3n, 1n, 1n] });
      expect(run.kind === 'undefined' && run.at?.thread).toEqual([0n, 0n, 0n]);
    });

    it('at a launch fixed with n = 0, where the rounds of the vacuity check find thread 0, no launch is in scope', async () => {
      const { result } = await verified(k, { params: new Map([['n', 0n]]), blockDim: [3n, 1n, 1n], gridDim: [1n, 1n, 1n] });
      expect(result.status).toBe('vacuous');
    });
  });

  it('confirms a race whose first witness has a huge block where another thread overflows, at a small launch in scope', async () => {
    // tid + 1 overflows in thread 2^31 - 1: the solver's first launch may have it; the race needs 2 threads
    const k = b.kernel('huge', { arrays: [b.shared('A')] }, [b.write('A', [b.add(tid, b.i32(1))], b.i32(1)), b.read('x', 'A', [tid])]);
    const { map, result } = await verified(k);
    expect(result.status).toBe('racy');
    const race = result.races[0]!;
    expect(race.confidence).toBe('confirmed');
    expect(race.witness.blockDim[0]! < 2n ** 31n).toBe(true);
    expect(await replays(map, result)).toBe(result.races.length);
  });

  it('finds that small launch also when a requires clause fixes a size beyond the bounds tried (blockDim.x = 128)', async () => {
    // g = blockIdx.x * 128 + tid overflows in a large grid; the race between neighbours needs one block
    const g = b.add(b.mul(b.cast('i32', b.builtin('blockIdx')), b.i32(128)), tid);
    const k = b.kernel('fixed', { arrays: [b.global('A')], requires: [b.cmp('==', b.builtin('blockDim'), b.nat(128))] }, [
      b.write('A', [b.add(g, b.i32(1))], b.i32(1)),
      b.read('x', 'A', [g]),
    ]);
    const { map, result } = await verified(k);
    expect(result.status).toBe('racy');
    const race = result.races[0]!;
    expect(race.confidence).toBe('confirmed');
    expect(race.witness.blockDim[0]).toBe(128n);
    expect(race.witness.gridDim[0]! <= 64n).toBe(true);
    expect(await replays(map, result)).toBe(result.races.length);
  });

  it('visits exactly the values of typed loops, up and down, past 0', async () => {
    // thread 0 runs the loop; thread 1 reads A[c]: a race exactly when the loop visits c
    const visits = async (spec: b.LoopSpec, c: number): Promise<boolean> => {
      const k = b.kernel('visits', { arrays: [b.shared('A')] }, [
        b.if_(b.cmp('==', tid, b.i32(0)), [b.forLoop('i', spec, [b.write('A', [b.v('i', 'i32')], b.i32(1))])], [b.read('x', 'A', [b.i32(c)])]),
      ]);
      const { result } = await verified(k, block(2n));
      return result.status === 'racy';
    };
    const down = { type: 'i32', from: b.i32(3), to: b.i32(-3), down: true, step: { op: '-', amount: b.i32(2) } } as const;
    expect(await Promise.all([3, 1, -1, -3, 2, -4, 5].map((c) => visits(down, c)))).toEqual([true, true, true, true, false, false, false]);
    const up = { type: 'i32', from: b.i32(-4), to: b.i32(2), step: { op: '+', amount: b.i32(3) } } as const;
    expect(await Promise.all([-4, -1, 2, -3, 0, -7].map((c) => visits(up, c)))).toEqual([true, true, false, false, false, false]);
  });

  it('reads a thread id past 2^31 as a negative int', async () => {
    // blockDim.x is below 2^32: (int) threadIdx.x reaches -2 for threadIdx.x = 2^32 - 2
    const k = b.kernel('wrapid', { arrays: [b.shared('A')] }, [b.write('A', [tid], b.i32(1)), b.read('x', 'A', [b.i32(-2)])]);
    const { result } = await verified(k);
    expect(result.status).toBe('racy');
    expect(result.races[0]!.index).toEqual([-2n]);
    expect(result.races[0]!.witness.threads.some((t) => t.threadIdx[0] === 2n ** 32n - 2n)).toBe(true);
  });

  it('keeps out of the scope a race that needs an index computation to be undefined', async () => {
    // (tid * n) / n is tid for every n ≠ 0; n = 0 divides by zero, where the values would all be 0
    const k = b.kernel('index', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [b.write('A', [b.bin('/', b.mul(tid, b.v('n', 'i32')), b.v('n', 'i32'))], b.i32(1))]);
    expect((await verified(k)).result.status).toBe('drf');
  });

  it("is vacuous when every thread's loop overflows at its last step", async () => {
    // i = MAX - 1 is visited; the step to MAX + 1 is undefined, so no thread gets past the loop in scope
    const k = (from: bigint) =>
      b.kernel('last', { arrays: [b.shared('A')] }, [
        b.forLoop('i', { type: 'i32', from: b.i32(from), to: b.i32(2 ** 31 - 1), step: { op: '+', amount: b.i32(2) } }, [b.skip]),
        b.write('A', [b.i32(0)], tid),
      ]);
    const { map, result } = await verified(k(2n ** 31n - 2n), block(2n));
    expect(result.status).toBe('vacuous');
    expect(runKernel(map.source, { params: {}, blockDim: [2n, 1n, 1n] }).kind).toBe('undefined');
    // for all launches too: the loop is the same in every one
    expect((await verified(k(2n ** 31n - 2n))).result.status).toBe('vacuous');
    // from MAX - 2 the loop visits MAX - 2 and stops at MAX without overflow: confirmed
    const fine = await verified(k(2n ** 31n - 3n), block(2n));
    expect(fine.result.races[0]!.confidence).toBe('confirmed');
  });
  describe('typed loops with the trust rules (downward loops end, barriers matched by iteration number)', () => {
    const raceAfter = [b.write('A', [b.add(tid, b.i32(1))], b.i32(1)), b.read('x', 'A', [tid])];

    it('an i32 loop `0 downto 0` around a barrier ends at -1, so the race after it is found and replays', async () => {
      const k = b.kernel('k', { arrays: [b.shared('A')] }, [b.forLoop('i', { type: 'i32', from: b.i32(0), to: b.i32(0), down: true }, [b.sync]), ...raceAfter]);
      const { map, result } = await verified(k);
      expect(result.status).toBe('racy');
      expect(result.races[0]!.confidence).toBe('confirmed');
      expect(await replays(map, result)).toBeGreaterThan(0);
      expect(runKernel(map.source, { params: {}, blockDim: [2n, 1n, 1n] }).kind).toBe('finished');
    });

    it('a u32 loop `0 downto 0` would step below 0: a wrap-around in every launch, so no launch is in scope (vacuous, never DRF), in the verifier and the interpreter alike', async () => {
      const k = b.kernel('k', { arrays: [b.shared('A')] }, [b.forLoop('i', { type: 'u32', from: b.u32(0), to: b.u32(0), down: true }, [b.sync]), ...raceAfter]);
      const { map, result } = await verified(k);
      expect(result.status).toBe('vacuous');
      expect(text(result)).toContain('scope: assuming');
      expect(runKernel(map.source, { params: {}, blockDim: [2n, 1n, 1n] }).kind).toBe('undefined');
      // `n downto 0` with n a parameter: the last step, from 0, wraps around whatever n is
      const down = b.kernel('k', { params: [b.param('n', 'u32')], arrays: [b.shared('A')] }, [
        b.forLoop('i', { type: 'u32', from: b.v('n', 'u32'), to: b.u32(0), down: true }, [b.sync]),
        ...raceAfter,
      ]);
      expect((await verified(down)).result.status).toBe('vacuous');
      // down to 1 it ends without wrapping: the race after it is found
      const toOne = b.kernel('k', { params: [b.param('n', 'u32')], arrays: [b.shared('A')] }, [
        b.forLoop('i', { type: 'u32', from: b.v('n', 'u32'), to: b.u32(1), down: true }, [b.sync]),
        ...raceAfter,
      ]);
      expect((await verified(toOne)).result.status).toBe('racy');
    });

    it('a barrier loop over a thread-dependent i32 range with a uniform trip count does not diverge; a thread-dependent trip count does', async () => {
      const same = b.kernel('k', { arrays: [b.shared('A')] }, [b.forLoop('i', { type: 'i32', from: tid, to: b.add(tid, b.i32(2)) }, [b.sync]), b.write('A', [tid], b.i32(1))]);
      expect((await verified(same, block(4n))).result.status).toBe('drf');
      const differs = b.kernel('k', { arrays: [b.shared('A')] }, [b.forLoop('i', { type: 'i32', from: b.i32(0), to: tid }, [b.sync]), b.write('A', [tid], b.i32(1))]);
      const { map, result } = await verified(differs, block(4n));
      expect(result.status).toBe('divergent');
      expect(await replays(map, result, block(4n))).toBe(1);
    });
  });
});

