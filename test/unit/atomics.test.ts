/**
 * Atomics through every stage: BabyCUDA syntax, names, the MAP's third
 * access kind, the race query (atomic vs atomic never races, atomic vs plain
 * read or write does, across blocks on global arrays), the old value as an
 * unknown, and the interpreter's total order of atomics.
 */
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { inferMap } from '../../src/map/infer.js';
import { showMap } from '../../src/map/print.js';
import { printProgram } from '../../src/core/print.js';
import { spanText } from '../../src/core/source.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { strictRaces, type KernelResult } from '../../src/verify/result.js';
import { kernelJson } from '../../src/report/json.js';
import { DiagnosticError } from '../../src/diagnostics/diagnostic.js';
import { atomicResult } from '../../src/semantics/values.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { finished, history, run } from '../semantics/helpers.js';

async function verify(text: string, grid?: number): Promise<KernelResult> {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  const map = inferMap(program.file, program.kernels[0]!);
  const launch = grid === undefined ? NO_LAUNCH : { ...NO_LAUNCH, gridDim: [BigInt(grid), 1n, 1n] };
  return verifyKernel(map, { launch, timeoutMs: 60_000, maxRaces: 10, solver: z3Wasm });
}

const pairs = (r: KernelResult): string[] =>
  r.races.map((race) => `${race.kind} ${race.level}: ${race.accesses.map((a) => `${a.mode}${a.op ? ` ${a.op}` : ''} ${spanText(r.file, a.span)}`).sort().join(' / ')} (${race.confidence})`).sort();

describe('atomics: syntax', () => {
  it('parses every operation, bound (`let x = atomic …`) or not, with cas taking two operands', () => {
    const program = parseProgram('t.bcu', `kernel k(v) {
  shared A;
  let o = atomic add(A[tid], v + 1) in
  atomic sub(A[0], 1); atomic max(A[0], o); atomic min(A[0], 2); atomic and(A[0], 3);
  atomic or(A[0], 4); atomic xor(A[0], 5); atomic exch(A[0], 6); atomic inc(A[1], 7); atomic dec(A[1], 8);
  let c = atomic cas(A[2], 0, tid) in
  A[3] := c
}`);
    expect(wellFormednessErrors(program)).toEqual([]);
    const printed = printProgram('t.bcu', program.kernels, 'bcu').file.text;
    expect(printed).toContain('let o = atomic add(A[tid], v + 1) in');
    expect(printed).toContain('atomic sub(A[0], 1);');
    expect(printed).toContain('atomic dec(A[1], 8);');
    expect(printed).toContain('let c = atomic cas(A[2], 0, tid) in');
  });

  it('refuses a wrong number of operands and an unknown operation with a syntax error', () => {
    const error = (text: string): string => {
      try {
        parseProgram('t.bcu', `kernel k() { shared A; ${text} }`);
      } catch (e) {
        if (e instanceof DiagnosticError) return e.diagnostics[0]!.message;
      }
      return 'no error';
    };
    expect(error('atomic cas(A[0], 1)')).toMatch(/^syntax error: expected ','/);
    expect(error('atomic add(A[0], 1, 2)')).toMatch(/^syntax error: expected .*'\)'/);
    expect(error('atomic mul(A[0], 2)')).toBe("syntax error: expected 'cas' or add, sub, max, min, and, or, xor, exch, inc, dec, found 'mul'");
    // `atomic` is a keyword
    expect(error('let atomic = 1 in skip')).toMatch(/^syntax error/);
  });

  it('names: the array must be an array, the old value is bound like a read', () => {
    const program = parseProgram('t.bcu', `kernel k(n) {
  shared A;
  atomic add(n[0], 1);
  let o = atomic add(A[0], q) in
  let o = A[1] in skip
}`);
    const messages = wellFormednessErrors(program).map((d) => d.message);
    expect(messages).toEqual([
      "cannot atomically update 'n': it is a parameter, not an array",
      "unknown variable 'q'",
      "'o' is already bound",
    ].map((m) => expect.stringContaining(m.split(':')[0]!)));
  });
});

