/**
 * The CUDA front end, construct by construct: a C snippet and the core
 * program it lowers to (as `faial-ts lower` prints it, without the line
 * comments). Each expectation was read against docs/cuda.md.
 */
import { describe, expect, it } from 'vitest';
import { body, core, lowered, rejection, verified } from './lower-helpers.js';
import { renderedDiagnostic } from '../../../src/diagnostics/render.js';
import { showBExpr } from '../../../src/core/exprs.js';

describe('CUDA lowering, per construct', () => {
  it('mutable local in branches', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  int i = threadIdx.x;
  if (n > 4) i = i + 1; else i = i * 2;
  A[i] = 0;
}`;
    expect(await body(cu)).toBe(`
let i: i32 = (i32) (u32) threadIdx.x in
if (n > 4) {
  let i_1: i32 = i + 1 in
  skip
} else {
  let i_2: i32 = i * 2 in
  skip
};
let i_3: i32 = n > 4 ? i + 1 : i * 2 in
A[i_3] := 0`.slice(1));
  });

  it('a condition that may be undefined stays evaluated where folding or empty branches would drop it (found by the round-trip property)', async () => {
    const cu = `
__device__ int f();
__global__ void k(int *A, int n) {
  int h = f();
  if (h + 1 == n || true) A[0] = 1;
  if (h * 2 < n && false) A[1] = 1;
  int x = 0;
  if (n + 1 > h) x = 1;
  if (threadIdx.x == 0 || true) A[2] = x;
}`;
    // C evaluates h + 1 before || decides; n + 1 > h before either branch: a thread that overflows is outside the scope
    expect(await body(cu)).toBe(`
havoc h: i32 /* the result of f, a function without a body in this file */ in
if (h + 1 == n || true) {
  A[0] := 1
};
if (h * 2 < n && false) {
  A[1] := 1
};
if (n + 1 > h) {
  skip
};
let x: i32 = n + 1 > h ? 1 : 0 in
A[2] := x`.slice(1));
  });

  it('an unused local whose value may be undefined stays evaluated in its branch (found by the round-trip property)', async () => {
    const cu = `
__global__ void k(int *A) {
  if ((int) threadIdx.x == 0) { int u = (int) threadIdx.x / 0; }
  A[0] = 0;
}`;
    // C evaluates the division even though u is never used: thread 0's launch is outside the scope
    expect(await body(cu)).toBe(`
if ((i32) (u32) threadIdx.x == 0) {
  let u: i32 = (i32) (u32) threadIdx.x / 0 in
  skip
};
A[0] := 0`.slice(1));
  });

  it('atomics: each CUDA function and scope form, the old value bound in the element\'s type', async () => {
    const cu = `
__global__ void k(int *A, unsigned *U, unsigned long long *L, float *F, int v) {
  int a = atomicAdd(&A[threadIdx.x], v);
  atomicSub_block(&A[0], 1);
  atomicMax_system(&A[1], a);
  atomicMin(&A[2], 3);
  atomicAnd(&U[0], 6u);
  atomicOr(&U[0], 1);
  atomicXor(&L[0], 5ull);
  atomicExch(&A[3], 4);
  int c = atomicCAS(&A[4], 0, threadIdx.x);
  atomicInc(&U[1], 15u);
  atomicDec(&U[2], 7u);
  atomicAdd(&F[0], 1.5f);
  A[5] = c;
}`;
    expect(await body(cu)).toBe(`
let A_old = atomic add.i32(A[(u32) threadIdx.x], v) in
let A_old_1 = atomic sub.i32(A[0], 1) in
let A_old_2 = atomic max.i32(A[1], A_old) in
let A_old_3 = atomic min.i32(A[2], 3) in
let U_old = atomic and.u32(U[0], 6) in
let U_old_1 = atomic or.u32(U[0], 1) in
let L_old = atomic xor.u64(L[0], 5) in
let A_old_4 = atomic exch.i32(A[3], 4) in
let A_old_5 = atomic cas.i32(A[4], 0, (i32) (u32) threadIdx.x) in
let U_old_2 = atomic inc.u32(U[1], 15) in
let U_old_3 = atomic dec.u32(U[2], 7) in
havoc v_1: nat /* a float value */ in
let F_old = atomic add(F[0], v_1) in
A[5] := A_old_5`.slice(1));
  });

  it('atomics: misuse is an error at the call', async () => {
    expect((await rejection('__global__ void k(int *A) { atomicAdd(&A[0]); }')).split('\n')[0]).toMatch(/atomicAdd takes 2 arguments/);
    expect((await rejection('__global__ void k(int *A) { atomicCAS(&A[0], 1); }')).split('\n')[0]).toMatch(/atomicCAS takes 3 arguments/);
  });

  it('loop up', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int i = 0; i < n; i++) A[i] = 1;
}`;
    expect(await body(cu)).toBe(`
for i: i32 in 0..n {
  A[i] := 1
}`.slice(1));
  });

  it('loop down inclusive', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int i = n; i >= 0; i -= 2) A[i] = 1;
}`;
    expect(await body(cu)).toBe(`
