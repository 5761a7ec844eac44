// expect: drf
//--blockDim=[32,8] --gridDim=[4,8]
// Tiled transpose with a padded tile (TILE + 1 columns, against shared-memory
// bank conflicts) and fewer threads than tile elements: a 32 x 8 block walks
// the 32 x 32 tile in steps of BLOCK_ROWS rows, so thread (x, y) owns tile rows
// y, y + 8, y + 16 and y + 24 when loading, and the same output rows when
// storing. The matrix is gridDim.x * TILE wide and gridDim.y * TILE high.
#define TILE 32
#define BLOCK_ROWS 8

__global__ void transpose_padded(const float *in, float *out)
{
    __shared__ float tile[TILE][TILE + 1];
    int width = gridDim.x * TILE;
    int height = gridDim.y * TILE;
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += BLOCK_ROWS)
        out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}
