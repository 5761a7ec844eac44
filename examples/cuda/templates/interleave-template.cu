// expect: racy confirmed
// Scatters a plane into one channel of an interleaved buffer:
// out[i * CHANNELS + CHANNEL] = in[i], with both as template int parameters.
// Nothing instantiates the template here, so they are symbolic: with
// CHANNELS = 0 every thread writes out[CHANNEL] (e.g. threads 0 and 1, n >= 2).
// Instantiated twin: interleave-template-instantiated.cu.
template <int CHANNELS, int CHANNEL>
__global__ void interleave_channel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i * CHANNELS + CHANNEL] = in[i];
}
