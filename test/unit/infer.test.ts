import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { inferMap, isWellTyped } from '../../src/map/infer.js';
import { showMap, showAccess } from '../../src/map/print.js';
import { showBExpr, showExpr } from '../../src/core/exprs.js';
import { positionAt, spanText } from '../../src/core/source.js';
import type { KernelMap, Proto } from '../../src/map/map.js';

function mapOf(text: string): KernelMap {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  return inferMap(program.file, program.kernels[0]!);
}

/** The protocol lines of showMap, without indentation of the header. */
function protocol(m: KernelMap): string[] {
  const lines = showMap(m).split('\n');
  return lines.slice(lines.indexOf('  protocol:') + 1).map((l) => l.slice(4));
}

const FIG3 = `kernel fig3(M) {
  shared A;
  for x in 0..M {
    let y = A[x] in
    A[x] := y + 1
  }
}`;

describe('MAP inference', () => {
  it('gives figure 3 its MAP: for x ∈ [0, M) { rd A[x]; wr A[x] }', () => {
    const m = mapOf(FIG3);
    expect(protocol(m)).toEqual(['for x ∈ [0, M) {', '  rd A[x]', '  wr A[x]', '}']);
    expect(m.name).toBe('fig3');
    expect(m.params).toEqual(['M']);
    expect(m.arrays).toEqual([expect.objectContaining({ name: 'A', scope: 'shared', dims: 1 })]);
    expect(m.accesses.map(showAccess)).toEqual(['rd A[x]', 'wr A[x]']);
    expect(m.accesses.map((a) => a.id)).toEqual([0, 1]);
    expect(m.accesses.map((a) => a.local)).toEqual(['y', null]);
    expect(m.accesses.map((a) => spanText(m.file, a.span))).toEqual(['A[x]', 'A[x]']);
    // y is read but never used in an index or condition: well-typed
    expect(m.violations).toEqual([]);
    expect(isWellTyped(m)).toBe(true);
    expect(m.vars.get('M')).toEqual({ kind: 'param' });
    expect(m.vars.get('x')).toEqual({ kind: 'loop', source: 'x' });
    expect(m.vars.get('y')).toMatchObject({ kind: 'data', origin: { array: 'A' } });
    expect(showMap(m)).toContain('data-dependent: y (read from A at 4:13)');
    expect(m.syncs).toEqual([]);
  });

  it('prints every loop form with its exact range', () => {
    const m = mapOf(`kernel k(N) { shared A;
      for a in 0..N { A[a] := 0 };
      for b in 1..N step + 2 { A[b] := 0 };
      for c in 1..N step * 2 { A[c] := 0 };
      for d in N downto 0 { A[d] := 0 };
      for e in N downto 0 step - 3 { A[e] := 0 };
      for f in N downto 1 step / 2 { A[f] := 0 }
    }`);
    expect(protocol(m).filter((l) => l.startsWith('for'))).toEqual([
      'for a ∈ [0, N) {',
      'for b ∈ [1, N) step + 2 {',
      'for c ∈ [1, N) step * 2 {',
      'for d ∈ [N downto 0] {',
      'for e ∈ [N downto 0] step - 3 {',
      'for f ∈ [N downto 1] step / 2 {',
    ]);
  });

  it('inlines pure lets into indices and conditions, and keeps them for witnesses', () => {
    const m = mapOf('kernel k(N) { shared A; let a = tid * 2 in let b = a + N in if (b < 10) { A[b] := a } }');
    expect(protocol(m)).toEqual(['if tid * 2 + N < 10 {', '  wr A[tid * 2 + N]', '}']);
    const [w] = m.accesses;
    expect(w!.locals.map((l) => `${l.name} = ${showExpr(l.value)}`)).toEqual(['a = tid * 2', 'b = tid * 2 + N']);
    expect(m.violations).toEqual([]);
  });

  it('keeps the structure: if/else, sync, assume, skip dropped', () => {
    const m = mapOf('kernel k(N) { shared A; skip; if (N > 1) { A[0] := 1 } else { sync }; assume tid < N; sync }');
    expect(protocol(m)).toEqual(['if N > 1 {', '  wr A[0]', '} else {', '  sync', '}', 'assume tid < N', 'sync']);
    expect(m.syncs.map((s) => s.id)).toEqual([0, 1]);
    expect(m.syncs.map((s) => spanText(m.file, s.span))).toEqual(['sync', 'sync']);
  });

  it('counts dimensions from the declaration or from the first use', () => {
    const m = mapOf('kernel k(N) { shared A[N][N], B; global C; B[0][1][2] := 0; A[0][0] := 1; C[tid] := 2 }');
    expect(m.arrays.map((a) => [a.name, a.scope, a.dims])).toEqual([
      ['A', 'shared', 2],
      ['B', 'shared', 3],
      ['C', 'global', 1],
    ]);
  });
});

