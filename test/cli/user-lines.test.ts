/**
 * Every place a report names is a place of the file the user wrote, not of
 * the preprocessed text (where an included header's lines come first): the
 * data-dependent values and approximations `infer` lists, and the barriers
 * `infer --phases` names, in a kernel that includes a header and uses macros.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from './helpers.js';

const HEADER = `// four lines that the preprocessed text puts before the kernel
#define N 16
#define EACH(i, n) for (int i = 0; i < n; i++)
__device__ int next(int x) { return x + 1; }
`;

const KERNEL = `#include "h.h"
__global__ void k(int *A, int *B) {
  __shared__ int t[N];
  t[threadIdx.x] = B[threadIdx.x];
  __syncthreads();
  int s = 0;
  EACH(i, B[0]) {
    s += t[i];
  }
  A[next(s)] = 1;
}
`;

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-lines-'));
  await writeFile(join(dir, 'h.h'), HEADER);
  await writeFile(join(dir, 'k.cu'), KERNEL);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('places are the user file’s, not the preprocessed text’s', () => {
  it('infer --phases names reads, approximations and barriers at their lines in k.cu', async () => {
    const r = await cliResult(['infer', '--phases', join(dir, 'k.cu')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('data-dependent: B_v (read from B at 4:20)');
    // the loop written with a macro: its approximations at the macro's use
    expect(r.stdout).toMatch(/data-dependent: iterations: u32 \(approximated: the number of iterations of the loop at line 7, .* at 7:3\)/);
    expect(r.stdout).toContain('phase 0: from the start to sync at 5:3');
  });
});
