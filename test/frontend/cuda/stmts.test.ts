/**
 * The statements and calls of issue 28 §4 that real kernels use: switch,
 * local arrays, the address of a local, memcpy/memset on device memory,
 * curand. Each is shown in the lowered core, the soundness cases by verdict.
 */
import { describe, expect, it } from 'vitest';
import { body, lowered, rejection, verified } from './lower-helpers.js';

/** The verdict of each kernel of the file, for every launch, with whether its races are all confirmed. */
async function statuses(text: string): Promise<string[]> {
  const { rejected, results } = await verified(text, 4);
  return [...rejected, ...results.map((result) => (result.status === 'racy' ? `racy ${result.races.every((r) => r.confidence === 'confirmed') ? 'confirmed' : 'possible'}` : result.status))];
}

/** The rejection's message and location, on one line. */
const firstLine = async (text: string): Promise<string> => {
  const [message, at] = (await rejection(text)).split('\n');
  return `${at!.trim()} ${message!}`;
};

describe('switch', () => {
  it('each segment runs from the label entered until an exit: fallthrough, break, default', async () => {
    const text = `__global__ void k(int *a, int op) {
  switch (op) {
    case 0:
      a[0] = 1;
    case 1:
      a[1] = 2;
      break;
    default:
      a[2] = 3;
  }
  a[3] = 4;
}
`;
    expect(await body(text)).toBe(
      [
        'if (op == 0) {',
        '  a[0] := 1',
        '};',
        'if (op == 0 || op == 1) {',
        '  a[1] := 2',
        '};',
        'if (!(op == 0 || op == 1)) {',
        '  a[2] := 3',
        '};',
        'a[3] := 4',
      ].join('\n'),
    );
  });

  it('the scrutinee is evaluated once, promoted, and compared with each label converted to its type', async () => {
    const text = `__global__ void k(int *a, unsigned char c) {
  switch (a[threadIdx.x] + c) {
    case 1: a[0] = 1; break;
    case 'b': a[1] = 2; break;
  }
}
`;
    const lowered = await body(text);
    expect(lowered.match(/a_v = a\[/g)).toHaveLength(1);
    expect(lowered).toContain('switch == 98');
  });

  it('a break leaves the switch, not the loop around it: the loop stays exact', async () => {
    const text = `__global__ void k(int *a, int op) {
  for (int i = 0; i < 4; i++) {
    switch (op) { case 0: a[i] = 1; break; default: a[i] = 2; }
    a[i + 4] = 3;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toMatch(/^for i: i32 in 0\.\.4 \{/);
    expect(lowered).not.toContain('approximated');
    expect(lowered).toContain('a[i + 4] := 3');
    expect(lowered).not.toMatch(/if \(.*\) \{\n\s*a\[i \+ 4\]/);
  });

  it('continue and return inside a switch leave the loop iteration and the function', async () => {
    const text = `__global__ void k(int *a, int op) {
  for (int i = 0; i < 4; i++) {
    switch (op) { case 0: continue; case 1: return; }
    a[i] = 3;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toMatch(/if \(!\(.*op == 0.*op == 1.*\)\) \{\n\s*a\[i\] := 3/);
  });

  it('nested switches have their own breaks', async () => {
    const text = `__global__ void k(int *a, int x, int y) {
  switch (x) {
    case 0:
      switch (y) { case 0: a[0] = 1; break; default: a[1] = 1; }
      a[2] = 1;
      break;
    case 1:
      a[3] = 1;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toContain('a[2] := 1');
    expect(lowered).toMatch(/if \(x == 0\) \{[^]*a\[2\] := 1[^]*\};\nif \(x == 0 \|\| x == 1\) && !\(x == 0\)|if \(.*x == 1.*\) \{\n\s*a\[3\] := 1/);
  });

  it('a variable declared in the condition of a switch or an if is the value it tests', async () => {
    // thread t of a block writes s[t - 1] only where its v = t is not 0: one element each
    expect(await statuses('__global__ void k() {\n  __shared__ int s[64];\n  switch (unsigned v = threadIdx.x) {\n    case 0: break;\n    default: s[v - 1] = threadIdx.x;\n  }\n}\n')).toEqual(['drf']);
    expect(await statuses('__global__ void k() {\n  __shared__ int s[64];\n  if (unsigned v = threadIdx.x) s[v - 1] = threadIdx.x;\n}\n')).toEqual(['drf']);
    // with v = t / 2 two threads share an element
    expect(await statuses('__global__ void k() {\n  __shared__ int s[64];\n  if (unsigned v = threadIdx.x / 2) s[v] = threadIdx.x;\n}\n')).toEqual(['racy confirmed']);
  });

  it('fallthrough into a neighbour\'s element is a confirmed race; with break, DRF', async () => {
    const racy = `__global__ void k(int *a) {
  unsigned t = threadIdx.x;
  switch (t % 2) {
    case 0: a[t] = 7;
    case 1: a[t | 1] = t;
  }
}
`;
    expect(await statuses(racy)).toEqual(['racy confirmed']);
    expect(await statuses(racy.replace('= 7;', '= 7; break;'))).toEqual(['drf']);
  });

  it('what is not lowered exactly is rejected at its location', async () => {
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { case 0: for (;;) { case 1: a[0] = 1; } } }\n')).toMatch(/k\.cu:1:68 .*E0602.*a case label inside a statement nested in the switch/);
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { a[1] = 2; case 0: a[0] = 1; } }\n')).toMatch(/k\.cu:1:49 .*E0602.*a statement before the first case label/);
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { case 0: continue; } }\n')).toMatch(/E0604.*continue outside a loop/);
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { case a[0]: break; } }\n')).toMatch(/E0604.*a case label must be a constant/);
  });
});

describe('local arrays', () => {
  it('are private: no array in the core; values at constant indices are followed, initialisers zero-fill', async () => {
    const text = `__global__ void k(int *a) {
  int buf[4] = {1, 2};
  int t = threadIdx.x;
  buf[3] = t;
  a[buf[3] * 4 + buf[1] + buf[2]] = 1;
}
`;
    expect(await body(text)).toBe(['let t: i32 = (i32) (u32) threadIdx.x in', 'a[t * 4 + 2] := 1'].join('\n'));
  });

  it('an element at a symbolic index is an ite over the cells; a write there updates each cell it may name', async () => {
    const text = `__global__ void k(int *a, int n) {
  int buf[3] = {5, 6, 7};
  int j = n % 3;
  buf[j] = 9;
  a[buf[1]] = 1;
}
`;
    expect(await body(text)).toContain('let buf_1_: i32 = (i64) j == 1 ? 9 : 6 in');
    expect(await body(text.replace('buf[j] = 9;', 'a[buf[j]] = 2;'))).toContain('a[(i64) j == 0 ? 5 : (i64) j == 1 ? 6 : 7] := 2');
  });

  it('a loop that changes an array, directly, through a pointer or a function, never leaves a stale value', async () => {
    const kernel = (pre: string, loop: string): string => `__device__ void zero(int *p) { p[0] = 0; }
__device__ void zeroRef(int &x) { x = 0; }
__global__ void k(int *a, int n) {
  int buf[2];
  buf[0] = threadIdx.x;
  ${pre}
  for (int i = 0; i < n; i++) { ${loop} }
  a[buf[0]] = threadIdx.x;
}
`;
    for (const [pre, loop] of [
      ['', 'buf[0] = 0;'],
      ['int *p = buf;', 'p[0] = 0;'],
      ['', 'zero(buf);'],
      ['', 'zeroRef(buf[0]);'],
      ['', 'buf[0]++; buf[0] = 0;'],
      ['int &r = buf[0];', 'r = 0;'],
    ]) {
      const text = kernel(pre!, loop!);
      expect(await statuses(text), text).not.toEqual(['drf']);
    }
    // a loop that only reads it keeps its values
    expect(await body(kernel('int s = 0;', 's += buf[0];'))).toContain('a[buf_0_] := (i32) (u32) threadIdx.x');
  });

  it('an array too large to follow gives approximated values, so the race they decide is possible', async () => {
    const text = '__global__ void k(int *a) {\n  int big[100];\n  big[0] = 0;\n  a[big[0]] = threadIdx.x;\n}\n';
    expect(await body(text)).toContain('approximated: an element of the local array big');
    expect(await statuses(text)).toEqual(['racy possible']);
  });

  it('an uninitialised element is unknown: the alarm it decides is possible', async () => {
    expect(await statuses('__global__ void k(int *a) {\n  int buf[2];\n  a[buf[1]] = threadIdx.x;\n}\n')).toEqual(['racy possible']);
  });

  it('rejects a constant index out of bounds and a designated initialiser', async () => {
    expect(await firstLine('__global__ void k(int *a) { int b[2]; b[2] = 1; }\n')).toMatch(/k\.cu:1:39 .*E0604.*index 2 is out of the bounds of the local array b/);
    expect(await firstLine('__global__ void k(int *a) { int b[2] = {[1] = 3}; a[b[1]] = 1; }\n')).toMatch(/E0602.*a designated initialiser/);
  });
});

describe('the address of a local', () => {
  it('f(&x) with f writing *p changes x, as a reference would; so does *p through int *p = &x', async () => {
    const text = `__device__ void bump(int *p, int v) { *p += v; }
__global__ void k(int *a) {
  int x = threadIdx.x;
  bump(&x, 1);
  a[x] = 1;
  int *p = &x;
  *p = 7;
  a[x] = 2;
}
`;
    expect(await body(text)).toBe(['let x: i32 = (i32) (u32) threadIdx.x in', 'let x_1: i32 = x + 1 in', 'a[x_1] := 1;', 'a[7] := 2'].join('\n'));
  });

  it('a field of a local struct, and a loop writing through the pointer (never a stale value)', async () => {
    const field = '__global__ void k(int *a) {\n  int2 v = make_int2(threadIdx.x, 0);\n  int *p = &v.y;\n  *p = 5;\n  a[v.y] = 1;\n}\n';
    expect(await body(field)).toContain('a[5] := 1');
    const loop = '__global__ void k(int *a, int n) {\n  int x = threadIdx.x;\n  int *p = &x;\n  for (int i = 0; i < n; i++) *p = 0;\n  a[x] = threadIdx.x;\n}\n';
    expect(await statuses(loop)).not.toEqual(['drf']);
  });

  it('what is not modelled is rejected by name: past the local, a pointer to it stored in memory', async () => {
    expect(await firstLine('__global__ void k(int *a) { int x = 0; int *p = &x; p[1] = 2; }\n')).toMatch(/E0604.*index 1 is out of the bounds of the local array x/);
    expect(await firstLine('__global__ void k(int **a) { int x = 0; a[0] = &x; }\n')).toMatch(/E0602/);
  });
});

describe('memcpy and memset on memory', () => {
  it('memcpy reads each source element and writes each destination element over the count', async () => {
    const text = '__global__ void k(int *a, const int *b) {\n  memcpy(&a[threadIdx.x * 2], b, 2 * sizeof(int));\n}\n';
    expect(await body(text)).toBe(
      ['for byte_element: u64 in 0..2 {', '  let b_v = b[byte_element] in', '  a[(u64) ((u32) threadIdx.x * 2) + byte_element] := b_v', '}'].join('\n'),
    );
  });

  it('a symbolic count k * sizeof(T) is exact; one not known to be a multiple is rounded up with notice N0640', async () => {
    expect(await body('__global__ void k(float *a, int n) {\n  __builtin_memset(a, 0, n * sizeof(float));\n}\n')).toMatch(/^for byte_element: u64 in 0\.\.\(u64\) n \{/);
    const exact = await lowered('__global__ void k(int *a, const int *b, int m) {\n  memcpy(a, b, 8);\n  memcpy(a, b, m * 8);\n}\n');
    expect(exact.notices).toEqual([]);
    const unit = await lowered('__global__ void k(int *a, const int *b, unsigned long m) {\n  memcpy(a, b, m);\n}\n');
    expect(unit.notices.map((d) => `${d.code} ${d.message}`)).toEqual([
      'N0640 memcpy: the byte count is not known to be a multiple of the element size (4); faial-ts counts every element the bytes touch',
    ]);
  });

  it('memset of a local array sets its elements (the byte repeated); it stays private', async () => {
    expect(await body('__global__ void k(int *a) {\n  int buf[4];\n  memset(buf, 1, sizeof(int) * 4);\n  a[buf[2]] = 1;\n}\n')).toBe('a[16843009] := 1');
  });

  it('overlapping copies race; disjoint ones are DRF', async () => {
    const text = (n: number): string => `__global__ void k(int *a, const int *b) {\n  memcpy(&a[4 * threadIdx.x], b, ${n} * sizeof(int));\n}\n`;
    expect(await statuses(text(4))).toEqual(['drf']);
    expect(await statuses(text(5))).toEqual(['racy confirmed']);
  });

  it('rejects what it does not model by name', async () => {
    expect(await firstLine('__global__ void k(int *a, const char *b) { memcpy(a, b, 8); }\n')).toMatch(/E0602.*memcpy between elements of different sizes \(int and char\)/);
    expect(await firstLine('__global__ void k(int *a, int n) { int b[4]; memcpy(b, a, n); }\n')).toMatch(/E0602.*memcpy on a thread's local array with a byte count faial-ts does not know/);
  });
});

describe('curand', () => {
  it('curand_init and curand_* read and write the state element; the value drawn is unknown, so what it decides is possible', async () => {
    const text = '__global__ void k(curandState *st, int *h) {\n  curand_init(1, threadIdx.x, 0, &st[threadIdx.x]);\n  curandState s = st[threadIdx.x];\n  if (curand(&s) % 2) h[0] = threadIdx.x;\n  st[threadIdx.x] = s;\n}\n';
    const lowered = await body(text);
    expect(lowered).toMatch(/let st_v = st\[\(u32\) threadIdx\.x\] in\nhavoc v: i32 \/\* the state curand_init leaves \*\/ in\nst\[\(u32\) threadIdx\.x\] := v;/);
    expect(await statuses(text)).toEqual(['racy possible']);
    expect(await statuses('__global__ void k(curandState *st) {\n  curand_init(1, threadIdx.x, 0, &st[threadIdx.x / 2]);\n}\n')).toEqual(['racy confirmed']);
  });
});

describe('file-level constants', () => {
  it('one whose initialiser faial-ts does not compute is rejected where it is used, saying why (not "unknown name")', async () => {
    const text = `__host__ __device__ constexpr int log2c(int n) { return n <= 1 ? 0 : 1 + log2c(n / 2); }
constexpr int STEPS = log2c(128);
__global__ void k(int *a) { a[threadIdx.x] = STEPS; }
`;
    expect((await rejection(text)).split('\n')[0]).toBe('error[E0602]: unsupported: the constant STEPS, whose initialiser faial-ts does not compute (recursion (log2c calls itself))');
    expect(await body('constexpr int N = 3 * 4;\n__global__ void k(int *a) { a[threadIdx.x] = N; }\n')).toBe('a[(u32) threadIdx.x] := 12');
  });
});

describe('__mul24 and __umul24', () => {
  it('are the low 32 bits of the product of the operands\' low 24 bits (signed or unsigned), exactly', async () => {
    const text = `__global__ void k(int *a, unsigned *b) {
  a[0] = __mul24(0x1000001, 3);
  a[1] = __mul24(-1, 5);
  a[2] = __mul24(0x800000, 2);
  a[3] = __mul24(0x7FFFFF, 0x7FFFFF);
  b[0] = __umul24(0xFFFFFFFFu, 2u);
  b[1] = __umul24(4096u, 4096u);
}
`;
    expect((await body(text)).split('\n')).toEqual(['a[0] := 3;', 'a[1] := -5;', 'a[2] := -16777216;', 'a[3] := -16777215;', 'b[0] := 33554430;', 'b[1] := 16777216']);
    // a global index: no unknown, so an alarm through it is confirmed
    expect(await body('__global__ void k(int *a) { a[__mul24(blockIdx.x, blockDim.x) + threadIdx.x] = 1; }\n')).not.toMatch(/havoc/);
  });
});
