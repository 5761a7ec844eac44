// expect: racy confirmed
// The local pointer holds `shift`: thread i reads a[i + 1] (in shift, called
// through `(*f)`) while thread i + 1 writes it, with no barrier between them.
// Twin: local-pointer.cu.
typedef void (*op_t)(int *, unsigned);
__device__ void own(int *a, unsigned i) { a[i] = i; }
__device__ void shift(int *a, unsigned i) { a[i] = a[i + 1]; }
__global__ void apply(int *a) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  op_t f = &shift;
  (*f)(a, i);
}
