/**
 * The barrier search on its own, with the verifier replaced by a function of
 * the set: which places can order a race, that the first set found is a
 * smallest one, that sets missing a race's places are never verified, and
 * how the search ends when nothing works.
 */
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { layoutOf, type Layout, type Point } from '../../src/fix/layout.js';
import { constraintOf, searchBarriers, type Constraint, type Limits, type Verdict } from '../../src/fix/search.js';
import { searchFailureText } from '../../src/fix/explain.js';
import { positionAt, type Span } from '../../src/core/source.js';
import type { Race } from '../../src/verify/result.js';

const TEXT = `kernel k(T) {
  shared a, b;
  a[tid] := tid;
  let x = a[tid + 1] in
  b[tid] := x;
  for t in 0..T {
    let y = b[tid + 1] in
    b[tid] := y
  }
}
`;

const program = parseProgram('k.bcu', TEXT);
const layout: Layout = layoutOf(program.file, program.kernels[0]!);

function span(text: string, nth = 0): Span {
  let at = -1;
  for (let i = 0; i <= nth; i++) at = TEXT.indexOf(text, at + 1);
  return { start: at, end: at + text.length };
}

function race(first: Span, second: Span, locals: readonly [Record<string, bigint>, Record<string, bigint>] = [{}, {}]): Race {
  const thread = (i: 0 | 1) => ({ threadIdx: [BigInt(i), 0n, 0n], blockIdx: [0n, 0n, 0n], locals: new Map(Object.entries(locals[i])) });
  return {
    array: 'a',
    kind: 'read-write',
    level: 'block',
    phase: 0,
    confidence: 'confirmed',
    doubts: [],
    accesses: [
      { id: 0, mode: 'write', span: first },
      { id: 1, mode: 'read', span: second },
    ],
    index: [1n],
    witness: { parameters: new Map(), blockDim: [2n, 1n, 1n], gridDim: [1n, 1n, 1n], threads: [thread(0), thread(1)] },
  };
}

function constraint(first: Span, second: Span, locals?: readonly [Record<string, bigint>, Record<string, bigint>]): Constraint {
  return constraintOf(race(first, second, locals), [first, second], layout.points);
}

function where(p: Point): string {
  const at = positionAt(layout.file, p.offset);
  return `${at.line}:${at.column}`;
}

const onA = (): Constraint => constraint(span('a[tid]'), span('a[tid + 1]'));
const withinIteration = (): Constraint => constraint(span('b[tid]', 1), span('b[tid + 1]'), [{ t: 0n }, { t: 0n }]);
const acrossIterations = (): Constraint => constraint(span('b[tid]', 1), span('b[tid + 1]'), [{ t: 0n }, { t: 1n }]);

const LIMITS: Limits = { maxBarriers: 3, maxVerifications: 20, maxSets: 100 };

describe('the places of a race', () => {
  it('are the places between its accesses, in source order', () => {
    expect(onA().places.map(where)).toEqual(['4:3']);
    expect(constraint(span('a[tid]'), span('b[tid]')).places.map(where)).toEqual(['4:3', '5:3']);
  });

  it('include the places of a loop around them only when the threads may be at different iterations', () => {
    expect(withinIteration().places.map(where)).toEqual(['8:5']);
    // the end of the body first, then back to its start
    expect(acrossIterations().places.map(where)).toEqual(['8:5', '8:16', '7:5']);
  });
});

describe('the places of a race across the branches of a thread-dependent if', () => {
  it('put a split that runs the then branch first between them, and one that may run the else branch first last', () => {
    const text = `kernel b() {
  shared s;
  if (tid % 2 = 0) {
    s[tid] := 1;
    s[tid + 2] := 2
  } else {
    let x = s[tid - 1] in skip
  }
}
`;
    const p = parseProgram('b.bcu', text);
    const l = layoutOf(p.file, p.kernels[0]!);
    const at = (t: string): Span => ({ start: text.indexOf(t), end: text.indexOf(t) + t.length });
    const c = constraintOf(race(at('s[tid] :='), at('s[tid - 1]')), [at('s[tid] :='), at('s[tid - 1]')], l.points);
    expect(c.places.map((x) => `${x.block.kind} ${x.index}`)).toEqual(['else 0', 'then 0', 'then 1']);
  });
});

