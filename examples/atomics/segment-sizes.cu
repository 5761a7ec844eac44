// expect: drf
// segment-sizes-plain.cu with atomicAdd_block, the block-scoped form (within
// one launch the scope does not change which accesses race; faial-ts treats
// every atomic alike), and atomicInc wrapping at a limit for a second count.
// Racy twin: segment-sizes-plain.cu.
__global__ void segment_sizes(unsigned int *counts, unsigned int *ring, int seg, int n)
{
    __requires(seg > 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd_block(&counts[i / seg], 1u);
        atomicInc(&ring[0], 15u);
    }
}
