// Shared helpers for the macro examples (not a kernel file): an include guard,
// object-like and function-like macros, token pasting, and device helpers.
#ifndef EXAMPLES_COMMON_CUH
#define EXAMPLES_COMMON_CUH

#define BLOCK_X 16
#define BLOCK_Y 16

// row-major element (row, col) of a matrix with leading dimension ld
#define IDX2(row, col, ld) ((row) * (ld) + (col))
#define GLOBAL_X() (blockIdx.x * blockDim.x + threadIdx.x)
#define GLOBAL_Y() (blockIdx.y * blockDim.y + threadIdx.y)

// declares a shared tile called <name>_tile
#define DECLARE_TILE(name, rows, cols) __shared__ float name##_tile[rows][cols]

__device__ inline int clamp_index(int i, int lo, int hi)
{
    return i < lo ? lo : (i > hi ? hi : i);
}

__device__ inline float lerp(float a, float b, float t)
{
    return a + t * (b - a);
}

#endif