describe('searchBarriers', () => {
  it('finds a smallest set and verifies only sets that meet every known race', async () => {
    const asked: string[] = [];
    const a = onA().places[0]!;
    const check = async (set: readonly Point[]): Promise<Verdict> => {
      asked.push([...set].sort((x, y) => x.offset - y.offset).map(where).join(' '));
      const has = (w: string): boolean => set.some((p) => where(p) === w);
      if (!has('4:3')) throw new Error('a set without a place of the race on a was verified');
      // the barrier between the read and the write of b orders that race, but the next iteration's read still races
      if (has('8:16') || (has('8:5') && has('7:5'))) return has('8:5') ? { kind: 'drf' } : { kind: 'racy', races: [withinIteration()] };
      return { kind: 'racy', races: [acrossIterations()] };
    };
    const found = await searchBarriers([onA(), withinIteration()], new Map(), check, LIMITS);
    expect(found.kind).toBe('found');
    if (found.kind !== 'found') return;
    expect([...found.points].sort((x, y) => x.offset - y.offset).map(where)).toEqual(['4:3', '8:5', '8:16']);
    expect(asked).toEqual(['4:3 8:5', '4:3 8:5 8:16']);
    expect(found.fewest).toEqual({ proved: true, verifiedSmaller: 1, places: 4 });
    expect(found.points).toContain(a);
  });

  it('never verifies a set with a place known to fail alone', async () => {
    const asked: string[] = [];
    const check = async (set: readonly Point[]): Promise<Verdict> => {
      asked.push([...set].sort((x, y) => x.offset - y.offset).map(where).join(' '));
      return { kind: 'racy', races: [] };
    };
    const bad = acrossIterations().places[0]!;
    const result = await searchBarriers([acrossIterations()], new Map([[bad.id, { kind: 'invalid', message: 'x' }]]), check, LIMITS);
    expect(result.kind).toBe('exhausted');
    expect(asked).toEqual(['8:16', '7:5']);
  });

  it('stops at the verification limit and says so', async () => {
    const check = async (): Promise<Verdict> => ({ kind: 'racy', races: [acrossIterations()] });
    const limits = { ...LIMITS, maxVerifications: 2 };
    const result = await searchBarriers([acrossIterations()], new Map(), check, limits);
    expect(result.kind).toBe('limit');
    if (result.kind === 'found') return;
    expect(result.tried).toHaveLength(2);
    expect(searchFailureText(result, limits, (s) => `${positionAt(layout.file, s.start).line}`)).toContain('the search stopped after 2 verifications');
  });

  it('explains a race whose every place diverges', async () => {
    const check = async (set: readonly Point[]): Promise<Verdict> => ({ kind: 'divergent', culprit: set[set.length - 1]! });
    const result = await searchBarriers([withinIteration()], new Map(), check, LIMITS);
    expect(result.kind).toBe('exhausted');
    if (result.kind === 'found') return;
    expect(searchFailureText(result, LIMITS, (s) => `L${positionAt(layout.file, s.start).line}`)).toBe(
      'no barrier can order the read-write race on a between the read at L7 and the write at L8: at the one place that could, a barrier there diverges: some threads do not reach it',
    );
  });

  it('says when the races need more barriers than it tries, without verifying anything', async () => {
    const check = async (): Promise<Verdict> => {
      throw new Error('nothing should be verified');
    };
    const limits = { ...LIMITS, maxBarriers: 1 };
    const result = await searchBarriers([onA(), withinIteration()], new Map(), check, limits);
    expect(result.kind).toBe('exhausted');
    if (result.kind === 'found') return;
    expect(searchFailureText(result, limits, () => '?')).toBe('the races need at least 2 barriers (2 of them have no candidate place in common), more than the 1 fix tries');
  });
});
