// expect: racy confirmed
// rotate-at-launch.cu launched with blocks of 2 * BLOCK threads: thread
// BLOCK of block 0 and thread 0 of block 1 both write data[BLOCK] (a race
// between blocks, at the launch the host code makes).
// Fixed twin: rotate-at-launch.cu.
#define BLOCK 128

__global__ void rotate(float *data) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  tile[t] = data[blockIdx.x * BLOCK + t];
  __syncthreads();
  data[blockIdx.x * BLOCK + t] = tile[(t + 1) % BLOCK];
}

void rotate_all(float *data, int n) {
  const int threads = 2 * BLOCK;
  rotate<<<n / threads, threads>>>(data);
}
