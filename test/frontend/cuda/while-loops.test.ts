/**
 * A `while` loop whose body ends with its step (`while (i != 0) { …; i /= 2; }`,
 * the halving loop of "CUDA by Example"'s dot product) is a canonical loop;
 * where its exact form needs a guard (a signed variable halved towards 0, a
 * `!=` bound the step may jump over), the other case is approximated. That
 * approximation runs the loop's own test and step: a `while` node has no
 * update field and its condition field is the parenthesised clause, so
 * reading them from the node rejected every such loop (E0602 "the expression
 * condition clause") and would have left the variable unchanged. And
 * `do { … } while (0)`, the statement-like macro's idiom, is its body once.
 */
import { describe, expect, it } from 'vitest';
import { body, verified } from './lower-helpers.js';

describe('while loops ending with their step', () => {
  it('the approximated case tests the condition and runs the step after the body', async () => {
    const text = `__global__ void k(int *a, int n) {
  int i = n;
  while (i != 0) {
    a[i] = threadIdx.x;
    i /= 2;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toContain('for i: i32 in n downto 1 step / 2 {');
    const rough = lowered.slice(lowered.indexOf('} else {'));
    expect(rough).toMatch(/havoc (i_\d+): i32 \/\* approximated: i in the loop at line 3: its variable i may never equal the bound of != \*\/ in\n\s+if \(\1 != 0\) \{\n\s+a\[\1\] := \(i32\) \(u32\) threadIdx.x;\n\s+let i_\d+: i32 = \1 \/ 2 in/);
  });

  it('a race reached only where the loop is approximated is found, as possible', async () => {
    // n = -1: i is -1 in the first iteration (every thread writes a[0]), then -1 / 2 = 0 ends the loop
    const text = `__global__ void k(int *a, int n) {
  int i = n;
  while (i != 0) {
    if (i < 0) a[0] = threadIdx.x;
    i /= 2;
  }
}
`;
    const { rejected, results } = await verified(text, 4);
    expect(rejected).toEqual([]);
    expect(results.map((r) => [r.status, r.races.every((race) => race.confidence === 'possible')])).toEqual([['racy', true]]);
  });
});

describe('do { … } while (0)', () => {
  it('is its body once: a barrier in it is the block barrier, not a possible divergence', async () => {
    const text = `#define SYNC() do { __syncthreads(); } while (0)
__global__ void k(int *a) {
  a[threadIdx.x] = 1;
  SYNC();
  do { a[threadIdx.x + 1] = 2; } while (false);
}
`;
    expect(await body(text)).toBe(['a[(u32) threadIdx.x] := 1;', 'sync;', 'a[(u32) threadIdx.x + 1] := 2'].join('\n'));
  });

  it('with a break or continue inside, or another condition, stays an approximated loop', async () => {
    const loop = async (text: string): Promise<boolean> => (await body(`__global__ void k(int *a, int n) {\n  ${text}\n}\n`)).includes('havoc iterations');
    expect(await loop('do { if (n) break; a[0] = 1; } while (0);')).toBe(true);
    expect(await loop('do { a[0] = 1; } while (n);')).toBe(true);
    expect(await loop('do { a[0] = 1; } while (0);')).toBe(false);
  });
});

describe('do { …; step; } while (c)', () => {
  it('is its body once, then the exact while loop: a halving reduction\'s barrier is no possible divergence', async () => {
    const text = `__global__ void k(int *s) {
  unsigned stride = 128;
  do {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
    stride >>= 1;
  } while (stride > 0);
}
`;
    const lowered = await body(text);
    expect(lowered).not.toContain('havoc iterations');
    // the first iteration at 128, then the loop from 64
    expect(lowered).toMatch(/^if \(\(u32\) threadIdx\.x < 128\)/);
    expect(lowered).toContain('for stride: u32 in 64 downto 1 step / 2 {');
    const { rejected, results } = await verified(text, 4);
    expect(rejected).toEqual([]);
    expect(results.map((r) => r.status)).toEqual(['drf']);
  });

  it('with a break or continue, or a condition not on the step\'s variable, stays approximated', async () => {
    const loop = async (text: string): Promise<boolean> => (await body(`__global__ void k(int *a, int n) {\n  int i = 0;\n  ${text}\n}\n`)).includes('havoc iterations');
    expect(await loop('do { if (a[i]) break; i++; } while (i < n);')).toBe(true);
    expect(await loop('do { if (a[i]) continue; i++; } while (i < n);')).toBe(true);
    expect(await loop('do { a[i] = 1; i++; } while (a[i] < n);')).toBe(true);
    expect(await loop('do { a[i] = 1; i++; } while (i < n);')).toBe(false);
  });
});
