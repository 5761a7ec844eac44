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

const CG = `#include <cooperative_groups.h>
namespace cg = cooperative_groups;
`;

describe('cooperative groups', () => {
  it("a block's sync is a block barrier, by method, by cg::sync and in a function taking the block by reference; ranks are arithmetic on thread ids", async () => {
    const rank = '(u32) threadIdx.x + (u32) threadIdx.y * (u32) blockDim.x + (u32) threadIdx.z * ((u32) blockDim.x * (u32) blockDim.y)';
    expect(await body(`${CG}
__device__ void f(const cg::thread_block &b, int *A) { A[b.thread_rank()] = 1; b.sync(); }
__global__ void k(int *A) {
  cg::thread_block block = cg::this_thread_block();
  f(block, A);
  cg::sync(block);
  A[block.group_index().y] = block.size();
  cooperative_groups::this_thread_block().sync();
}`)).toBe(`
A[${rank}] := 1;
sync;
sync;
A[(u32) blockIdx.y] := (i32) ((u32) blockDim.x * (u32) blockDim.y * (u32) blockDim.z);
sync`.slice(1));
  });

  it("a tile of a warp's 32 threads syncs like __syncwarp(); its ranks are the block rank's remainder and quotient; its shuffles are unknown values", async () => {
    expect(await body(`
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *A) {
  thread_block_tile<32> tile = tiled_partition<32>(this_thread_block());
  A[tile.meta_group_rank()] = tile.thread_rank();
  tile.sync();
  A[0] = tile.shfl_down(1, 1);
}`)).toMatch(/^A\[\(.*\) \/ 32\] := \(i32\) \(\(.*\) % 32\);\nsyncwarp;\nhavoc v: i32 \/\* a warp intrinsic's result \(cooperative_groups::thread_block_tile<32>::shfl_down\) \*\/ in\nA\[0\] := v$/);
  });

  it('what the core has no barrier for, and unknown members, are rejected by name where they are written', async () => {
    const cu = (stmt: string): string => `${CG}__global__ void k(int *A) {\n  ${stmt};\n}`;
    const first = async (stmt: string): Promise<string> => (await rejection(cu(stmt))).split('\n')[0]!;
    expect(await first('cg::tiled_partition<16>(cg::this_thread_block()).sync()')).toBe('error[E0602]: unsupported: the barrier of a tile of 16 threads (cooperative_groups::thread_block_tile<16>::sync)');
    expect(await first('cg::this_grid().sync()')).toBe('error[E0602]: unsupported: grid synchronisation (grid_group::sync): a barrier of every thread of the grid, which faial-ts does not model');
    expect(await first('cg::coalesced_threads().sync()')).toBe("error[E0602]: unsupported: the barrier of coalesced_threads() (coalesced_group::sync): its threads depend on which are active");
    expect(await first('cg::this_thread_block().barrier_arrive()')).toBe('error[E0602]: unsupported: cooperative_groups::thread_block::barrier_arrive');
    expect(await first('cg::labeled_partition(cg::this_thread_block(), 1)')).toBe('error[E0602]: unsupported: cooperative_groups::labeled_partition');
    expect(await rejection(cu('cg::this_grid().sync()'))).toMatch(/ --> k\.cu:4:3/);
  });

  it("coalesced threads' ranks are unknown values", async () => {
    expect(await body(`${CG}__global__ void k(int *A) {\n  A[cg::coalesced_threads().thread_rank()] = 1;\n}`)).toBe(
      'havoc v: u32 /* coalesced_group::thread_rank(), which depends on the threads active here */ in\nA[v] := 1',
    );
  });
});

describe('warp intrinsics', () => {
  it('are values the analysis does not follow: an access they decide is indexed by an unknown', async () => {
    for (const call of ['__shfl_sync(0xffffffff, threadIdx.x, 0)', '__shfl_down_sync(0xffffffff, 1, 2)', '__ballot_sync(0xffffffff, 1)', '__any_sync(0xffffffff, 1)', '__all_sync(0xffffffff, 1)', '__activemask()', '__shfl_xor_sync(0xffffffff, 1, 4)', '__shfl_up_sync(0xffffffff, 1, 4)']) {
      const name = call.slice(0, call.indexOf('('));
      expect(await body(`__global__ void k(int *A) {\n  A[${call}] = 1;\n}`)).toBe(`havoc v: i32 /* a warp intrinsic's result (${name}) */ in\nA[v] := 1`);
    }
  });
});

describe('references to groups', () => {
  it('a local reference and a reference parameter to a block are the block: their sync is a block barrier', async () => {
    expect(await body(`#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__device__ void fence(cg::thread_block &b) { b.sync(); }
__global__ void k(int *a) {
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block &ref = cta;
  a[threadIdx.x] = 1;
  fence(cta);
  a[threadIdx.x + 1] = 2;
  ref.sync();
}`)).toBe('a[(u32) threadIdx.x] := 1;\nsync;\na[(u32) threadIdx.x + 1] := 2;\nsync');
  });
});
