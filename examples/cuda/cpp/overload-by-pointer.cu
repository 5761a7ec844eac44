// expect: drf
// Two overloads of one helper differ only in their pointer's element type:
// `store(int *, …)` writes element 0, `store(float *, …)` the thread's own
// element. The kernel passes a float pointer, so C++ calls the float
// overload: faial-ts chooses it by the argument's declared type. Racy twin: overload-by-pointer-racy.cu.
__device__ void store(int *p, unsigned i) { p[0] = i; }
__device__ void store(float *p, unsigned i) { p[i] = 1.0f; }

__global__ void fill(float *rows) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  store(rows, t);
}
