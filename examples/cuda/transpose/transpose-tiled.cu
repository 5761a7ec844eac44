// expect: drf
//--blockDim=[16,16] --gridDim=[8,4] -DTILE=16
// Tiled transpose through a TILE x TILE shared tile: the block loads tile
// (bx, by) row by row, the barrier, then it stores the tile transposed at
// block position (by, bx). The input is width = gridDim.x * TILE wide and
// height = gridDim.y * TILE high; thread (x, y) writes one output element.
#ifndef TILE
#define TILE 32
#endif

__global__ void transpose_tiled(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int width = gridDim.x * TILE;
    int height = gridDim.y * TILE;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
