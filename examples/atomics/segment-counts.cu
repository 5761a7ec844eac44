// expect: drf
// Counts the elements of each segment of `seg` consecutive elements that are
// above a threshold, with atomicAdd into one global counter per segment:
// threads of one block and of different blocks add into the same counter, but
// two atomics never race. The old value atomicAdd returns is not used.
// Racy twin: segment-counts-plain.cu.
__global__ void segment_counts(const int *data, unsigned int *counts, int seg, int threshold, int n)
{
    __requires(seg > 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && data[i] > threshold)
        atomicAdd(&counts[i / seg], 1u);
}
