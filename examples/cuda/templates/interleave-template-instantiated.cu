// expect: drf
// interleave-template.cu with an explicit instantiation for 4 channels,
// channel 1: thread i writes out[4 * i + 1] only, distinct for every i.
template <int CHANNELS, int CHANNEL>
__global__ void interleave_channel(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i * CHANNELS + CHANNEL] = in[i];
}

template __global__ void interleave_channel<4, 1>(const float *, float *, int);
