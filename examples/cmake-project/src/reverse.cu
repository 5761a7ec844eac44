// expect: drf
// Each block reverses its chunk of BLOCK elements of `data` through shared
// memory. BLOCK and the include directory of tile.h come from the build
// (CMakeLists.txt): `faial-ts verify --compile-commands
// build/compile_commands.json` reads them from the compilation database.
// Racy twin: reverse-unsynced.cu.
#include "tile.h"

__global__ void reverse_chunks(int *data) {
  __requires(blockDim.x == BLOCK);
  __shared__ int tile[BLOCK];
  tile[threadIdx.x] = data[OWN(threadIdx.x)];
  __syncthreads();
  data[OWN(threadIdx.x)] = tile[BLOCK - 1 - threadIdx.x];
}
