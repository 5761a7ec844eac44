// expect: racy confirmed
// constexpr-tile.cu launched with blocks of 2 * ROWS rows: thread (0, ROWS)
// writes row ROWS of the tile in its first step, as thread (0, 0) does in its
// second (a race within a block, at the launch the host code makes, whose
// sizes are constexpr names). Fixed twin: constexpr-tile.cu.
constexpr int TILE = 32;
static constexpr int ROWS = 8;

__global__ void transpose(float *out, const float *in, int width) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) tile[threadIdx.y + r][threadIdx.x] = in[(y + r) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int r = 0; r < TILE; r += ROWS) out[(y + r) * width + x] = tile[threadIdx.x][threadIdx.y + r];
}

int main() {
  float *out, *in;
  dim3 block(TILE, 2 * ROWS);
  dim3 grid(128 / TILE, 128 / TILE);
  transpose<<<grid, block>>>(out, in, 128);
  return 0;
}
