// expect: drf
//--blockDim=[64] --gridDim=[1]
// Tiles of a warp's 32 threads: each thread writes its slot, the tile syncs
// (a barrier of the tile's threads, as __syncwarp()), then reads the slot of
// the mirror rank in its own tile; so no read meets a write of another tile.
// Racy twin: tile-sync-across-tiles.cu.
#include <cooperative_groups.h>
using namespace cooperative_groups;

__device__ void rotate(thread_block_tile<32> tile, int *buf, int *out) {
  unsigned base = tile.meta_group_rank() * tile.size();
  buf[base + tile.thread_rank()] = tile.thread_rank();
  tile.sync();
  out[base + tile.thread_rank()] = buf[base + 31 - tile.thread_rank()];
}

__global__ void tile_sync(int *out) {
  __shared__ int buf[128];
  thread_block block = this_thread_block();
  rotate(tiled_partition<32>(block), buf, out);
}
