// expect: drf
//--blockDim=[16,16] --gridDim=[8,8]
// Transposes every 16 x 16 tile of a matrix in place (a blocked layout
// change): the block stages its tile in shared memory, then only the threads
// above the diagonal (ty < tx) swap tile[ty][tx] and tile[tx][ty]. Two such
// threads would share a slot only if (ty', tx') = (tx, ty), which would put
// the other one below the diagonal. Each thread reads and later writes its own
// m element. Racy twin: tiles-in-place-all-swap.cu.
#define T 16

__global__ void transpose_tiles_in_place(float *m)
{
    __shared__ float tile[T][T];
    int width = gridDim.x * T;
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * T + tx;
    int y = blockIdx.y * T + ty;
    tile[ty][tx] = m[y * width + x];
    __syncthreads();
    if (ty < tx) {
        float upper = tile[ty][tx];
        tile[ty][tx] = tile[tx][ty];
        tile[tx][ty] = upper;
    }
    __syncthreads();
    m[y * width + x] = tile[ty][tx];
}
