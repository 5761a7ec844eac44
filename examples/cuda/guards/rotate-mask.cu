// expect: racy confirmed
// rotate-mask-pow2.cu without the power-of-two requirement: with blockDim.x =
// 3 the mask is 2, and for shift = 0 threads 0 and 1 both write ring[0]
// (0 & 2 = 1 & 2 = 0). Fixed twin: rotate-mask-pow2.cu.
__global__ void rotate_mask_any_size(const int *in, int *out, unsigned int shift)
{
    extern __shared__ int ring[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    ring[(tid + shift) & (blockDim.x - 1)] = in[i];
    __syncthreads();
    out[i] = ring[tid];
}
