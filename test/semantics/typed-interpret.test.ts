/**
 * The interpreter and the MAP evaluator on machine integers: C's arithmetic,
 * undefined behaviour stopping a launch at its place (or, in the verifier's
 * reading, only its thread), unknown values drawn from the run's seed within
 * their type, typed loops.
 */
import { describe, expect, it } from 'vitest';
import * as b from '../support/core.js';
import type { Kernel } from '../../src/core/ast.js';
import { spanText } from '../../src/core/source.js';
import { runKernel, type Finished, type RunOptions, type RunResult } from '../../src/semantics/interpret.js';
import { evalMap, interpreterUnknowns } from '../../src/semantics/map-eval.js';

const tid = b.tidAs('i32');

function run(k: Kernel, params: Record<string, bigint> = {}, block = 2n, options: RunOptions = {}): { result: RunResult; text: (s: { start: number; end: number }) => string } {
  const map = b.mapOf(k);
  return { result: runKernel(map.source, { params, blockDim: [block, 1n, 1n] }, options), text: (s) => spanText(map.file, s) };
}

function finished(r: RunResult): Finished {
  if (r.kind !== 'finished') throw new Error(`expected a finished run, got ${r.kind}: ${'message' in r ? r.message : ''}`);
  return r;
}

/** The elements each thread of block 0 wrote or read in phase 0, by thread x. */
function indices(r: RunResult): Record<string, string> {
  return Object.fromEntries(finished(r).blocks[0]!.phases[0]!.threads.map((t) => [String(t.thread[0]), t.accesses.map((a) => a.index.join(',')).join(' ')]));
}

describe('the interpreter on machine integers', () => {
  it("computes C's operations: negative values, truncating division, casts", () => {
    const k = b.kernel('k', { arrays: [b.shared('A'), b.shared('B'), b.shared('C')] }, [
      b.write('A', [b.sub(tid, b.i32(1))], b.i32(0)),
      b.write('B', [b.bin('/', b.sub(b.i32(-7), tid), b.i32(2))], b.i32(0)),
      b.write('C', [b.cast('u32', b.sub(tid, b.i32(1)))], b.i32(0)),
    ]);
    expect(indices(run(k).result)).toEqual({ '0': '-1 -3 4294967295', '1': '0 -4 0' });
  });

  it('stops the launch at an undefined operation, with what and where', () => {
    const cases: [Kernel, string, string][] = [
      [b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [b.write('A', [b.add(b.v('n', 'i32'), tid)], b.i32(0))]), 'n + (i32) tid', "overflow: 2147483647 + 1 = 2147483648 is outside i32's range [-2147483648, 2147483647]"],
      [b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [b.write('A', [b.bin('%', tid, b.sub(b.v('n', 'i32'), tid))], b.i32(0))]), '(i32) tid % (n - (i32) tid)', 'division by zero: 1 % 0'],
      [b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [b.write('A', [b.bin('<<', b.u32(1), b.add(b.v('n', 'i32'), tid))], b.i32(0))]), '1 << n + (i32) tid', 'shift count 32 out of range for u32 (0 to 31)'],
    ];
    const params = [{ n: 2147483647n }, { n: 1n }, { n: 31n }];
    cases.forEach(([k, where, message], i) => {
      const { result, text } = run(k, params[i]!);
      expect(result.kind).toBe('undefined');
      if (result.kind !== 'undefined') return;
      expect(text(result.span)).toBe(where);
      expect(result.message).toBe(message);
      expect(result.at?.thread).toEqual([1n, 0n, 0n]);
    });
  });

  it('evaluates only the branch a conditional takes, and the right of && only when needed', () => {
    const k = b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [
      b.write('A', [b.ite(b.cmp('==', b.v('n', 'i32'), b.i32(0)), tid, b.bin('/', b.i32(10), b.v('n', 'i32')))], b.i32(0)),
      b.if_(b.and(b.cmp('!=', b.v('n', 'i32'), b.i32(0)), b.cmp('>', b.bin('/', b.i32(10), b.v('n', 'i32')), b.i32(1))), [b.write('A', [b.i32(7)], b.i32(0))]),
    ]);
    expect(indices(run(k, { n: 0n }).result)).toEqual({ '0': '0', '1': '1' });
    expect(indices(run(k, { n: 5n }).result)).toEqual({ '0': '2 7', '1': '2 7' });
  });

  it('an undefined operation of one thread puts the whole launch outside the scope, as a failed assumption excludes it (replay runs it so too)', () => {
    const k = b.kernel('k', { arrays: [b.shared('A')] }, [b.write('A', [b.bin('/', b.i32(6), tid)], b.i32(0))]);
    const out = run(k, {}, 3n).result;
    expect(out.kind).toBe('undefined');
    if (out.kind === 'undefined') {
      expect(out.at?.thread).toEqual([0n, 0n, 0n]);
      expect(out.message).toContain('division by zero');
    }
    // without the undefined thread the other threads run as usual
    const safe = b.kernel('k', { arrays: [b.shared('A')] }, [b.write('A', [b.bin('/', b.i32(6), b.bin('+', tid, b.i32(1)))], b.i32(0))]);
    expect(indices(run(safe, {}, 3n).result)).toEqual({ '0': '6', '1': '3', '2': '2' });
  });

  it('rejects a parameter outside its type, and accepts negative values of signed ones', () => {
    const k = b.kernel('k', { params: [b.param('n', 'i32'), b.param('m', 'u32')], arrays: [b.shared('A')] }, [b.write('A', [b.v('n', 'i32')], b.v('m', 'u32'))]);
    expect(run(k, { n: -5n, m: 1n }).result.kind).toBe('finished');
    const out = run(k, { n: 0n, m: -1n }).result;
    expect(out.kind === 'error' && out.message).toBe("parameter 'm' is of type u32: -1 is outside its range [0, 4294967295]");
  });

  it('computes typed loops in their type: downto 0, negative starts, geometric steps, and an overflowing step', () => {
    const loop = (spec: b.LoopSpec) => b.kernel('k', { arrays: [b.shared('A')] }, [b.forLoop('i', spec, [b.write('A', [b.v('i', spec.type)], b.i32(0))])]);
    const values = (spec: b.LoopSpec): string => indices(run(loop(spec), {}, 1n).result)['0'] ?? '';
    expect(values({ type: 'i32', from: b.i32(2), to: b.i32(0), down: true })).toBe('2 1 0');
    expect(values({ type: 'i32', from: b.i32(-1), to: b.i32(0), down: true })).toBe('');
    expect(values({ type: 'i32', from: b.i32(-5), to: b.i32(2), step: { op: '+', amount: b.i32(3) } })).toBe('-5 -2 1');
    expect(values({ type: 'i32', from: b.i32(9), to: b.i32(1), down: true, step: { op: '/', amount: b.i32(2) } })).toBe('9 4 2 1');
    expect(values({ type: 'i32', from: b.i32(-1), to: b.i32(-9), down: true, step: { op: '-', amount: b.i32(3) } })).toBe('-1 -4 -7');
    expect(values({ type: 'u32', from: b.u32(1), to: b.u32(40), step: { op: '*', amount: b.u32(3) } })).toBe('1 3 9 27');
    // the step after 2^30 · 2 would be 2^31: undefined in i32, it stops the launch after the last iteration's body
    const { result, text } = run(loop({ type: 'i32', from: b.i32(2 ** 30), to: b.i32(2 ** 31 - 1), step: { op: '*', amount: b.i32(2) } }), {}, 1n);
    expect(result.kind).toBe('undefined');
    if (result.kind === 'undefined') {
      expect(result.message).toBe("the loop's step: overflow: 1073741824 * 2 = 2147483648 is outside i32's range [-2147483648, 2147483647]");
      expect(text(result.span)).toMatch(/^for i: i32 in 1073741824\.\.2147483647 step \* 2 \{/);
    }
  });
});

