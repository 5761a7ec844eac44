// expect: racy confirmed
// complex-multiply.cu with the output pointer offset by k instead of 2 * k:
// thread k writes c[k] and c[k + 1], so thread 0 (through dst[1]) and thread 1
// (through dst[0]) both write c[1] (n >= 2). Fixed twin: complex-multiply.cu.
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
    float *dst = c + k;
    store_complex(dst, ar * br - ai * bi, ar * bi + ai * br);
}

__global__ void complex_multiply_overlap(const float *a, const float *b, float *c, int n)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < n)
        cmul_at(a, b, c, k);
}
