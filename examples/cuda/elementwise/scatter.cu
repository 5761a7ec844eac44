// expect: racy possible
// Scatter through an index array: out[idx[i]] = in[i]. Two threads race on out
// exactly when idx holds the same value twice (not a permutation); the index
// comes from memory, so the race cannot be proved, only reported as possible.
// Twin: gather.cu.
__global__ void scatter(const int *idx, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[idx[i]] = in[i];
}
