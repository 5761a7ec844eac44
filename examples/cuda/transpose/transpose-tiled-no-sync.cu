// expect: racy confirmed
//--blockDim=[16,16] --gridDim=[8,4] -DTILE=16
// transpose-tiled.cu without the barrier between filling the tile and reading
// it transposed: thread (x=1, y=0) writes tile[0][1] while thread (x=0, y=1)
// reads tile[0][1] (it reads tile[x][y]) in the same phase.
// Fixed twin: transpose-tiled.cu.
#ifndef TILE
#define TILE 32
#endif

__global__ void transpose_tiled_no_sync(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE];
    int width = gridDim.x * TILE;
    int height = gridDim.y * TILE;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * height + x] = tile[threadIdx.x][threadIdx.y];
}
