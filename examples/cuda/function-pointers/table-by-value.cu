// expect: racy possible
// A const table indexed by a thread-dependent value: faial-ts models the call
// as a call of either function (notice N0621), so the race it finds between
// `a[i + 1]` read in shift and `a[i] = i` written in own is possible (here it
// is real: odd threads shift, even ones write). Twin: table-by-value-drf.cu.
typedef void (*op_t)(int *, unsigned);
__device__ void own(int *a, unsigned i) { a[i] = i; }
__device__ void shift(int *a, unsigned i) { a[i] = a[i + 1]; }
__device__ const op_t ops[] = {own, shift};
__global__ void apply(int *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  ops[threadIdx.x % 2](a, i);
}
