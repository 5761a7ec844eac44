// expect: racy confirmed
// The overloads of overload-by-pointer.cu, with the kernel now passing an int
// pointer: C++ calls `store(int *, …)`, whose every thread writes p[0]. Before,
// faial-ts took the first definition with two parameters whatever the
// argument types (here the float overload, each thread its own element) and
// proved the racy kernel DRF. Race-free twin: overload-by-pointer.cu.
__device__ void store(float *p, unsigned i) { p[i] = 1.0f; }
__device__ void store(int *p, unsigned i) { p[0] = i; }

__global__ void fill(int *rows) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  store(rows, t);
}
