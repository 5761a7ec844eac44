// expect: drf
// typedef-reference-racy.cu with each thread's reference bound to its own
// element: `Cell c = a[threadIdx.x]` aliases a[threadIdx.x], so the write
// through it touches that element only.
typedef int &Cell;

__global__ void own_writer(int *a) {
  Cell c = a[threadIdx.x];
  c = threadIdx.x;
}