for i: i32 in n downto 0 step - 2 {
  A[i] := 1
}`.slice(1));
  });

  it('unsigned loop down: exact only where subtracting the step cannot wrap around below the bound', async () => {
    const cu = `
__global__ void k(int *A, unsigned n, unsigned m) {
  for (unsigned j = n; j >= m; j -= 2) A[j] = 1;
  for (unsigned s = n; s > 0; s--) A[s] = 2;
}`;
    const lines = (await body(cu)).split('\n');
    expect(lines.slice(0, 4)).toEqual(['if (m >= 2) {', '  for j: u32 in n downto m step - 2 {', '    A[j] := 1', '  }']);
    expect(lines[5]).toMatch(/^  havoc iterations: u32 \/\* approximated: .*its unsigned variable j may wrap around below the step/);
    // s > 0 stops at 1, which the step 1 cannot pass
    expect(lines.slice(-3)).toEqual(['for s: u32 in n downto 1 {', '  A[s] := 2', '}']);
    // i >= 0 never fails for an unsigned i: the loop never ends, and is approximated
    expect(await body('__global__ void k(int *A, unsigned n) { for (unsigned i = n; i >= 0; i--) A[i] = 1; }')).toMatch(/^havoc iterations: u32 \/\* approximated/);
  });

  it('unsigned loop doubling: exact only where multiplying by the step cannot wrap around past the maximum', async () => {
    // i *= 2, i <<= 1 and i = i * 2 are one loop; past n = 2^31 the counter reaches 2^31, then wraps to 0 and C's loop never ends
    for (const step of ['i *= 2', 'i <<= 1', 'i = i * 2', 'i = 2 * i']) {
      const lines = (await body(`__global__ void k(int *A, unsigned n) { for (unsigned i = 1; i < n; ${step}) A[i] = 1; }`)).split('\n');
      expect(lines.slice(0, 4), step).toEqual(['if (n <= 2147483648) {', '  for i: u32 in 1..n step * 2 {', '    A[i] := 1', '  }']);
      expect(lines[5], step).toMatch(/^  havoc iterations: u32 \/\* approximated: .*its unsigned variable i may wrap around above the type's maximum when multiplied by the step/);
    }
    // <=: n + 1 ≤ 2^32 / 4 keeps every value below n + 1 in range times 4
    expect((await body('__global__ void k(int *A, unsigned n) { for (unsigned i = 1; i <= n; i *= 4) A[i] = 1; }')).split('\n')[0]).toBe('if (n < 4294967295 && n + 1 <= 1073741824) {');
    // a constant bound that keeps the product in range is exact outright
    expect(await body('__global__ void k(int *A) { for (unsigned i = 1; i < 1024; i <<= 1) A[i] = 1; }')).toBe('for i: u32 in 1..1024 step * 2 {\n  A[i] := 1\n}');
    // nor is a bound that CUDA's launch limits keep below it (blockDim.x ≤ 1024, a precondition of every kernel)
    expect(await body('__global__ void k(int *A) { for (unsigned s = 1; s < blockDim.x; s *= 2) A[s] = 1; }')).toBe('for s: u32 in 1..(u32) blockDim.x step * 2 {\n  A[s] := 1\n}');
    // a step that is no constant bounds nothing: approximated
    expect(await body('__global__ void k(int *A, unsigned n, unsigned c) { for (unsigned i = 1; i < n; i *= c) A[i] = 1; }')).toMatch(/^havoc iterations: u32 \/\* approximated: .*may wrap around above the type's maximum/);
  });

  it('an unsigned counter that wraps to 0 when doubled is a race C has, not a launch left out of the scope', async () => {
    // n > 2^31: i reaches 2^31, then 0, and both threads write A[0] (DRF, silently, when the wrap was out of the scope)
    const cu = (requires: string): string =>
      `__global__ void k(int *A, unsigned n) {\n  ${requires}\n  for (unsigned i = 1; i < n; i *= 2) {\n    if (i != 0) A[blockDim.x + threadIdx.x] = 1;\n    else A[0] = threadIdx.x;\n  }\n}\n`;
    const [racy] = (await verified(cu(''), 4)).results;
    expect(racy?.status).toBe('racy');
    expect(racy?.races.map((r) => [r.index, r.confidence])).toEqual([[[0n], 'possible']]);
    const [bounded] = (await verified(cu('__requires(n <= 2147483648);'), 4)).results;
    expect(bounded?.status).toBe('drf');
  });

  it('loop halving', async () => {
    const cu = `
