// expect: racy confirmed
//--blockDim=[16,16] --gridDim=[4,4]
// Naive in-place transpose of the N x N matrix (N = 64, the grid's extent):
// thread (row, col) copies m[col][row] into m[row][col]. Thread (row=0, col=1)
// writes m[1] while thread (row=1, col=0) reads m[0 * N + 1] = m[1],
// unordered. The out-of-place transpose-tiled.cu does not have the problem.
#define N 64

__global__ void transpose_in_place(float *m)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < N && col < N)
        m[row * N + col] = m[col * N + row];
}
