// expect: drf
// Second pass of a multi-block scan: thread 0 loads the block's offset (the
// sum of all earlier blocks) into a scalar __shared__ variable, the barrier
// publishes it, then every thread adds it to its own element.
// Racy twin: add-block-offsets-no-sync.cu.
__global__ void add_block_offsets(float *data, const float *block_sums, int n)
{
    __shared__ float offset;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        offset = (blockIdx.x > 0) ? block_sums[blockIdx.x - 1] : 0.0f;
    __syncthreads();
    if (i < n)
        data[i] += offset;
    __threadfence();
}