__global__ void k(int *A) {
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) { A[s] = 1; __syncthreads(); }
}`;
    expect(await body(cu)).toBe(`
let s: u32 = (u32) blockDim.x / 2 in
for s_1: u32 in s downto 1 step / 2 {
  A[s_1] := 1;
  sync
}`.slice(1));
  });

  it('loop doubling <=', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int s = 1; s <= n; s *= 2) A[s] = 1;
}`;
    expect(await body(cu)).toBe(`
for s: i32 in 1..n + 1 step * 2 {
  A[s] := 1
}`.slice(1));
  });

  it('loop !=', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int i = 0; i != n; i++) A[i] = 1;
}`;
    expect(await body(cu)).toBe(`
if (0 <= n) {
  for i: i32 in 0..n {
    A[i] := 1
  }
} else {
  havoc iterations: u32 /* approximated: the number of iterations of the loop at line 3: its variable i may never equal the bound of != */ in
  for iteration: u32 in 0..iterations {
    havoc i_1: i32 /* approximated: i in the loop at line 3: its variable i may never equal the bound of != */ in
    if (i_1 != n) {
      A[i_1] := 1;
      let i_2: i32 = i_1 + 1 in
      skip
    };
    let i_3: i32 = i_1 != n ? i_1 + 1 : i_1 in
    skip
  }
}`.slice(1));
  });

  it('loop mixed types', async () => {
    const cu = `
__global__ void k(int *A, unsigned n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) A[i] = 1;
}`;
    expect(await body(cu)).toBe(`
let i: i32 = (i32) (u32) threadIdx.x in
for i_1: u32 in (u32) i..n step + (u32) blockDim.x {
  assume i_1 <= 2147483647;
  A[(i32) i_1] := 1
}`.slice(1));
  });

  it('induction', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  int off = threadIdx.x;
  for (int i = 0; i < n; i++) { A[off] = 0; off += 32; }
}`;
    expect(await body(cu)).toBe(`
let off: i32 = (i32) (u32) threadIdx.x in
for i: i32 in 0..n {
  A[off + i * 32] := 0;
  let off_1: i32 = off + i * 32 + 32 in
  skip
};
havoc off_2: i32 /* approximated: off after the loop at line 4: faial-ts does not compute the values a loop leaves behind */ in
skip`.slice(1));
  });

  it('a toggled local (`p = 1 - p`, `p ^= 1`) is its start at even iterations, toggled at odd ones', async () => {
    const cu = `
__global__ void k(int *a, int n) {
  int p = 0; unsigned q = 3; int r = 5;
  for (int i = 0; i < n; i++) { a[p] = 0; a[q] = 1; p ^= 1; q = 7u - q; }
  for (int o = 1; o < n; o *= 2) { a[r] = o; r = 9 - r; }
}`;
    const lines = (await body(cu)).split('\n');
    expect(lines.filter((l) => l.includes(':='))).toEqual([
      '  a[i % 2 == 0 ? 0 : 1] := 0;',
      '  a[i % 2 == 0 ? 3 : 4] := 1;',
      // o = 2^k: k is even where o has a bit at an even position
      '  a[o & 1431655765 != 0 ? 5 : 4] := o;',
    ]);
    // dividing down from a power of two: 256 = 2^8, so k is even at bits 8, 6, 4, 2, 0
    const down = '__global__ void k(int *a) { int r = 5; for (int d = 256; d > 0; d >>= 1) { a[r] = d; r = 9 - r; } }';
    expect(await body(down)).toContain('a[d & 341 != 0 ? 5 : 4] := d;');
    // toggled only on some paths, or by a step not a constant power of two: unknown at the head, as before
    for (const loop of ['for (int o = 1; o < n; o *= 2) { a[r] = o; if (o > 4) r = 9 - r; }', 'for (int o = 1; o < n; o *= 3) { a[r] = o; r = 9 - r; }', 'for (int o = 1; o < n; o *= 2) { a[r] = o; r = 9 - r; if (o > 4) r = 1; }'])
      expect(await body(`__global__ void k(int *a, int n) { int r = 5; ${loop} }`)).toMatch(/havoc r_?\d*: i32 \/\* approximated: r in the loop/);
  });

  it('a local the body declares again is not the outer one: its step is no induction of the outer local', async () => {
    // `a[threadIdx.x + i - j]` once read the outer j (always 0) as i, the inner j's `j++` taken for its step
    const cu = `
__global__ void k(int *a) {
  int j = 0;
  for (int i = 0; i < 2; i++) { a[threadIdx.x + i - j] = i; int j = 0; j++; a[64 + j] = 0; }
}`;
    expect(await body(cu)).not.toContain('(u32) i - (u32) i');
  });

  it('a comma update: the loop variable\'s step, the others run after the body (the tiled matrix product\'s `a += aStep, b += bStep`)', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int a = 0, b = threadIdx.x; a < n; a += 4, b += 32) { A[b] = a; }
}`;
    expect(await body(cu)).toBe(`
