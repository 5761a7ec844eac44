// expect: drf
// Packs a float array into float2 pairs: even elements go to out[i / 2].x,
// odd ones to out[i / 2].y. Threads 2k and 2k+1 write the same float2 but
// different fields, which are different locations. The index is unsigned on
// purpose: with int i, global id 2^32 - 1 (a grid of 2^32 threads) would be
// i = -1, take the odd branch, and write out[-1 / 2] = out[0].y like thread 1.
// Racy twin: pack-pairs-same-field.cu.
__global__ void pack_pairs(const float *in, float2 *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i % 2 == 0)
            out[i / 2].x = in[i];
        else
            out[i / 2].y = in[i];
    }
}
