// A 100-line kernel for `npm run bench` (bench/cuda.js): a tiled 2D heat
// step with halos, a block reduction of the change, and a device helper.
#define TILE 16
#define HALO 1
#define SIDE (TILE + 2 * HALO)

struct Grid {
  int width;
  int height;
  float alpha;
};

__device__ int clampi(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

__device__ int cell(int x, int y, int width) {
  return y * width + x;
}

__device__ float weight(float alpha, int k) {
  return alpha * (float)(k + 1);
}

__global__ void heat_step(const float *in, float *out, float *delta, int width, int height, float alpha) {
  __shared__ float tile[SIDE][SIDE];
  __shared__ float partial[TILE * TILE];

  int tx = threadIdx.x;
  int ty = threadIdx.y;
  int gx = blockIdx.x * TILE + tx;
  int gy = blockIdx.y * TILE + ty;
  int local = ty * TILE + tx;

  // interior of the tile
  int cx = clampi(gx, 0, width - 1);
  int cy = clampi(gy, 0, height - 1);
  tile[ty + HALO][tx + HALO] = in[cell(cx, cy, width)];

  // left and right halos
  if (tx < HALO) {
    int lx = clampi(gx - HALO, 0, width - 1);
    int rx = clampi(gx + TILE, 0, width - 1);
    tile[ty + HALO][tx] = in[cell(lx, cy, width)];
    tile[ty + HALO][tx + TILE + HALO] = in[cell(rx, cy, width)];
  }

  // top and bottom halos
  if (ty < HALO) {
    int uy = clampi(gy - HALO, 0, height - 1);
    int dy = clampi(gy + TILE, 0, height - 1);
    tile[ty][tx + HALO] = in[cell(cx, uy, width)];
    tile[ty + TILE + HALO][tx + HALO] = in[cell(cx, dy, width)];
  }
  __syncthreads();

  float centre = tile[ty + HALO][tx + HALO];
  float sum = 0.0f;
  for (int k = 0; k < 4; k++) {
    int ox = (k == 0) ? -1 : (k == 1) ? 1 : 0;
    int oy = (k == 2) ? -1 : (k == 3) ? 1 : 0;
    sum += weight(alpha, k) * (tile[ty + HALO + oy][tx + HALO + ox] - centre);
  }
  float next = centre + sum;

  if (gx < width && gy < height) {
    out[cell(gx, gy, width)] = next;
  }

  partial[local] = next - centre;
  __syncthreads();

  for (unsigned s = (TILE * TILE) / 2; s > 0; s >>= 1) {
    if (local < s) {
      partial[local] += partial[local + s];
    }
    __syncthreads();
  }

  if (local == 0) {
    int b = blockIdx.y * gridDim.x + blockIdx.x;
    delta[b] = partial[0];
  }
}

__global__ void scale(float *data, int n, float factor) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    data[i] = data[i] * factor;
  }
}

__global__ void copy_rows(const float *src, float *dst, int width, int rows) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  for (int r = 0; r < rows; r++) {
    dst[r * width + x] = src[r * width + x];
  }
}
