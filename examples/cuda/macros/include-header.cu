// expect: drf
//--blockDim=[16,16] --gridDim=[8,8]
// 2x horizontal upsampling by linear interpolation, written with the helpers
// and macros of the local header common.cuh (IDX2, GLOBAL_X/Y, DECLARE_TILE,
// clamp_index, lerp). Each block stages a BLOCK_Y x (BLOCK_X + 1) tile of the
// input (the extra column by the threads with tx == BLOCK_X - 1), then thread
// (x, y) writes output pixels (2x, y) and (2x + 1, y) of a 2 * in_w wide image,
// in_w = gridDim.x * BLOCK_X.
#include <cuda_runtime.h>
#include "common.cuh"

__global__ void upsample_x2(const float *in, float *out, int height)
{
    DECLARE_TILE(src, BLOCK_Y, BLOCK_X + 1);
    int in_w = gridDim.x * BLOCK_X;
    int x = GLOBAL_X();
    int y = clamp_index(GLOBAL_Y(), 0, height - 1);
    int tx = threadIdx.x, ty = threadIdx.y;
    src_tile[ty][tx] = in[IDX2(y, x, in_w)];
    if (tx == BLOCK_X - 1)
        src_tile[ty][BLOCK_X] = in[IDX2(y, clamp_index(x + 1, 0, in_w - 1), in_w)];
    __syncthreads();
    if (GLOBAL_Y() < height) {
        float a = src_tile[ty][tx];
        float b = src_tile[ty][tx + 1];
        out[IDX2(GLOBAL_Y(), 2 * x, 2 * in_w)] = a;
        out[IDX2(GLOBAL_Y(), 2 * x + 1, 2 * in_w)] = lerp(a, b, 0.5f);
    }
}
