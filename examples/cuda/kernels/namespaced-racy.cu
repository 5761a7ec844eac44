// expect: racy confirmed
// Kernels of namespaced.cu writing one element from two threads:
// ops::fill writes a[0] in every thread, Ops::pairs writes a[t / 2] in
// threads 2j and 2j + 1, with different values (write-write races).
namespace ops {
__global__ void fill(int *a) { a[0] = threadIdx.x; }
}
struct Ops {
    static __global__ void pairs(int *a) { a[threadIdx.x / 2] = threadIdx.x; }
};
