import { describe, it, expect } from 'vitest';
import { loopValues, type LoopShape } from '../../src/semantics/loops.js';
import { finished, run } from './helpers.js';

/** The values of x one thread visits, read back from its writes `V[0] := x` (one per iteration). */
function visited(header: string, params: Record<string, bigint> = {}): bigint[] {
  const names = Object.keys(params);
  const r = finished(run(`kernel k(${names.join(', ')}) { shared V; ${header} { V[0] := x } }`, { params, block: 1 }));
  return r.blocks[0]!.phases.flatMap((p) => p.threads.flatMap((t) => t.accesses.map((a) => a.value)));
}

const n = (...xs: number[]): bigint[] => xs.map(BigInt);

describe('loop forms visit exactly the values of the spec table', () => {
  it('for x in n..m', () => {
    expect(visited('for x in 2..6')).toEqual(n(2, 3, 4, 5));
    expect(visited('for x in 0..M', { M: 3n })).toEqual(n(0, 1, 2));
  });

  it('step + k', () => {
    expect(visited('for x in 1..10 step + 3')).toEqual(n(1, 4, 7));
    expect(visited('for x in 0..9 step + 3')).toEqual(n(0, 3, 6));
  });

  it('step * k', () => {
    expect(visited('for x in 1..20 step * 2')).toEqual(n(1, 2, 4, 8, 16));
    expect(visited('for x in 3..100 step * 3')).toEqual(n(3, 9, 27, 81));
  });

  it('n downto m', () => {
    expect(visited('for x in 5 downto 2')).toEqual(n(5, 4, 3, 2));
    expect(visited('for x in 3 downto 3')).toEqual(n(3));
  });

  it('downto step - k', () => {
    expect(visited('for x in 10 downto 3 step - 3')).toEqual(n(10, 7, 4));
    expect(visited('for x in 10 downto 1 step - 3')).toEqual(n(10, 7, 4, 1));
  });

  it('downto step / k', () => {
    expect(visited('for x in 16 downto 1 step / 2')).toEqual(n(16, 8, 4, 2, 1));
    expect(visited('for x in 100 downto 5 step / 3')).toEqual(n(100, 33, 11));
  });

  it('zero-trip loops run no iteration', () => {
    expect(visited('for x in 4..4')).toEqual([]);
    expect(visited('for x in 5..2')).toEqual([]);
    expect(visited('for x in 0..M', { M: 0n })).toEqual([]);
    expect(visited('for x in 5..5 step * 2')).toEqual([]);
    expect(visited('for x in 2 downto 3')).toEqual([]);
    expect(visited('for x in 1 downto 2 step / 2')).toEqual([]);
  });

  it('truncated subtraction ends a downto loop that would go below its bound', () => {
    // 4, 1, then 1 - 3 = 0 < 1: stop
    expect(visited('for x in 4 downto 1 step - 3')).toEqual(n(4, 1));
  });

  it('a downto loop to 0 ends: a step below 0 is the end of the loop, not 0 again', () => {
    expect(visited('for x in 3 downto 0')).toEqual(n(3, 2, 1, 0));
    expect(visited('for x in 0 downto 0')).toEqual(n(0));
    expect(visited('for x in 5 downto 0 step - 2')).toEqual(n(5, 3, 1));
    expect(visited('for x in 6 downto 0 step - 3')).toEqual(n(6, 3, 0));
  });

  it('loop variables and bounds may use parameters and builtins', () => {
    expect(visited('for x in N / 2 .. N step + blockDim.x', { N: 6n })).toEqual(n(3, 4, 5));
  });
});

describe('loops that do not terminate are stopped with a clear message', () => {
  const cases: [string, string][] = [
    ['for x in 0..4 step + 0', "'x' stays at 0"],
    ['for x in 1..4 step * 1', "'x' stays at 1"],
    ['for x in 0..4 step * 2', "'x' stays at 0"],
    ['for x in 3 downto 0 step - 0', "'x' stays at 3"],
    ['for x in 8 downto 1 step / 1', "'x' stays at 8"],
    ['for x in 8 downto 0 step / 2', "'x' stays at 0"],
  ];
  for (const [header, stays] of cases) {
    it(header, () => {
      const r = run(`kernel k() { shared V; ${header} { V[0] := x } }`, { block: 2 });
      expect(r.kind).toBe('limit');
      if (r.kind !== 'limit') return;
      expect(r.limit).toBe('loop');
      expect(r.message).toContain('does not terminate');
      expect(r.message).toContain(stays);
      expect(r.at?.thread).toEqual([0n, 0n, 0n]);
    });
  }
});

describe('loopValues', () => {
  const shape = (s: Partial<LoopShape>): LoopShape => ({ direction: 'up', op: '+', amount: 1n, from: 0n, to: 0n, ...s });

  it('lists finite sequences', () => {
    expect(loopValues(shape({ from: 1n, to: 20n, op: '*', amount: 2n }), 100)).toEqual({ kind: 'finite', values: n(1, 2, 4, 8, 16) });
    expect(loopValues(shape({ direction: 'down', op: '/', amount: 2n, from: 9n, to: 2n }), 100)).toEqual({ kind: 'finite', values: n(9, 4, 2) });
  });

  it('recognises fixpoints and long loops', () => {
    expect(loopValues(shape({ direction: 'down', op: '-', amount: 2n, from: 3n, to: 0n }), 100)).toEqual({ kind: 'finite', values: n(3, 1) });
    expect(loopValues(shape({ direction: 'down', op: '-', amount: 0n, from: 3n, to: 0n }), 100)).toEqual({ kind: 'nonterminating', values: n(3) });
    expect(loopValues(shape({ direction: 'down', op: '/', amount: 2n, from: 3n, to: 0n }), 100)).toEqual({ kind: 'nonterminating', values: n(3, 1, 0) });
    expect(loopValues(shape({ to: 1000n }), 5)).toEqual({ kind: 'too-many', values: n(0, 1, 2, 3, 4) });
  });
});