let b: i32 = (i32) (u32) threadIdx.x in
for a: i32 in 0..n step + 4 {
  A[b + a / 4 * 32] := a;
  let b_1: i32 = b + a / 4 * 32 + 32 in
  skip
}`.slice(1));
    // a step that reads the loop variable would see it before C's update did: approximated
    const dependent = '__global__ void k(int *A, int n) { for (int a = 0, b = 0; a < n; a++, b = a * 2) { A[b] = a; } }';
    expect(await body(dependent)).toMatch(/approximated: the number of iterations/);
    const skipped = '__global__ void k(int *A, int n) { for (int a = 0, b = 0; a < n; a++, b += 2) { if (a == 3) continue; A[b] = a; } }';
    expect(await body(skipped)).toMatch(/approximated: the number of iterations/);
  });

  it('approximated loop', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  int i = threadIdx.x;
  while (A[i] > 0) { i = i * 3 + 1; }
  A[i] = 0;
}`;
    expect(await body(cu)).toBe(`
let i: i32 = (i32) (u32) threadIdx.x in
havoc iterations: u32 /* approximated: the number of iterations of the loop at line 4: its shape is not one faial-ts makes exact */ in
for iteration: u32 in 0..iterations {
  havoc i_1: i32 /* approximated: i in the loop at line 4: its shape is not one faial-ts makes exact */ in
  let A_v = A[i_1] in
  if (A_v > 0) {
    let i_2: i32 = i_1 * 3 + 1 in
    skip
  };
  let i_3: i32 = A_v > 0 ? i_1 * 3 + 1 : i_1 in
  skip
};
havoc i_4: i32 /* approximated: i after the loop at line 4: faial-ts does not compute the values a loop leaves behind */ in
A[i_4] := 0`.slice(1));
  });

  it('early return before barrier', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  if (threadIdx.x >= n) return;
  A[threadIdx.x] = 1;
  __syncthreads();
}`;
    expect(await body(cu)).toBe(`
if (!((u32) threadIdx.x >= (u32) n)) {
  A[(u32) threadIdx.x] := 1;
  sync
}`.slice(1));
  });

  it('break', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int i = 0; i < n; i++) { if (i == threadIdx.x) break; A[i] = 0; }
}`;
    expect(await body(cu)).toBe(`
for i: i32 in 0..n {
  havoc broke: i32 /* approximated: whether an earlier iteration left the loop at line 3 by break: faial-ts does not follow which iteration breaks */ in
  if (!(broke != 0)) {
    if (!((u32) i == (u32) threadIdx.x)) {
      A[i] := 0
    }
  }
}`.slice(1));
  });

  it('continue', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  for (int i = 0; i < n; i++) { if (i == threadIdx.x) continue; A[i] = 0; }
}`;
    expect(await body(cu)).toBe(`
for i: i32 in 0..n {
  if (!((u32) i == (u32) threadIdx.x)) {
    A[i] := 0
  }
}`.slice(1));
  });

  it('ternary pure', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  A[threadIdx.x < n ? threadIdx.x : 0] = 1;
}`;
    expect(await body(cu)).toBe(`
A[(u32) threadIdx.x < (u32) n ? (u32) threadIdx.x : 0] := 1`.slice(1));
  });

  it('short circuit read', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  int i = threadIdx.x;
  if (i < n && A[i] > 0) A[i] = 0;
}`;
    expect(await body(cu)).toBe(`
