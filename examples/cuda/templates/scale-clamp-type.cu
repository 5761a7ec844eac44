// expect: drf
// A kernel templated on its element type, with a templated device helper and
// two explicit instantiations (float and int). Type parameters do not change
// what is accessed: thread i reads and writes data[i] only.
template <typename T>
__device__ T clamp_value(T v, T lo, T hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T>
__global__ void scale_clamp(T *data, T factor, T lo, T hi, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = clamp_value<T>(data[i] * factor, lo, hi);
}

template __global__ void scale_clamp<float>(float *, float, float, float, int);
template __global__ void scale_clamp<int>(int *, int, int, int, int);
