// expect: racy confirmed
//--blockDim=[64,4] --gridDim=[4,32]
// macro-index.cu with AT written without parentheses: AT(ty + 1, tx) expands
// to ty + 1 * TILE_W + tx, so thread (tx=1, ty=0) and thread (tx=0, ty=1) both
// write s[65] (the access is in the expansion of AT).
// Fixed twin: macro-index.cu.
#define TILE_W 64
#define TILE_H 4
#define AT(r, c) r * TILE_W + c
#define IDX(r, c, ld) ((r) * (ld) + (c))

__global__ void vertical_diff_unparenthesized(const float *in, float *out, int height)
{
    __shared__ float s[(TILE_H + 1) * TILE_W];
    int width = gridDim.x * TILE_W;
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * TILE_W + tx;
    int y = blockIdx.y * TILE_H + ty;
    bool inside = y < height;
    s[AT(ty + 1, tx)] = inside ? in[IDX(y, x, width)] : 0.0f;
    if (ty == 0)
        s[AT(0, tx)] = (inside && y > 0) ? in[IDX(y - 1, x, width)] : 0.0f;
    __syncthreads();
    if (inside)
        out[IDX(y, x, width)] = s[AT(ty + 1, tx)] - s[AT(ty, tx)];
}
