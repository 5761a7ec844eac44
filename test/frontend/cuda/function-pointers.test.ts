/**
 * Calls through device function pointers (issue 28 §4): one known target is
 * inlined, a table indexed by a value calls any of its functions (notice
 * N0621, alarms possible), and a target the file does not fix is rejected.
 */
import { describe, expect, it } from 'vitest';
import { body, lowered, rejection, verified } from './lower-helpers.js';

const FUNCTIONS = 'typedef void (*op_t)(int *, unsigned);\n__device__ void own(int *a, unsigned i) { a[i] = i; }\n__device__ void next(int *a, unsigned i) { a[i + 1] = i; }\n';

/** Each kernel's status, and whether any race is `possible`. */
async function verdicts(text: string): Promise<string[]> {
  const { rejected, results } = await verified(text, 4);
  return [...rejected, ...results.map((r) => (r.status === 'racy' ? `racy ${r.races.every((x) => x.confidence === 'possible') ? 'possible' : 'confirmed'}` : r.status))];
}

const notices = async (text: string): Promise<string[]> => (await lowered(text)).notices.filter((d) => d.code === 'N0621').map((d) => d.message);

describe('a call through a pointer with one known target is inlined', () => {
  it('a local, `&f`, `(*f)(…)`, a const table by a constant index, a device function given a function', async () => {
    const kernels = [
      'op_t f = own; f(a, threadIdx.x);',
      'op_t f = &own; (*f)(a, threadIdx.x);',
      'void (*f)(int *, unsigned) = own; (f)(a, threadIdx.x);',
      'table[0](a, threadIdx.x);',
      'g(a, threadIdx.x);',
      'apply(own, a);',
    ];
    const pre = `${FUNCTIONS}__device__ const op_t table[] = {own, next};\n__device__ void (*const g)(int *, unsigned) = own;\n__device__ void apply(op_t h, int *a) { h(a, threadIdx.x); }\n`;
    for (const k of kernels) {
      const text = `${pre}__global__ void k(int *a) { ${k} }\n`;
      expect(await body(text), k).toMatch(/^let i(_\d+)?: u32 = \(u32\) threadIdx\.x in\n(.*\n)?a\[i(_\d+)?\] := \(i32\) i(_\d+)?$/m);
      expect(await notices(text), k).toEqual([]);
      expect(await verdicts(text), k).toEqual(['drf']);
    }
    // the racy twin: the pointer holds `next`, which writes the neighbour's element
    expect(await verdicts(`${pre}__global__ void k(int *a) { a[threadIdx.x] = 2; op_t f = next; f(a, threadIdx.x); }\n`)).toEqual(['racy confirmed']);
    expect(await verdicts(`${pre}__global__ void k(int *a) { a[threadIdx.x] = 2; table[1](a, threadIdx.x); }\n`)).toEqual(['racy confirmed']);
  });

  it('a non-const __device__ pointer may hold any function of the file\'s tables (the host may change it): a call of any, with a notice', async () => {
    const text = `${FUNCTIONS}__device__ op_t g = own;\n__global__ void k(int *a) { g(a, threadIdx.x); }\n`;
    expect(await notices(text)).toEqual(["g is not const: the host may store in it any function of the file's tables (cudaMemcpyToSymbol), so the call through g is modelled as a call of any of own; declare it const to make this exact"]);
    expect(await verdicts(text)).toEqual(['drf']);
    // another table offers next, which g may then hold: never assumed to hold its initialiser
    const other = text.replace('__global__', '__device__ op_t ops[] = {own, next};\n__global__');
    expect(await verdicts(other)).toEqual(['racy possible']);
  });
});

describe('a table indexed by a value calls any of its functions', () => {
  it('is an over-approximation: a notice, and the races it decides are possible', async () => {
    const text = `${FUNCTIONS}__device__ const op_t ops[] = {own, next};\n__global__ void k(int *a, unsigned *code) { ops[code[threadIdx.x]](a, threadIdx.x); }\n`;
    expect(await notices(text)).toEqual(['the call through ops[code[threadIdx.x]] is modelled as a call of any of own, next, whatever the index: alarms it decides are possible']);
    expect(await body(text)).toMatch(/let code_v = code\[\(u32\) threadIdx\.x\] in\nhavoc callee: i32 .*\nif \(callee == 0\) \{\n(.*\n)?  a\[i(_\d+)?\] := \(i32\) i(_\d+)?\n\} else \{\n(.*\n)?  a\[i(_\d+)? \+ 1\] := \(i32\) i(_\d+)?\n\}/);
    expect(await verdicts(text)).toEqual(['racy possible']);
    // both functions touch only the thread's own element: either way race-free
    expect(await verdicts(`${FUNCTIONS}__device__ const op_t ops[] = {own, own};\n__global__ void k(int *a, unsigned *code) { ops[code[threadIdx.x]](a, threadIdx.x); }\n`)).toEqual(['drf']);
  });
});

describe('a target the file does not fix is rejected by name, at the call', () => {
  it.each([
    ['a kernel parameter', '__global__ void k(int *a, op_t f) { f(a, threadIdx.x); }', 'a call through f, a function pointer whose target faial-ts does not know'],
    ['a local set in a branch', '__global__ void k(int *a) { op_t f = own; if (threadIdx.x > 1) f = next; f(a, threadIdx.x); }', 'a call through f, a function pointer whose target faial-ts does not know'],
    ['a conditional', '__global__ void k(int *a) { (threadIdx.x ? own : next)(a, threadIdx.x); }', 'a call through (threadIdx.x ? own : next), a function pointer whose target faial-ts does not know'],
    ['a table without initialiser', '__device__ op_t t[2]; __global__ void k(int *a) { t[0](a, threadIdx.x); }', 'a call through t[0], a function pointer whose target faial-ts does not know'],
  ])('%s', async (_what, kernel, message) => {
    const r = await rejection(`${FUNCTIONS}${kernel}\n`);
    expect(r.split('\n')[0]).toBe(`error[E0602]: unsupported: ${message}`);
    expect(r.split('\n')[1]).toMatch(/^ --> k\.cu:4:\d+$/);
  });

  it('a write to a table of functions is rejected: the calls through it read its initialiser', async () => {
    const r = await rejection(`${FUNCTIONS}__device__ op_t ops[] = {own, next};\n__global__ void k(int *a) { ops[0] = next; ops[0](a, threadIdx.x); }\n`);
    expect(r.split('\n')[0]).toMatch(/^error\[E060\d\]: ops is read-only/);
  });
});
