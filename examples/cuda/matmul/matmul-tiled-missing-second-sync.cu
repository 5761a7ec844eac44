// expect: racy confirmed
//--blockDim=[16,16] --gridDim=[4,4] -DTILE=16
// matmul-tiled.cu without the barrier at the end of each iteration: thread
// (tx=0, ty=0) reads As[0][1] in iteration t while thread (tx=1, ty=0)
// overwrites As[0][1] at the start of iteration t + 1; only the first barrier
// lies between them, and it does not separate iteration t's reads from
// iteration t+1's writes (n = 64 here: four iterations).
// Fixed twin: matmul-tiled.cu.
#ifndef TILE
#define TILE 16
#endif

__global__ void matmul_tiled_missing_sync(const float *A, const float *B, float *C, int n)
{
    __requires(n == gridDim.x * TILE);
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        As[ty][tx] = (row < n && a_col < n) ? A[row * n + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < n && col < n) ? B[b_row * n + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
    }
    if (row < n && col < n)
        C[row * n + col] = acc;
}