describe('unknown values (havoc)', () => {
  const k = b.kernel('k', { arrays: [b.shared('A')] }, [
    b.forLoop('j', { from: b.nat(0), to: b.nat(3) }, [b.havoc('h', 'i32', b.unknownValue('a float'), b.write('A', [b.v('h', 'i32')], b.i32(0)))]),
    b.havoc('u', 'u32', b.unknownValue('an atomic'), b.write('A', [b.cast('i32', b.v('u', 'u32'))], b.i32(0))),
  ]);

  it("are a function of the run's seed, the statement, the thread and the count, within the type", () => {
    const once = finished(run(k, {}, 4n, { seed: 7 }).result);
    const again = finished(run(k, {}, 4n, { seed: 7 }).result);
    expect([...again.unknownValues]).toEqual([...once.unknownValues]);
    expect([...once.unknownValues.values()].every((vs) => vs.length === 4)).toBe(true);
    const all = [...once.unknownValues.values()].flat();
    expect(all.every((v) => v >= -(2n ** 31n) && v < 2n ** 32n)).toBe(true);
    for (const vs of once.unknownValues.values()) expect(vs[3]! >= 0n).toBe(true);
    // another seed draws other values somewhere
    const other = finished(run(k, {}, 4n, { seed: 8 }).result);
    expect([...other.unknownValues.values()].flat()).not.toEqual(all);
  });

  it('are what the MAP evaluator is given to replay a run (Theorem 1 on unknown values)', () => {
    const map = b.mapOf(k);
    const r = finished(runKernel(map.source, { params: {}, blockDim: [4n, 1n, 1n] }, { seed: 3 }));
    const withValues = evalMap(map, { params: {}, blockDim: [4n, 1n, 1n], gridDim: [1n, 1n, 1n] }, { unknowns: interpreterUnknowns(r) });
    if (withValues.kind !== 'evaluated') throw new Error(withValues.kind);
    const key = (t: readonly bigint[], idx: readonly bigint[] | null): string => `${t[0]}:${idx?.join(',') ?? '?'}`;
    expect(withValues.blocks[0]!.phases[0]!.accesses.map((a) => key(a.thread, a.index))).toEqual(r.blocks[0]!.phases[0]!.threads.flatMap((t) => t.accesses.map((a) => key(t.thread, a.index))));
    // without them the indices are unknown and the phase depends on data
    const without = evalMap(map, { params: {}, blockDim: [4n, 1n, 1n], gridDim: [1n, 1n, 1n] });
    expect(without.kind === 'evaluated' && without.blocks[0]!.phases[0]!.dependsOnData).toBe(true);
  });
});

describe('the MAP evaluator on machine integers', () => {
  it("stops where the interpreter does: a let's undefined value, kept by a defined step", () => {
    const k = b.kernel('k', { params: [b.param('n', 'i32')], arrays: [b.shared('A')] }, [b.let_('q', b.bin('/', b.i32(1), b.v('n', 'i32')), b.write('A', [tid], b.i32(0)))]);
    const map = b.mapOf(k);
    const launch = { params: { n: 0n }, blockDim: [2n, 1n, 1n] as const, gridDim: [1n, 1n, 1n] as const };
    expect(runKernel(map.source, launch).kind).toBe('undefined');
    const e = evalMap(map, launch);
    expect(e.kind).toBe('undefined');
    if (e.kind === 'undefined') expect(spanText(map.file, e.span)).toBe('1 / n');
    expect(evalMap(map, { ...launch, params: { n: 1n } }).kind).toBe('evaluated');
  });
});
