// expect: racy confirmed
//--blockDim=[16,16] --gridDim=[8,8]
// tiles-in-place.cu without the `ty < tx` test: both threads of a mirrored
// pair swap, so thread (tx=1, ty=0) and thread (tx=0, ty=1) both write
// tile[0][1] and tile[1][0] in the same phase.
// Fixed twin: tiles-in-place.cu.
#define T 16

__global__ void transpose_tiles_all_swap(float *m)
{
    __shared__ float tile[T][T];
    int width = gridDim.x * T;
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * T + tx;
    int y = blockIdx.y * T + ty;
    tile[ty][tx] = m[y * width + x];
    __syncthreads();
    float upper = tile[ty][tx];
    tile[ty][tx] = tile[tx][ty];
    tile[tx][ty] = upper;
    __syncthreads();
    m[y * width + x] = tile[ty][tx];
}
