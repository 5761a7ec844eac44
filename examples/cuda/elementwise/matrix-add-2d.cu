// expect: drf
//--blockDim=[16,16] --gridDim=[8,4]
// C = A + B on a row-major matrix whose width is exactly the grid's width in
// threads (gridDim.x * blockDim.x) and whose height is a parameter. Thread
// (col, row) touches only element row * width + col, with col < width.
__global__ void matrix_add(const float *A, const float *B, float *C, int height)
{
    int width = gridDim.x * blockDim.x;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < height) {
        int idx = row * width + col;
        C[idx] = A[idx] + B[idx];
    }
}