describe('data-dependent variables', () => {
  const TEXT = `kernel k(N) {
  shared A;
  let v = A[tid] in
  let w = v + 1 in
  if (w < 2) { A[w] := 1 };
  for i in 0..v { skip };
  for j in 0..N step + w { skip };
  assume v > 0
}`;

  it('records the read it comes from', () => {
    const m = mapOf(TEXT);
    const info = m.vars.get('v');
    expect(info?.kind).toBe('data');
    if (info?.kind !== 'data') throw new Error();
    expect(info.origin.array).toBe('A');
    expect(spanText(m.file, info.origin.span)).toBe('A[tid]');
    expect(positionAt(m.file, info.origin.span.start)).toEqual({ line: 3, column: 11 });
    expect(showMap(m)).toContain('data-dependent: v (read from A at 3:11)');
  });

  it('records a violation for each use in an index, condition, loop bound, loop step and assumption', () => {
    const m = mapOf(TEXT);
    expect(isWellTyped(m)).toBe(false);
    expect(m.violations.map((v) => [v.variable, v.use, 'array' in v.origin ? v.origin.array : v.origin.what])).toEqual([
      ['v', 'condition', 'A'],
      ['v', 'index', 'A'],
      ['v', 'loop bound', 'A'],
      ['v', 'loop step', 'A'],
      ['v', 'assumption', 'A'],
    ]);
    expect(m.violations.map((v) => spanText(m.file, v.span))).toEqual(['w < 2', 'w', 'v', 'w', 'v > 0']);
  });

  it('keeps the variable in the protocol, with pure lets over it inlined', () => {
    expect(protocol(mapOf(TEXT))).toContain('  wr A[v + 1]');
  });

  it('does not count a value read and only written back as a violation', () => {
    const m = mapOf('kernel k() { shared A, B; let v = A[tid] in B[tid] := v + 1 }');
    expect(m.violations).toEqual([]);
    expect(isWellTyped(m)).toBe(true);
  });

  it('records a violation for a read index that depends on an earlier read', () => {
    const m = mapOf('kernel k() { shared A, B; let v = A[tid] in let u = B[v] in skip }');
    expect(m.violations.map((v) => [v.variable, v.use])).toEqual([['v', 'index']]);
  });
});

describe('well-typed kernels', () => {
  it('have no violations', () => {
    for (const text of [
      FIG3,
      'kernel k(N) { shared A; for i in 0..N { if (i = tid) { A[i] := 1 }; sync } }',
      'kernel k(N) { shared A; let x = tid + N in for i in x downto 1 step / 2 { let y = A[i] in A[x] := y } }',
      'kernel fig4() { shared A; if (tid = 0) { A[0] := tid } else { skip } }',
    ]) {
      expect(mapOf(text).violations, text).toEqual([]);
    }
  });
});

describe('dimensions and preconditions', () => {
  it('makes only blockDim.x symbolic by default', () => {
    expect([...mapOf(FIG3).symbolicDims]).toEqual(['blockDim.x']);
  });

  it('makes a dimension symbolic when its index or the dimension itself is mentioned', () => {
    const m = mapOf('kernel k() { shared A; A[threadIdx.y] := 1 }');
    expect([...m.symbolicDims].sort()).toEqual(['blockDim.x', 'blockDim.y']);
    const g = mapOf('kernel k() { global A; A[blockIdx.z] := gridDim.y }');
    expect([...g.symbolicDims].sort()).toEqual(['blockDim.x', 'gridDim.y', 'gridDim.z']);
    const r = mapOf('kernel k(N) requires blockDim.z = N { shared A; skip }');
    expect(r.symbolicDims.has('blockDim.z')).toBe(true);
    expect(r.symbolicDims.has('blockDim.y')).toBe(false);
  });

  it('turns the launch clause into equalities on every dimension', () => {
    const m = mapOf('kernel k(N) <<<(2, N), 32>>> requires N > 1 { shared A; A[tid] := 1 }');
    expect(m.preconditions.map((c) => showBExpr(c))).toEqual([
      'N > 1',
      'gridDim.x == 2',
      'gridDim.y == N',
      'gridDim.z == 1',
      'blockDim.x == 32',
      'blockDim.y == 1',
      'blockDim.z == 1',
    ]);
    for (const d of ['blockDim.x', 'blockDim.y', 'blockDim.z', 'gridDim.x', 'gridDim.y', 'gridDim.z'] as const) {
      expect(m.symbolicDims.has(d)).toBe(true);
    }
  });

  it('keeps requires clauses as preconditions without a launch clause', () => {
    const m = mapOf('kernel k(N, M) requires N > 1 requires M < N { shared A; skip }');
    expect(m.preconditions.map((c) => showBExpr(c))).toEqual(['N > 1', 'M < N']);
  });
});

describe('assumptions', () => {
  const assumes = (p: Proto): string[] => {
    switch (p.kind) {
      case 'assume':
        return [showBExpr(p.cond)];
      case 'seq':
        return p.items.flatMap(assumes);
      case 'if':
        return [...assumes(p.then), ...assumes(p.else)];
      case 'loop':
        return assumes(p.body);
      default:
        return [];
    }
  };

  it('keeps every assume in the protocol where it is, with pure lets inlined', () => {
    const m = mapOf('kernel k(N) { shared A; assume N > 2; let a = tid + 1 in assume a < N; if (tid < 2) { assume N > 3 }; for i in 0..N { assume i < 5 } }');
    expect(assumes(m.body)).toEqual(['N > 2', 'tid + 1 < N', 'N > 3', 'i < 5']);
  });

  it('keeps a single top-level assume', () => {
    expect(mapOf('kernel k(N) { assume N = 4 }').body).toMatchObject({ kind: 'assume' });
  });
});
