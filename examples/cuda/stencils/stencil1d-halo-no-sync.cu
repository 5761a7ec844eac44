// expect: racy confirmed
// stencil1d-halo.cu without the barrier between staging and computing: thread
// 1 writes its interior slot s[1 + RADIUS] while thread 0 reads s[0 + RADIUS
// + 1] for its right neighbour, in the same phase (n >= 1).
// Fixed twin: stencil1d-halo.cu.
#define RADIUS 3
#define BLOCK 128

__constant__ float weights[2 * RADIUS + 1];

__global__ void stencil_1d_no_sync(const float *in, float *out, int n)
{
    __requires(blockDim.x == BLOCK);
    __shared__ float s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x;
    int l = threadIdx.x + RADIUS;
    s[l] = (g < n) ? in[g] : 0.0f;
    if (threadIdx.x < RADIUS) {
        int left = g - RADIUS;
        int right = g + BLOCK;
        s[l - RADIUS] = (left >= 0) ? in[left] : 0.0f;
        s[l + BLOCK] = (right < n) ? in[right] : 0.0f;
    }
    if (g < n) {
        float r = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            r += weights[k + RADIUS] * s[l + k];
        out[g] = r;
    }
}
