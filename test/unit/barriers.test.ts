import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { inferMap } from '../../src/map/infer.js';
import type { KernelMap } from '../../src/map/map.js';
import { showMap } from '../../src/map/print.js';
import { barrierVerdictOf, mapWithoutSync, protoWithoutSync, withBarrierChecks } from '../../src/verify/barriers.js';
import { verifyKernel, type VerifyOptions } from '../../src/verify/verify.js';
import { positionAt } from '../../src/core/source.js';
import { z3Wasm } from '../../src/solve/z3.js';

function mapOf(text: string): KernelMap {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  return inferMap(program.file, program.kernels[0]!);
}

const OPTIONS: VerifyOptions = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 10_000, maxRaces: 5, solver: z3Wasm };

const LOOP = `kernel k(T) {
  shared s;
  s[tid] := 1;
  sync;
  for i in 0..T {
    if (T > 2) { sync };
    let x = s[(tid + 1) % blockDim.x] in
    sync;
    s[tid] := x
  }
}
`;

describe('protoWithoutSync', () => {
  it('removes exactly the barrier asked for, in loops and branches, and leaves the original alone', () => {
    const map = mapOf(LOOP);
    const before = showMap(map);
    expect(map.syncs.map((s) => s.id)).toEqual([0, 1, 2]);
    for (const sync of map.syncs) {
      const without = mapWithoutSync(map, sync);
      expect(without.syncs.map((s) => s.id)).toEqual(map.syncs.filter((s) => s !== sync).map((s) => s.id));
      expect((showMap(without).match(/sync/g) ?? []).length).toBe((before.match(/sync/g) ?? []).length - 1);
    }
    expect(showMap(map)).toBe(before);
  });

  it('gives back the same protocol for a barrier that is not there', () => {
    const map = mapOf(LOOP);
    expect(showMap({ ...map, body: protoWithoutSync(map.body, 99) })).toBe(showMap(map));
  });
});

describe('withBarrierChecks', () => {
  it('finds the barrier between a thread’s own write and read redundant and the others needed', async () => {
    const map = mapOf(`kernel k() {
  shared s;
  s[tid] := tid;
  sync;
  let a = s[(tid + 1) % blockDim.x] in
  sync;
  s[tid] := a;
  sync;
  let b = s[tid] in
  s[tid] := b + 1
}
`);
    const result = await withBarrierChecks(map, await verifyKernel(map, OPTIONS), OPTIONS);
    const verdicts = (result.barriers ?? []).map((b) => `${positionAt(map.file, b.sync.span.start).line} ${b.verdict}`);
    expect(verdicts).toEqual(['4 needed', '6 needed', '8 redundant']);
    for (const b of result.barriers ?? []) expect(b.without.status).toBe(b.verdict === 'redundant' ? 'drf' : 'racy');
  });

  it('finds a barrier in a block-uniform branch needed when the kernel races without it', async () => {
    const map = mapOf(`kernel k(N) {
  shared s;
  s[tid] := 1;
  sync;
  if (N > 0) {
    let x = s[0] in
    sync;
    s[tid] := x
  }
}
`);
    const result = await withBarrierChecks(map, await verifyKernel(map, OPTIONS), OPTIONS);
    expect(result.status).toBe('drf');
    expect(result.barriers?.map((b) => b.verdict)).toEqual(['needed', 'needed']);
  });

  it('does not judge the barriers of a kernel that is not DRF', async () => {
    const map = mapOf(`kernel k() {
  shared s;
  s[0] := tid;
  sync;
  s[tid] := 1
}
`);
    const result = await withBarrierChecks(map, await verifyKernel(map, OPTIONS), OPTIONS);
    expect(result.status).toBe('racy');
    expect(result.barriers).toBeNull();
  });
});

describe('barrierVerdictOf', () => {
  it('is not-proved, never redundant, when the kernel without the barrier has only possible alarms or no answer', async () => {
    // the race without the barrier depends on data read from memory: possible only
    const map = mapOf(`kernel k() {
  shared s;
  global g;
  let v = g[tid] in
  s[v + tid] := 1;
  sync;
  let w = g[tid] in
  let x = s[w] in
  g[tid] := x
}
`);
    const racy = await verifyKernel(mapWithoutSync(map, map.syncs[0]!), OPTIONS);
    expect(racy.races.every((r) => r.confidence === 'possible')).toBe(true);
    expect(barrierVerdictOf(racy)).toBe('not-proved');
    expect(barrierVerdictOf({ ...racy, status: 'unknown', races: [], unknowns: [{ query: 'q', reason: 'timeout' }] })).toBe('not-proved');
  });
});
