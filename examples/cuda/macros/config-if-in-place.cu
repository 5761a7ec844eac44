// expect: racy confirmed
//--blockDim=256 --gridDim=64 -DIN_PLACE=1
// config-if.cu, the same text, built with -DIN_PLACE=1 (from the header line):
// dst is then an alias of data, so thread i writes data[i] while thread i + 1
// reads data[i] as its left neighbour (threads 1 and 2 on data[1], n >= 4).
// Safe configuration: config-if.cu.
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
