// expect: drf
//--blockDim=[32,8] --gridDim=[4,16]
// Horizontal 3-tap box blur of 8 rows per block: each row of threads stages
// its row in shared memory with one halo cell on each side, through a local
// pointer `row = tile + ty * (W + 2) + 1` into a flat __shared__ array, and
// device helpers that take that pointer (row[-1] and row[W] are the halos,
// loaded by the first and last thread of the row). Every tile slot has one
// writer; reads come after the barrier. The image is gridDim.x * W wide.
#define W 32
#define ROWS 8

__device__ void stage_row(float *row, const float *src, int x, int width, int tx)
{
    row[tx] = src[x];
    if (tx == 0)
        row[-1] = (x > 0) ? src[x - 1] : src[x];
    if (tx == W - 1)
        row[W] = (x + 1 < width) ? src[x + 1] : src[x];
}

__device__ float box3(const float *row, int tx)
{
    return (row[tx - 1] + row[tx] + row[tx + 1]) * (1.0f / 3.0f);
}

__global__ void box_blur_rows(const float *in, float *out, int height)
{
    __shared__ float tile[ROWS * (W + 2)];
    int width = gridDim.x * W;
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * W + tx;
    int y = blockIdx.y * ROWS + ty;
    float *row = tile + ty * (W + 2) + 1;
    if (y < height)
        stage_row(row, in + y * width, x, width, tx);
    __syncthreads();
    if (y < height)
        out[y * width + x] = box3(row, tx);
}