let i: i32 = (i32) (u32) threadIdx.x in
if (i < n) {
  let A_v = A[i] in
  skip
};
havoc cond: i32 /* the value of \`i < n && A[i] > 0\` after a branch that read memory */ in
if (cond != 0) {
  A[i] := 0
}`.slice(1));
  });

  it('requires assume', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  __requires(n == 64);
  __assume(threadIdx.x < 32);
  __invariant(n > 0);
  A[threadIdx.x] = n;
}`;
    expect(await body(cu)).toBe(`
assume (u32) threadIdx.x < 32;
A[(u32) threadIdx.x] := n`.slice(1));
  });

  it('device function', async () => {
    const cu = `
__device__ int idx(int r, int c, int w) { return r * w + c; }
__global__ void k(int *A, int w) {
  A[idx(threadIdx.y, threadIdx.x, w)] = 0;
}`;
    expect(await body(cu)).toBe(`
let r: i32 = (i32) (u32) threadIdx.y in
let c: i32 = (i32) (u32) threadIdx.x in
A[r * w + c] := 0`.slice(1));
  });

  it('pointer alias', async () => {
    const cu = `
__global__ void k(float *A, int n) {
  float *row = A + blockIdx.x * n;
  float *p = &row[threadIdx.x];
  p += 1;
  *p = row[0];
}`;
    expect(await body(cu)).toBe(`
let row_off: u32 = (u32) blockIdx.x * (u32) n in
let p_off: u32 = row_off + (u32) threadIdx.x in
let p_off_1: u32 = p_off + 1 in
let A_v = A[row_off] in
A[p_off_1] := A_v`.slice(1));
  });

  it('struct and vector fields', async () => {
    const cu = `
struct Particle { float x, y; int cell; };
__global__ void k(Particle *P, float4 *V, int2 *C) {
  int i = threadIdx.x;
  P[i].cell = i;
  V[i].w = 0.0f;
  int2 c = C[i];
  P[c.x].x = 1.0f;
}`;
    expect(await body(cu)).toBe(`
let i: i32 = (i32) (u32) threadIdx.x in
P[i][2] := i;
V[i][3] := 0;
let C_v = C[i][0] in
let C_v_1 = C[i][1] in
P[C_v][0] := 1065353216`.slice(1));
  });

  it('multi-dim shared', async () => {
    const cu = `
__global__ void k(float *out) {
  __shared__ float tile[8][9];
  tile[threadIdx.y][threadIdx.x] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}`;
    expect(await body(cu)).toBe(`
tile[(u32) threadIdx.y][(u32) threadIdx.x] := 0;
sync;
let tile_v = tile[(u32) threadIdx.x][(u32) threadIdx.y] in
out[(u32) threadIdx.x] := tile_v`.slice(1));
  });

  it('extern shared and SharedMemory', async () => {
    const cu = `
template <class T> struct SharedMemory {
  __device__ operator T *() { extern __shared__ int __smem[]; return (T *)__smem; }
};
template <class T> __global__ void k(T *in) {
  T *s = SharedMemory<T>();
  s[threadIdx.x] = in[threadIdx.x];
}`;
    expect(await body(cu)).toBe(`
let in_v = in[(u32) threadIdx.x] in
__smem[(u32) threadIdx.x] := in_v`.slice(1));
  });

  it('constant memory and texture and shfl', async () => {
    const cu = `
__constant__ int offsets[4];
texture<float, 1, cudaReadModeElementType> tex;
__global__ void k(float *A) {
  int o = offsets[threadIdx.x % 4];
  float t = tex1Dfetch(tex, threadIdx.x);
  int lane = __shfl_down_sync(0xffffffff, o, 1);
  A[o + lane] = t;
}`;
    expect(await body(cu)).toBe(`
let o = offsets[(u32) threadIdx.x % 4] in
havoc lane: i32 /* a warp intrinsic's result (__shfl_down_sync) */ in
havoc v: i32 /* a texture fetch (tex1Dfetch) */ in
A[o + lane] := v`.slice(1));
  });

  it('__syncwarp with the full mask, however written, is the core syncwarp', async () => {
    const cu = `
#define FULL_MASK 0xffffffff
__global__ void k(int *A) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncwarp();
  int v = s[threadIdx.x ^ 1];
  __syncwarp(FULL_MASK);
  __syncwarp(0xFFFFFFFFu);
  __syncwarp(~0u);
  A[threadIdx.x] = v;
}`;
    expect(await body(cu)).toBe(`
s[(u32) threadIdx.x] := 1;
syncwarp;
let v = s[(u32) threadIdx.x ^ 1] in
syncwarp;
syncwarp;
syncwarp;
A[(u32) threadIdx.x] := v`.slice(1));
  });

  it.each([
    ['a partial mask', '__global__ void k(int *A) { __syncwarp(0x0000ffff); }', '0x0000ffff'],
    ['a mask known only at run time', '__global__ void k(int *A, unsigned m) { __syncwarp(m); }', 'm'],
    ['the active mask', '__global__ void k(int *A) { __syncwarp(__activemask()); }', '__activemask()'],
  ])('rejects __syncwarp with %s, pointing at the mask', async (_name, cu, mask) => {
    const lines = (await rejection(cu)).split('\n');
    expect(lines[0]).toBe('error[E0602]: unsupported: __syncwarp with a mask other than the full warp (0xffffffff)');
    const code = lines.find((l) => l.includes('__syncwarp('))!;
    const marks = lines.find((l) => l.includes('^'))!;
    expect(marks.indexOf('^') - marks.indexOf('|')).toBe(code.indexOf(`(${mask})`) + 1 - code.indexOf('|'));
    expect(marks.trim().endsWith(` ${'^'.repeat(mask.length)}`)).toBe(true);
  });

  it('scalar shared and volatile', async () => {
    const cu = `
__global__ void k(volatile int *A) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  A[count] = 1;
}`;
    expect(await body(cu)).toBe(`
if ((u32) threadIdx.x == 0) {
  count[0] := 0
};
sync;
let count_v = count[0] in
A[count_v] := 1`.slice(1));
  });

  it('casts and unsigned arithmetic', async () => {
    const cu = `
__global__ void k(int *A, int n) {
  unsigned u = threadIdx.x - 1;
  long w = (long)n * n;
  A[(int)(u % 7)] = (int)w;
  A[-n] = ~n;
}`;
    expect(await body(cu)).toBe(`
let u: u32 = (u32) threadIdx.x - 1 in
let w: i64 = (i64) n * (i64) n in
A[(i32) (u % 7)] := (i32) w;
A[0 - n] := 0 - n - 1`.slice(1));
  });
  it('a loop bound computed by a function that touches no memory is invariant', async () => {
    const cu = `
__host__ __device__ int ceil_div(int a, int b) { return (a + b - 1) / b; }
__global__ void k(int *A, int n) {
  for (int t = 0; t < ceil_div(n, 16); ++t) A[t] = 0;
}`;
    expect(await body(cu)).toBe(`
for t: i32 in 0..(n + 16 - 1) / 16 {
  A[t] := 0
}`.slice(1));
  });

  it('a loop bound that reads memory is not', async () => {
    const cu = `
__device__ int size_of(const int *S) { return S[0]; }
__global__ void k(int *A, const int *S) {
  for (int t = 0; t < size_of(S); ++t) A[t] = 0;
}`;
    expect(await body(cu)).toMatch(/^havoc iterations: u32 \/\* approximated: the number of iterations of the loop at line 4/);
  });
});

