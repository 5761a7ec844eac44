// expect: drf
//--blockDim=[256] --gridDim=[8]
// A block's maximum with cooperative groups: each thread loads one element into
// shared memory and the tree halves the active ranks, with cg::sync(block)
// (the block barrier) between the steps, so every read of sdata[r + s]
// follows the write that made it. Racy twin: block-reduce-no-sync.cu.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void block_reduce(const int *in, int *out) {
  __shared__ int sdata[256];
  cg::thread_block block = cg::this_thread_block();
  unsigned r = block.thread_rank();
  sdata[r] = in[block.group_index().x * block.size() + r];
  cg::sync(block);
  for (unsigned s = block.size() / 2; s > 0; s >>= 1) {
    if (r < s) sdata[r] = max(sdata[r], sdata[r + s]);
    block.sync();
  }
  if (r == 0) out[block.group_index().x] = sdata[0];
}
