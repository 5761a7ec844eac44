// expect: drf
// The SharedMemory<T> idiom: `extern __shared__` cannot be declared with a
// template type, so a small struct's conversion operator hands out one untyped
// dynamic buffer as a T*. The kernel reverses each block's segment: phase 1
// writes buf[tid], phase 2 (after the barrier) reads buf[blockDim.x - 1 - tid]
// and writes the thread's own out[i].
template <typename T>
struct SharedMemory {
    __device__ inline operator T *()
    {
        extern __shared__ int smem_raw[];
        return reinterpret_cast<T *>(smem_raw);
    }
};

template <typename T>
__global__ void block_reverse(const T *in, T *out, unsigned int n)
{
    T *buf = SharedMemory<T>();
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    buf[tid] = (i < n) ? in[i] : static_cast<T>(0);
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - tid];
}

template __global__ void block_reverse<float>(const float *, float *, unsigned int);
