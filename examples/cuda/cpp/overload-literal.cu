// expect: drf
// 0x7FFFFFFF fits an int: put(int *, int) runs and thread i writes a[i].
// Racy twin: overload-literal-racy.cu.
__device__ void put(int *a, int v) { a[threadIdx.x] = v; }
__device__ void put(int *a, unsigned int v) { a[0] = threadIdx.x + v; }

__global__ void fill_mask(int *a)
{
    put(a, 0x7FFFFFFF);
}
