/**
 * Which of the file's functions a call runs: looked up by name as C++ does
 * (the namespaces the call is written in, innermost first; a qualified name
 * from there; `::f` at file level), then chosen among overloads by the
 * arguments' declared types. Each case here once ran another body than the
 * program's, or none: a qualified call was taken for a function without a
 * body (its barrier and accesses dropped), and the first definition with the
 * right parameter count was inlined whatever the argument types.
 */
import { describe, expect, it } from 'vitest';
import { body, rejection } from './lower-helpers.js';

describe('calls by qualified names', () => {
  it('inline the namespace function the name finds, with its barrier and accesses', async () => {
    const text = `__device__ int g[4];
namespace util {
__device__ void bar() { __syncthreads(); }
__device__ void put(int v) { g[0] = v; }
}
namespace gpu { namespace detail { __device__ unsigned at(unsigned t) { return t + 1; } }
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
  util::bar();
  ::util::put(a[detail::at(threadIdx.x)]);
}
}
`;
    expect(await body(text)).toBe(
      ['a[(u32) threadIdx.x] := 1;', 'sync;', 'let t: u32 = (u32) threadIdx.x in', 'let a_v = a[t + 1] in', 'g[0] := a_v'].join('\n'),
    );
  });

  it('an unqualified or qualified name finds the innermost namespace declaring it', async () => {
    const text = `namespace x { __device__ void store(int *p, int i) { p[i] = 1; } }
namespace y {
__device__ void store(int *p, int i) { p[0] = i; }
namespace z { __device__ void store(int *p, int i) { p[i + 1] = 3; } }
__global__ void k(int *a) {
  store(a, threadIdx.x);
  x::store(a, 5);
  z::store(a, 6);
}
}
`;
    expect(await body(text)).toBe(['let i: i32 = (i32) (u32) threadIdx.x in', 'a[0] := i;', 'a[5] := 1;', 'a[7] := 3'].join('\n'));
  });

  it('a qualified name finding none of the functions of that name is rejected, not taken for one without a body', async () => {
    const text = `namespace a { __device__ void f(int *p) { p[0] = 1; } }
namespace al = a;
__global__ void k(int *p) { al::f(p); }
`;
    expect((await rejection(text)).split('\n')[0]).toBe('error[E0602]: unsupported: a call of al::f: the file defines functions named f, but none that this name finds');
  });
});

describe('overloads', () => {
  it('are chosen by the element type of a pointer argument and the type of a literal or a local', async () => {
    const text = `__device__ void store(int *p, int i) { p[i] = 1; }
__device__ void store(float *p, int i) { p[0] = 2.0f; }
__device__ int halve(int x) { return x / 2; }
__device__ int halve(float x) { return 0; }
__global__ void k(float *f, int *n) {
  unsigned t = threadIdx.x;
  store(f, t);
  store(n, t);
  n[halve(7)] = 0;
  n[halve(7.0f)] = 0;
  int s = t;
  n[halve(s)] = 0;
}
`;
    const lowered = await body(text);
    expect(lowered.split('\n').filter((l) => l.includes(':='))).toEqual(['f[0] := 1073741824;', 'n[i_1] := 1;', 'n[3] := 0;', 'n[0] := 0;', 'n[s / 2] := 0']);
  });

  it('an explicit specialisation runs where its parameter types take the arguments, the primary template elsewhere', async () => {
    const text = `template <typename T> __device__ void put(T *p, int i) { p[i] = 1; }
template <> __device__ void put<float>(float *p, int i) { p[0] = 2; }
__global__ void k(float *f, int *n) {
  put<float>(f, threadIdx.x);
  put(f, threadIdx.x);
  put<int>(n, threadIdx.x);
}
`;
    expect((await body(text)).split('\n').filter((l) => l.includes(':='))).toEqual(['f[0] := 1073741824;', 'f[0] := 1073741824;', 'n[i_2] := 1']);
  });

  it('take an integer literal at the type C gives it, not the one its suffix suggests', async () => {
    // 0xFFFFFFFF is unsigned int, 3000000000 long, 1ul unsigned long, 1ll long long, 0x8000000000000000
    // unsigned long and with ll unsigned long long: each once ran put(int) (a
    // racy kernel proved DRF) or was rejected
    const text = `__device__ void put(int *p, int v) { p[1] = v; }
__device__ void put(int *p, unsigned v) { p[2] = 0; }
__device__ void put(int *p, long v) { p[3] = 0; }
__device__ void put(int *p, unsigned long v) { p[4] = 0; }
__device__ void put(int *p, long long v) { p[5] = 0; }
__device__ void put(int *p, unsigned long long v) { p[6] = 0; }
__global__ void k(int *a) {
  put(a, 0x7FFFFFFF);
  put(a, 0xFFFFFFFF);
  put(a, 3000000000);
  put(a, 1ul);
  put(a, 1LU);
  put(a, 1ll);
  put(a, 0x8000000000000000);
  put(a, 0x8000000000000000ll);
  put(a, 2u);
  put(a, -1);
}
`;
    expect((await body(text)).split('\n').filter((l) => l.includes(':='))).toEqual([
      'a[1] := 2147483647;',
      'a[2] := 0;',
      'a[3] := 0;',
      'a[4] := 0;',
      'a[4] := 0;',
      'a[5] := 0;',
      'a[4] := 0;',
      'a[6] := 0;',
      'a[2] := 0;',
      'a[1] := -1',
    ]);
  });

  it('take a parameter type spelt another way as the same type (`unsigned`, `unsigned int`, `uint32_t`)', async () => {
    const text = `__device__ void put(int *p, unsigned int v) { p[0] = 0; }
__device__ void put(int *p, int v) { p[1] = 0; }
__global__ void k(int *a) {
  unsigned u = threadIdx.x;
  uint32_t w = threadIdx.x;
  put(a, u);
  put(a, w);
}
`;
    expect((await body(text)).split('\n').filter((l) => l.includes(':='))).toEqual(['a[0] := 0;', 'a[0] := 0']);
  });

  it('that faial-ts cannot tell apart are rejected by name', async () => {
    const text = `__device__ void put(int *p, long i) { p[i] = 1; }
__device__ void put(int *p, double i) { p[0] = 1; }
__global__ void k(int *a) { put(a, threadIdx.x * 2); }
`;
    expect((await rejection(text)).split('\n')[0]).toBe('error[E0602]: unsupported: the call of put: several definitions faial-ts can tell apart take these arguments');
  });
});
