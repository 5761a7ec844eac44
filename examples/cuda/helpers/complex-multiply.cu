// expect: drf
// Element-wise product of complex vectors stored as interleaved (re, im)
// floats, written with device helpers that take array pointers: a helper
// calling helpers, a local pointer `dst = c + 2 * k` into the output, and
// writes through it. Thread k touches only c[2k] and c[2k + 1].
// Racy twin: complex-multiply-overlap.cu.
__device__ inline float re_of(const float *v, int k) { return v[2 * k]; }
__device__ inline float im_of(const float *v, int k) { return v[2 * k + 1]; }

__device__ void store_complex(float *dst, float re, float im)
{
    dst[0] = re;
    dst[1] = im;
}

__device__ void cmul_at(const float *a, const float *b, float *c, int k)
{
    float ar = re_of(a, k), ai = im_of(a, k);
    float br = re_of(b, k), bi = im_of(b, k);
    float *dst = c + 2 * k;
    store_complex(dst, ar * br - ai * bi, ar * bi + ai * br);
}

__global__ void complex_multiply(const float *a, const float *b, float *c, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        cmul_at(a, b, c, k);
}
