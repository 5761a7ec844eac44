// expect: drf
// A tiled transpose whose sizes are C++ constants, `constexpr int TILE = 32;`
// and `static constexpr int ROWS = 8;`, launched with `dim3 block(TILE,
// ROWS)`: verified at that launch, where each thread copies its column of
// rows r, r + ROWS, … of the tile. A launch of more than ROWS rows (or other
// than TILE columns) would race; before, a constexpr name was not read as a
// constant, so every block size was verified and the kernel got those alarms.
// Racy twin: constexpr-tile-wrong-launch.cu.
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
  dim3 block(TILE, ROWS);
  dim3 grid(128 / TILE, 128 / TILE);
  transpose<<<grid, block>>>(out, in, 128);
  return 0;
}
