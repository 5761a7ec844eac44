// expect: racy confirmed
// reverse.cu without its barrier: thread t reads tile[BLOCK - 1 - t] while
// thread BLOCK - 1 - t may still be writing it (threads 0 and BLOCK - 1).
// Fixed twin: reverse.cu.
#include "tile.h"

__global__ void reverse_chunks_unsynced(int *data) {
  __requires(blockDim.x == BLOCK);
  __shared__ int tile[BLOCK];
  tile[threadIdx.x] = data[OWN(threadIdx.x)];
  data[OWN(threadIdx.x)] = tile[BLOCK - 1 - threadIdx.x];
}
