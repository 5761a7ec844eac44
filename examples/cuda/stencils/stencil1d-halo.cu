// expect: drf
// Weighted 1-D stencil of radius RADIUS (weights in __constant__ memory): the
// block stages BLOCK inputs plus a halo of RADIUS on each side in shared
// memory; threads tid < RADIUS also load one left and one right halo element
// (slots 0..RADIUS-1 and BLOCK+RADIUS..), disjoint from the interior slots
// tid + RADIUS. A barrier, then each thread reads its 2*RADIUS+1 neighbours.
// __requires: the halo slots are placed with BLOCK, so the block must have
// exactly BLOCK threads (with one more, its interior slot would be a halo slot).
#define RADIUS 3
#define BLOCK 128

__constant__ float weights[2 * RADIUS + 1];

__global__ void stencil_1d(const float *in, float *out, int n)
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
    __syncthreads();
    if (g < n) {
        float r = 0.0f;
        for (int k = -RADIUS; k <= RADIUS; ++k)
            r += weights[k + RADIUS] * s[l + k];
        out[g] = r;
    }
}
