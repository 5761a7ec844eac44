// expect: drf
// Gather through an index array: out[i] = in[idx[i]]. The index is read from
// memory, but it only selects what is read; each thread writes its own out[i],
// so the kernel is race free whatever idx holds. Twin: scatter.cu.
__global__ void gather(const int *idx, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[idx[i]];
}
