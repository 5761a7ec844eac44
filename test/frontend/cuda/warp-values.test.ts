/**
 * The warp intrinsics are values only (issue 28 §4): unknown results, no
 * access and no barrier; an alarm whose access they decide is `possible`,
 * and a write of their result is never a benign (equal) write.
 */
import { describe, expect, it } from 'vitest';
import { verified } from './lower-helpers.js';

async function verdict(text: string): Promise<string> {
  const { rejected, results } = await verified(text, 2);
  if (rejected.length > 0 || results.length !== 1) throw new Error(`not lowered: ${text}`);
  const r = results[0]!;
  if (r.status !== 'racy') return r.status;
  return `racy ${[...new Set(r.races.map((x) => x.confidence))].join(' ')}`;
}

const CALLS = ['__shfl_sync(0xffffffff, threadIdx.x, 0)', '__shfl_up_sync(0xffffffff, threadIdx.x, 1)', '__shfl_down_sync(0xffffffff, threadIdx.x, 1)', '__shfl_xor_sync(0xffffffff, threadIdx.x, 1)', '__ballot_sync(0xffffffff, threadIdx.x > 3)', '__any_sync(0xffffffff, threadIdx.x)', '__all_sync(0xffffffff, threadIdx.x)', '__activemask()'];

describe('warp intrinsics are values only', () => {
  it.each(CALLS)('%s: an index it decides makes the race possible; a value it gives, written to the own element, is race-free', async (call) => {
    expect(await verdict(`__global__ void k(int *a) {\n  a[${call} % 4] = threadIdx.x;\n}\n`)).toBe('racy possible');
    expect(await verdict(`__global__ void k(int *a) {\n  a[threadIdx.x] = ${call};\n}\n`)).toBe('drf');
    // every thread writes its result to one element: a real race, never taken for equal writes
    expect(await verdict(`__global__ void k(int *a) {\n  a[0] = ${call};\n}\n`)).toBe('racy confirmed');
  });
});