describe('atomics: MAP', () => {
  it('is a third access kind; its old value is data-dependent, so an index using it is a typing violation', () => {
    const program = parseProgram('t.bcu', `kernel k() {
  shared A, B;
  let o = atomic add(A[tid], 1) in
  B[o] := 1
}`);
    const map = inferMap(program.file, program.kernels[0]!);
    expect(map.accesses.map((a) => [a.mode, a.op])).toEqual([['atomic', 'add'], ['write', undefined]]);
    expect(showMap(map)).toContain('    atomic add A[tid]\n    wr B[o]');
    expect(showMap(map)).toContain('data-dependent: o (the old value of the atomic add on A at 3:22)');
    expect(map.violations.map((v) => `${v.variable} ${v.use}`)).toEqual(['o index']);
  });
});

describe('atomics: races', () => {
  it('two atomics on one element never race, whatever their operations', async () => {
    const r = await verify(`kernel k() {
  shared A;
  atomic add(A[0], 1);
  atomic max(A[0], tid);
  let o = atomic cas(A[0], 0, 1) in skip
}`);
    expect(r.status).toBe('drf');
    expect(r.races).toEqual([]);
  });

  it('an atomic races with a plain read and a plain write of the same element by another thread, confirmed, named in the witness', async () => {
    const r = await verify(`kernel k() {
  shared A;
  atomic add(A[0], 1);
  if (tid = 0) { let x = A[0] in skip };
  if (tid = 1) { A[0] := 5 }
}`);
    expect(r.status).toBe('racy');
    expect(pairs(r)).toEqual([
      'atomic-read block: atomic add A[0] / read A[0] (confirmed)',
      'atomic-write block: atomic add A[0] / write A[0] (confirmed)',
      'read-write block: read A[0] / write A[0] (confirmed)',
    ]);
    const json = kernelJson(r).races.find((race) => race.kind === 'atomic-read')!;
    expect(json.accesses.map((a) => [a.mode, a.operation ?? null]).sort()).toEqual([['atomic', 'add'], ['read', null]]);
  });

  it('a barrier orders an atomic and a plain access', async () => {
    const r = await verify(`kernel k() {
  shared A;
  atomic add(A[0], 1);
  sync;
  if (tid = 0) { let x = A[0] in skip }
}`);
    expect(r.status).toBe('drf');
  });

  it('on a global array, an atomic races with a plain access of another block, never with another block\'s atomic', async () => {
    const plain = await verify(`kernel k() {
  global G;
  if (tid = 0) { atomic add(G[0], 1) };
  sync;
  if (tid = 0) { let x = G[0] in skip }
}`, 2);
    expect(pairs(plain)).toEqual(['atomic-read grid: atomic add G[0] / read G[0] (confirmed)']);
    const atomics = await verify(`kernel k() {
  global G;
  if (tid = 0) { atomic add(G[0], 1) };
  sync;
  if (tid = 0) { atomic sub(G[0], 1) }
}`, 2);
    expect(atomics.status).toBe('drf');
  });

  it('an index computed from an atomic\'s old value gives possible alarms, naming it', async () => {
    const r = await verify(`kernel k() {
  shared A, B;
  let slot = atomic add(A[0], 1) in
  B[slot] := tid
}`);
    expect(r.status).toBe('racy');
    expect(r.races.every((race) => race.confidence === 'possible')).toBe(true);
    expect(kernelJson(r).races[0]!.reason).toContain('depends on slot, unknown: the old value of the atomic add on A at 3:25');
  });
});

