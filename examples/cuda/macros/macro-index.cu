// expect: drf
//--blockDim=[64,4] --gridDim=[4,32]
// Vertical differences d[y][x] = in[y][x] - in[y-1][x] through a shared tile
// with one halo row on top, indexed by the function-like macro AT(r, c), fully
// parenthesised. Tile row ty + 1 belongs to thread row ty; row 0 is loaded by
// the threads with ty == 0; every slot has one writer. The image is
// gridDim.x * TILE_W wide. Racy twin: macro-index-unparenthesized.cu.
#define TILE_W 64
#define TILE_H 4
#define AT(r, c) ((r) * TILE_W + (c))
#define IDX(r, c, ld) ((r) * (ld) + (c))

__global__ void vertical_diff(const float *in, float *out, int height)
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
