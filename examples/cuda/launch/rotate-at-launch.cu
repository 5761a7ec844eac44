// expect: drf
// Each block rotates its chunk of BLOCK elements left by one through shared
// memory. Written for blocks of BLOCK threads: with larger blocks, thread
// BLOCK of block b writes the element of thread 0 of block b + 1. The host
// code below launches it with BLOCK threads, so it is verified at that launch
// (note N0620; `--any-launch` verifies every launch and finds that race).
// Racy twin: rotate-wrong-launch.cu.
#define BLOCK 128

__global__ void rotate(float *data) {
  __shared__ float tile[BLOCK];
  unsigned t = threadIdx.x;
  tile[t] = data[blockIdx.x * BLOCK + t];
  __syncthreads();
  data[blockIdx.x * BLOCK + t] = tile[(t + 1) % BLOCK];
}

void rotate_all(float *data, int n) {
  dim3 block(BLOCK);
  rotate<<<n / BLOCK, block>>>(data);
}
