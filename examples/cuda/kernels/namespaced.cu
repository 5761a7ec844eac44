// expect: drf
// Kernels declared in a namespace, a nested namespace, an anonymous one and
// as a static member of a class; reported as ops::fill, ops::detail::copy,
// clear and Ops::negate. Each thread touches its own element.
// Racy twin: namespaced-racy.cu.
namespace ops {
__device__ int at(int i) { return i; }
__global__ void fill(int *a) { a[at(threadIdx.x)] = 1; }
namespace detail {
__global__ void copy(int *dst, const int *src) { dst[threadIdx.x] = src[threadIdx.x]; }
}
}
namespace {
__global__ void clear(int *a) { a[threadIdx.x] = 0; }
}
struct Ops {
    static __global__ void negate(int *a) { a[threadIdx.x] = -a[threadIdx.x]; }
};
