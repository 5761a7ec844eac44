// expect: racy confirmed
// Overloads chosen by the type C gives a literal: 0xFFFFFFFF does not fit an
// int, so it is an unsigned int and put(int *, unsigned) runs, in which every
// thread writes a[0] (thread 0 writes 4294967295 + 0, thread 1 4294967295 + 1).
// Reading the literal as an int once ran put(int *, int) and proved this DRF.
// Race-free twin: overload-literal.cu.
__device__ void put(int *a, int v) { a[threadIdx.x] = v; }
__device__ void put(int *a, unsigned int v) { a[0] = threadIdx.x + v; }

__global__ void fill_mask(int *a)
{
    put(a, 0xFFFFFFFF);
}
