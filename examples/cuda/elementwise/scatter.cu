// expect: racy confirmed
// Scatter through an index array: out[idx[i]] = in[i]. Two threads race on out
// exactly when idx holds the same value twice (not a permutation); the index
// comes from memory, so the verifier alone cannot prove the race; the run of
// its witness with every array zero-filled (idx all 0) shows it: confirmed by
// a run.
// Twin: gather.cu.
__global__ void scatter(const int *idx, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[idx[i]] = in[i];
}
