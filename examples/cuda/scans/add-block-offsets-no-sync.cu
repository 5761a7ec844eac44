// expect: racy confirmed
// add-block-offsets.cu without the barrier: thread 0 writes the shared scalar
// `offset` while thread 1 of the same block reads it (needs n >= 2).
// Fixed twin: add-block-offsets.cu.
__global__ void add_block_offsets_no_sync(float *data, const float *block_sums, int n)
{
    __shared__ float offset;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        offset = (blockIdx.x > 0) ? block_sums[blockIdx.x - 1] : 0.0f;
    if (i < n)
        data[i] += offset;
}
