// expect: drf
// Forward differences out[i] = in[i+1] - in[i]: thread i writes only out[i];
// in is only read. Fixed twin of adjacent-diff-in-place.cu.
__global__ void adjacent_diff(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        out[i] = in[i + 1] - in[i];
}
