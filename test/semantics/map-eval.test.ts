import { describe, it, expect } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { inferMap } from '../../src/map/infer.js';
import { evalMap, interpreterReads, type MapEvalResult } from '../../src/semantics/map-eval.js';
import { runKernel } from '../../src/semantics/interpret.js';
import { dim, finished } from './helpers.js';

function mapOf(text: string) {
  const program = parseProgram('test.bcu', text);
  return { kernel: program.kernels[0]!, map: inferMap(program.file, program.kernels[0]!) };
}

/** Block 0's phases as `thread:mode array[index]` lines. */
function phases(r: MapEvalResult): string[][] {
  if (r.kind !== 'evaluated') throw new Error(r.kind);
  return r.blocks[0]!.phases.map((p) => p.accesses.map((a) => `${a.thread[0]}:${a.mode === 'read' ? 'rd' : 'wr'} ${a.array}[${a.index?.join('][') ?? '?'}]`));
}

describe('MAP evaluator (u ↓ Λ)', () => {
  it('Figure 3 with M = 2 and two threads: one phase, both threads read and write A[0] and A[1]', () => {
    const { map } = mapOf('kernel fig3(M) { shared A; for x in 0..M { let y = A[x] in A[x] := y + 1 } }');
    expect(phases(evalMap(map, { params: { M: 2n }, blockDim: dim(2), gridDim: dim(1) }))).toEqual([
      ['0:rd A[0]', '0:wr A[0]', '0:rd A[1]', '0:wr A[1]', '1:rd A[0]', '1:wr A[0]', '1:rd A[1]', '1:wr A[1]'],
    ]);
  });

  it('barriers split phases; pure lets are inlined', () => {
    const { map } = mapOf('kernel k() { shared A; let i = tid + 1 in A[i] := 0; sync; let v = A[tid] in skip }');
    expect(phases(evalMap(map, { params: {}, blockDim: dim(2), gridDim: dim(1) }))).toEqual([['0:wr A[1]', '1:wr A[2]'], ['0:rd A[0]', '1:rd A[1]']]);
  });

  it('an index that needs a value read is unknown and its phase depends on data, unless the values are given', () => {
    const src = 'kernel k() { shared A, B; let y = A[tid] in B[y] := 1 }';
    const { kernel, map } = mapOf(src);
    const launch = { params: {}, blockDim: dim(2), gridDim: dim(1) };
    const blind = evalMap(map, launch);
    expect(phases(blind)).toEqual([['0:rd A[0]', '0:wr B[?]', '1:rd A[1]', '1:wr B[?]']]);
    expect(blind.kind === 'evaluated' && blind.blocks[0]!.phases[0]!.dependsOnData).toBe(true);
    const run = finished(runKernel(kernel, launch, { init: { A: { kind: 'list', values: [5n, 7n] } } }));
    expect(phases(evalMap(map, launch, { reads: interpreterReads(run) }))).toEqual([['0:rd A[0]', '0:wr B[5]', '1:rd A[1]', '1:wr B[7]']]);
  });

  it('a condition that needs data stops that thread, and the phases from there depend on data', () => {
    const { map } = mapOf('kernel k() { shared A; A[tid] := 1; sync; let y = A[0] in if (y > 0) { A[tid] := 2 } }');
    const r = evalMap(map, { params: {}, blockDim: dim(1), gridDim: dim(1) });
    expect(r.kind === 'evaluated' && r.blocks[0]!.phases.map((p) => p.dependsOnData)).toEqual([false, true]);
  });

  it('threads meeting different barriers are misaligned; a failed assumption makes the launch infeasible', () => {
    const { map } = mapOf('kernel k() { shared A; if (tid = 0) { sync } }');
    const r = evalMap(map, { params: {}, blockDim: dim(2), gridDim: dim(1) });
    expect(r.kind === 'evaluated' && r.blocks[0]!.misaligned).toBe(true);
    const { map: assumed } = mapOf('kernel k(N) { shared A; assume N > 0; A[tid] := 0 }');
    expect(evalMap(assumed, { params: { N: 0n }, blockDim: dim(1), gridDim: dim(1) }).kind).toBe('infeasible');
  });
});
