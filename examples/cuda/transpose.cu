// expect: drf
// Tiled transpose through shared memory, padded by one column, for a 64×64
// matrix in 16×16 tiles. Each thread writes its own tile[ty][tx]; after the
// barrier it reads tile[tx][ty], which another thread wrote in the previous
// phase. The bounds checks keep blocks outside the matrix from writing.
#include "tile.cuh"
__global__ void transpose(float *out, const float *in, int n) {
  __requires(n == 64 && blockDim.x == TILE && blockDim.y == TILE);
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[AT(y, x, n)];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < n && y < n) out[AT(y, x, n)] = tile[threadIdx.x][threadIdx.y];
}
