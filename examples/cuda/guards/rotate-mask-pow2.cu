// expect: drf
// Rotates each block's values by `shift` slots, wrapping with a mask instead
// of %: slot (tid + shift) & (blockDim.x - 1). That is (tid + shift) mod
// blockDim.x, a permutation of the block's slots, only when blockDim.x is a
// power of two, which the __requires states. Racy twin: rotate-mask.cu.
__global__ void rotate_mask(const int *in, int *out, unsigned int shift)
{
    __requires((blockDim.x & (blockDim.x - 1)) == 0);
    extern __shared__ int ring[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    ring[(tid + shift) & (blockDim.x - 1)] = in[i];
    __syncthreads();
    out[i] = ring[tid];
}
