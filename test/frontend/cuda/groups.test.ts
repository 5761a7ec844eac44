/**
 * Calls the front end has no body for, cooperative groups, warp intrinsics:
 * each is lowered, approximated with a named notice, or rejected by name —
 * never skipped (issue 28 §3, §5).
 */
import { describe, expect, it } from 'vitest';
import { body, lowered, rejection } from './lower-helpers.js';

describe('calls of functions without a body', () => {
  it('one that may synchronise is rejected by name, not dropped (cg::sync without cooperative groups known, a wrapper)', async () => {
    const cu = (call: string): string => `
__device__ void barrier_wait(int);
__global__ void k(int *A) {
  A[threadIdx.x] = 1;
  ${call};
  A[0] = A[1];
}`;
    expect(await rejection(cu('barrier_wait(1)'))).toMatch(/^error\[E0602\]: unsupported: a call of barrier_wait, a function without a body in this file that may synchronise threads\n --> k\.cu:5:3/);
    expect(await rejection(cu('my::grid_sync()'))).toMatch(/a call of my::grid_sync, a function without a body/);
  });

  it('any other gives an unknown result and a notice naming it (N0606), where it is called', async () => {
    const unit = await lowered(`
__device__ int f(int);
__global__ void k(int *A) {
  A[threadIdx.x] = f(threadIdx.x);
  g(2);
}`);
    expect(unit.rejected).toEqual([]);
    expect(unit.notices.map((d) => `${d.code} ${d.message}`)).toEqual([
      "N0606 f has no body in this file: its result is unknown, and faial-ts assumes that it accesses none of the kernel's arrays and does not synchronise",
      "N0606 g has no body in this file: its result is unknown, and faial-ts assumes that it accesses none of the kernel's arrays and does not synchronise",
    ]);
    expect(await body(`
__device__ int f(int);
__global__ void k(int *A) {
  A[threadIdx.x] = f(threadIdx.x);
}`)).toBe('havoc v: i32 /* the result of f, a function without a body in this file */ in\nA[(u32) threadIdx.x] := v');
  });
});
