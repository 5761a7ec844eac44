// expect: drf
// A local function pointer and a const __device__ table indexed by a
// constant: each call has one target, inlined. Every thread writes only its
// own element a[i] (through `f`) and b[i] (through `ops[0]`). Twin:
// local-pointer-racy.cu, whose pointer holds `shift`.
typedef void (*op_t)(int *, unsigned);
__device__ void own(int *a, unsigned i) { a[i] = i; }
__device__ void shift(int *a, unsigned i) { a[i] = a[i + 1]; }
__device__ const op_t ops[] = {own, shift};
__global__ void apply(int *a, int *b) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  op_t f = own;
  f(a, i);
  ops[0](b, i);
}