describe('CUDA kernels as a whole', () => {
  it("states CUDA's launch limits as requires on the dimensions the kernel uses, the product of the block's", async () => {
    const header = async (cu: string): Promise<string[]> => (await core(cu)).split('\n').filter((l) => l.startsWith('  requires '));
    expect(await header('__global__ void k(int *A) { A[0] = 1; }')).toEqual(['  requires blockDim.x <= 1024']);
    expect(await header('__global__ void k(int *A) { A[blockIdx.x * blockDim.x + threadIdx.x] = 1; }')).toEqual([
      '  requires blockDim.x <= 1024',
      '  requires gridDim.x <= 2147483647',
      '  requires gridDim.x * blockDim.x < 4294967296',
    ]);
    expect(await header('__global__ void k(int *A) { __requires(gridDim.z == 2); A[threadIdx.z * blockDim.y + threadIdx.x] = 1; }')).toEqual([
      '  requires blockDim.x <= 1024',
      '  requires blockDim.y <= 1024',
      '  requires blockDim.z <= 64',
      '  requires blockDim.x * blockDim.y * blockDim.z <= 1024',
      '  requires gridDim.z <= 65535',
      '  requires (u32) gridDim.z == 2',
    ]);
    // a dimension used only in a called device function counts too
    expect(await header('__device__ int row() { return blockIdx.y; }\n__global__ void k(int *A) { A[row()] = 1; }')).toEqual([
      '  requires blockDim.x <= 1024',
      '  requires gridDim.y <= 65535',
    ]);
  });

  it('gives __requires on parameters to the kernel header, and template parameters fixed by an instantiation', async () => {
    const cu = `
template <int TILE> __global__ void k(int *A, int n) {
  __requires(n == 64 && blockDim.x == TILE);
  A[threadIdx.x] = n;
}
template __global__ void k<16>(int *, int);`;
    expect(await core(cu)).toBe(`
kernel k(TILE: i32, n: i32)
  requires blockDim.x <= 1024
  requires TILE == 16
  requires n == 64 && (u32) blockDim.x == (u32) TILE
{
  global A;
  A[(u32) threadIdx.x] := n
}`.slice(1));
  });

  it('keeps an int template parameter symbolic without instantiation, and says so', async () => {
    const unit = await lowered('template <int N> __global__ void k(int *A) { A[threadIdx.x * N] = 0; }');
    expect(unit.program.kernels[0]!.params.map((p) => p.text)).toEqual(['N']);
    expect(unit.program.kernels[0]!.requires.map((r) => showBExpr(r, 0, 'cuda'))).toEqual(['blockDim.x <= 1024']);
    expect(unit.notices.map((d) => d.code)).toEqual(['N0604']);
  });

  it('reads GPUVerify-only annotations, __threadfence and assert with a notice each, and lowers the rest', async () => {
    const unit = await lowered(`
__global__ void k(int *A) {
  __invariant(threadIdx.x < 4);
  __threadfence();
  assert(A[0] == 0);
  A[threadIdx.x] = 1;
}`);
    expect(unit.rejected).toEqual([]);
    expect(unit.notices.map((d) => `${d.code} ${d.message.split(':')[0]}`)).toEqual([
      'N0601 __invariant is a GPUVerify annotation; faial-ts reads it and ignores it',
      'N0603 __threadfence() has no effect on data races in this model',
      'N0602 assert(…) is not checked',
    ]);
    // the assertion's read still happens
    expect(await body(`
__global__ void k(int *A) {
  assert(A[0] == 0);
}`)).toBe('let A_v = A[0] in\nskip');
  });

  it('rejects one kernel with a named construct and a code frame, and lowers the others', async () => {
    const unit = await lowered(`
__global__ void good(int *A) { A[threadIdx.x] = 0; }
__global__ void bad(int *A) { switch (threadIdx.x) { A[1] = 0; case 0: A[0] = 1; } }
__global__ void also(int *A) { A[threadIdx.x + 1] = 0; }`);
    expect(unit.program.kernels.map((k) => k.name.text)).toEqual(['good', 'also']);
    expect(unit.rejected.map((r) => r.name)).toEqual(['bad']);
    expect(renderedDiagnostic(unit.rejected[0]!.diagnostic, false)).toBe(`error[E0602]: unsupported: a statement before the first case label of a switch
 --> k.cu:3:54
    2 | __global__ void good(int *A) { A[threadIdx.x] = 0; }
  > 3 | __global__ void bad(int *A) { switch (threadIdx.x) { A[1] = 0; case 0: A[0] = 1; } }
      |                                                      ^^^^^^^^^
    4 | __global__ void also(int *A) { A[threadIdx.x + 1] = 0; }
`);
  });

  it.each([
    ['goto', '__global__ void k(int *A) { goto end; end: A[0] = 1; }', 'unsupported: goto'],
    ['inline asm', '__global__ void k(int *A) { asm("trap;"); }', 'unsupported: inline asm'],
    ['compiler atomics', '__global__ void k(int *A) { __nv_atomic_fetch_add(&A[0], 1, 0, 0); }', "unsupported: __nv_atomic_fetch_add (only CUDA's atomicAdd … atomicXor functions are modelled)"],
    ['recursion', '__device__ int f(int x) { return x > 0 ? f(x - 1) : 0; }\n__global__ void k(int *A) { A[f(3)] = 0; }', 'unsupported: recursion (f calls itself)'],
    ['function pointers whose target is not known', '__device__ int f(int x) { return x; }\n__global__ void k(int *A, int (*g)(int)) { A[g(1)] = 0; }', 'unsupported: a call through g, a function pointer whose target faial-ts does not know'],
    ['device memmove', '__global__ void k(int *A, int *B) { memmove(A, B, 16); }', 'unsupported: device memcpy/memset'],
    ['grid synchronisation', '__global__ void k(int *A) { cooperative_groups::this_grid().sync(); }', 'unsupported: grid synchronisation (grid_group::sync): a barrier of every thread of the grid, which faial-ts does not model'],
    ['extended lambdas (`[=] __device__ (…)`)', '__global__ void k(int *A) { auto f = [=] __host__ __device__ (int i) { A[i] = 0; }; f(1); }', 'unsupported: lambdas'],
    ['classes with a base class', 'struct B { int x; };\nstruct S : B { __device__ int get() { return 1; } };\n__global__ void k(int *A) { S s; A[s.get()] = 0; }', 'unsupported: a class with a base class (S : B), which faial-ts does not model, used here (s)'],
  ])('rejects %s by name', async (_name, cu, message) => {
    expect((await rejection(cu)).split('\n')[0]).toBe(`error[E0602]: ${message}`);
  });

  it('reports a syntax error inside a kernel, and ignores one in host code', async () => {
    const unit = await lowered(`
__global__ void k(int *A) { A[threadIdx.x] = 0 }
void host() { this is not C++ at all; }
__global__ void fine(int *A) { A[threadIdx.x] = 0; }`);
    expect(unit.program.kernels.map((k) => k.name.text)).toEqual(['fine']);
    expect(unit.rejected[0]!.diagnostic.code).toBe('E0601');
    expect(unit.rejected[0]!.diagnostic.message).toMatch(/^syntax error/);
  });

  it('says a file without kernel has none', async () => {
    const unit = await lowered('int main() { return 0; }');
    expect(unit.errors.map((d) => d.code)).toEqual(['E0606']);
  });

  it('points into the header and at the macro use a kernel came from', async () => {
    const unit = await lowered(
      `#include "tile.h"
#define AT(i) A[(i) + 1]
__global__ void k(int *A) {
  AT(threadIdx.x) = 0;
  goto out; out: ;
}`,
      { files: { 'tile.h': '__device__ void put(int *A) { goto out; out: ; }\n' } },
    );
    const d = unit.rejected[0]!.diagnostic;
    expect(renderedDiagnostic(d, false).split('\n').slice(0, 2)).toEqual(['error[E0602]: unsupported: goto', ' --> k.cu:5:3']);
    const withCall = await lowered(
      `#include "tile.h"
__global__ void k(int *A) { put(A); }`,
      { files: { 'tile.h': '__device__ void put(int *A) { goto out; out: ; }\n' } },
    );
    expect(renderedDiagnostic(withCall.rejected[0]!.diagnostic, false).split('\n')[1]).toBe(' --> tile.h:1:31');
    const write = unit.program.kernels.length === 0 ? null : unit.program;
    expect(write).toBeNull();
    const macro = await lowered(`#define AT(i) A[(i) + 1]
__global__ void k(int *A) {
  AT(threadIdx.x) = 0;
}`);
    const s = macro.program.kernels[0]!.body[0]!;
    expect(s.kind).toBe('write');
    if (s.kind !== 'write') return;
    const at = macro.program.file.origin!(s.target);
    expect([at.file.path, at.expansions.map((m) => m.name)]).toEqual(['k.cu', ['AT']]);
  });
});

describe('the CUDA examples', () => {
  it('lower whole, with their includes and header macros: no kernel rejected, no file error', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const { frontEndsFor } = await import('../../../src/cli/cuda.js');
    const { lowerCuda } = await import('../../../src/frontend/cuda/lower.js');
    const below = (dir: string): string[] =>
      readdirSync(dir)
        .sort()
        .flatMap((f) => (statSync(`${dir}/${f}`).isDirectory() ? below(`${dir}/${f}`) : f.endsWith('.cu') ? [`${dir}/${f}`] : []));
    const files = below('examples/cuda');
    expect(files.length).toBeGreaterThan(40);
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const { cuda } = await frontEndsFor(path, text, {});
      const unit = lowerCuda(cuda!, path, text);
      expect([path, unit.errors.map((d) => d.message), unit.rejected.map((r) => r.diagnostic.message)]).toEqual([path, [], []]);
      expect(unit.program.kernels.length, path).toBeGreaterThan(0);
    }
  });
});
