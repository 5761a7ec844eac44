// expect: drf
//--blockDim=[16,16] --gridDim=[8,8]
// 5-point Laplacian on a (BY+2) x (BX+2) shared tile: every thread loads its
// interior cell, the threads on the tile's edges also load the halo cell next
// to them (left column by tx == 0, right by tx == BX-1, top row by ty == 0,
// bottom by ty == BY-1); each tile cell has exactly one writer. Reads are
// clamped at the border of the grid with ?:. The field is gridDim.x * BX
// wide; its height is a parameter (rows beyond it are not stored).
#define BX 16
#define BY 16

__global__ void laplace_2d(const float *u, float *lap, int height)
{
    __shared__ float s[BY + 2][BX + 2];
    int width = gridDim.x * BX;
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BX + tx;
    int y = blockIdx.y * BY + ty;
    int cy = (y < height) ? y : height - 1;
    int up = (cy > 0) ? cy - 1 : 0;
    int down = (cy + 1 < height) ? cy + 1 : cy;
    int left = (x > 0) ? x - 1 : 0;
    int right = (x + 1 < width) ? x + 1 : x;

    s[ty + 1][tx + 1] = u[cy * width + x];
    if (tx == 0)
        s[ty + 1][0] = u[cy * width + left];
    if (tx == BX - 1)
        s[ty + 1][BX + 1] = u[cy * width + right];
    if (ty == 0)
        s[0][tx + 1] = u[up * width + x];
    if (ty == BY - 1)
        s[BY + 1][tx + 1] = u[down * width + x];
    __syncthreads();

    if (y < height)
        lap[y * width + x] = s[ty][tx + 1] + s[ty + 2][tx + 1] + s[ty + 1][tx]
                           + s[ty + 1][tx + 2] - 4.0f * s[ty + 1][tx + 1];
}
