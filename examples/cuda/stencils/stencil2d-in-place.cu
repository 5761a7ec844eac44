// expect: racy confirmed
//--blockDim=[16,16] --gridDim=[4,4]
// One Jacobi sweep done in place on global memory: thread (x, y) reads its
// four neighbours from u and overwrites u[y][x]. Thread (x=1, y=1) reads
// u[1 * width + 2] while thread (x=2, y=1) writes it, unordered (width >= 4,
// height >= 3). The fix is a second buffer (stencil2d-halo.cu writes lap).
__global__ void jacobi_in_place(float *u, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < width - 1 && y < height - 1) {
        int c = y * width + x;
        u[c] = 0.25f * (u[c - 1] + u[c + 1] + u[c - width] + u[c + width]);
    }
}
