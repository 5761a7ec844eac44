// expect: drf
//--blockDim=256 --gridDim=64
// 3-point moving average configured by the preprocessor: RADIUS selects the
// weight through #if/#elif (the #error branch is skipped), and IN_PLACE
// (default 0) chooses the destination through a local pointer alias. Out of
// place, thread i reads data[i-1..i+1] and writes only out[i].
// Racy configuration: config-if-in-place.cu (-DIN_PLACE=1).
#ifndef IN_PLACE
#define IN_PLACE 0
#endif

#define RADIUS 1
#if RADIUS == 1
#define WEIGHT (1.0f / 3.0f)
#elif RADIUS == 2
#define WEIGHT 0.2f
#else
#error "unsupported RADIUS"
#endif

#if defined(USE_FAST_MATH) && !IN_PLACE
#define SCALE(v) __fmul_rn((v), WEIGHT)
#else
#define SCALE(v) ((v) * WEIGHT)
#endif

__global__ void moving_average(float *data, float *out, int n)
{
#if IN_PLACE
    float *dst = data;
#else
    float *dst = out;
#endif
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= RADIUS && i < n - RADIUS) {
        float acc = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            acc += data[i + k];
        dst[i] = SCALE(acc);
    }
}