describe('atomics: the interpreter', () => {
  it('runs atomics in one total order: each sees the ones before, and they do not race with each other', () => {
    const src = `kernel k() {
  shared A;
  global out;
  let o = atomic add(A[0], 2) in
  out[tid] := o
}`;
    const r = finished(run(src, { block: 3 }));
    expect(history(r)[0]).toEqual({
      0: ['atomic add A[0]=0', 'wr out[0]=0'],
      1: ['atomic add A[0]=2', 'wr out[1]=2'],
      2: ['atomic add A[0]=4', 'wr out[2]=4'],
    });
    expect(r.races).toEqual([]);
    expect(r.memory.find((m) => m.array === 'A')!.cells).toEqual([{ array: 'A', index: [0n], value: 6n }]);
  });

  it('an atomic and a plain read of its element in one phase race; blocks see earlier blocks\' atomics on global arrays', () => {
    const racy = finished(run(`kernel k() { shared A; atomic add(A[0], 1); if (tid = 0) { let x = A[0] in skip } }`, { block: 2 }));
    expect(racy.races.map((x) => [x.first.kind, x.second.kind].sort())).toEqual([['atomic', 'read']]);
    const grid = finished(run(`kernel k() { global G; if (tid = 0) { atomic inc(G[0], 100) } }`, { block: 2, grid: 3 }));
    expect(grid.memory.find((m) => m.array === 'G')!.cells).toEqual([{ array: 'G', index: [0n], value: 3n }]);
    expect(grid.races).toEqual([]);
  });

  it('computes each operation as CUDA does (naturals: subtraction stops at 0; machine types wrap around)', () => {
    const r = (op: Parameters<typeof atomicResult>[0], old: bigint, ...v: bigint[]): bigint => atomicResult(op, undefined, old, v);
    expect([r('add', 5n, 3n), r('sub', 2n, 5n), r('max', 5n, 3n), r('min', 5n, 3n), r('and', 6n, 3n), r('or', 6n, 3n), r('xor', 6n, 3n), r('exch', 6n, 3n)]).toEqual([8n, 0n, 5n, 3n, 2n, 7n, 5n, 3n]);
    expect([r('cas', 4n, 4n, 9n), r('cas', 4n, 5n, 9n)]).toEqual([9n, 4n]);
    expect([r('inc', 3n, 3n), r('inc', 2n, 3n), r('dec', 0n, 7n), r('dec', 9n, 7n), r('dec', 5n, 7n)]).toEqual([0n, 3n, 7n, 7n, 4n]);
    expect(atomicResult('add', 'i32', 2147483647n, [1n])).toBe(-2147483648n);
    expect(atomicResult('sub', 'u32', 0n, [1n])).toBe(4294967295n);
    expect(atomicResult('xor', 'i32', -1n, [1n])).toBe(-2n);
  });
});

describe('benign writes', () => {
  it('a write-write race of the same constant, or of equal known expressions, is benign: status benign', async () => {
    const r = await verify(`kernel k() {
  shared A, B;
  A[0] := 1;
  B[0] := blockDim.x + 1
}`);
    expect(r.status).toBe('benign');
    expect(r.races.map((race) => [race.array, race.kind, race.benign])).toEqual([['A', 'write-write', true], ['B', 'write-write', true]]);
    expect(kernelJson(r).races.every((race) => race.benign === true)).toBe(true);
  });

  it('different values, values that differ only in some races of the pair, and values read are never benign', async () => {
    const differ = await verify(`kernel k() { shared A; A[0] := tid }`);
    expect(differ.status).toBe('racy');
    expect(differ.races[0]!.benign).toBeUndefined();
    // equal for threads 0 and 1 of one half, different across halves: some race of the pair writes two values
    const sometimes = await verify(`kernel k() { shared A; A[0] := tid / 2 }`);
    expect(sometimes.races[0]!.benign).toBeUndefined();
    const read = await verify(`kernel k() { shared A; global I; let v = I[0] in A[0] := v }`);
    expect(read.status).toBe('racy');
    expect(read.races.every((race) => race.benign === undefined)).toBe(true);
    // an atomic's old value is not known either
    const old = await verify(`kernel k() { shared A, C; let o = atomic exch(C[0], 1) in A[0] := o }`);
    expect(old.races.find((race) => race.array === 'A')!.benign).toBeUndefined();
  });

  it('a benign pair does not hide a harmful race on the same element: the kernel is racy', async () => {
    const r = await verify(`kernel k() {
  shared A;
  A[0] := 1;
  if (tid = 1) { let x = A[0] in skip }
}`);
    expect(r.status).toBe('racy');
    expect(r.races.map((race) => `${race.kind} ${race.benign === true}`).sort()).toEqual(['read-write false', 'write-write true']);
  });

  it('--strict-races makes benign races races again', async () => {
    const r = await verify(`kernel k() { shared A; A[0] := 1 }`);
    const strict = strictRaces(r);
    expect([r.status, strict.status]).toEqual(['benign', 'racy']);
    expect(strict.races[0]!.benign).toBeUndefined();
  });
});
