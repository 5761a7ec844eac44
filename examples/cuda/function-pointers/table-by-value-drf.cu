// expect: drf
// A const table indexed by a thread-dependent value whose functions each
// touch only the thread's own element: either choice is race-free, so the
// over-approximation (notice N0621) still proves the kernel. Twin:
// table-by-value.cu.
typedef void (*op_t)(int *, unsigned);
__device__ void own(int *a, unsigned i) { a[i] = i; }
__device__ void twice(int *a, unsigned i) { a[i] = 2 * a[i]; }
__device__ const op_t ops[] = {own, twice};
__global__ void apply(int *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  ops[threadIdx.x % 2](a, i);
}
