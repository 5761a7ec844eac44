// expect: racy confirmed
// Every thread counts itself into its segment's counter with a plain `+=`:
// threads 0 and 1 (seg >= 2) both read and write counts[0] in the same phase,
// whatever the data. The incremented value, counts[0] + 1, is an unsigned
// sum, which C defines for every content (it wraps around past 2^32 - 1), so
// the race is confirmed. (ticket-then-read.cu is a confirmed race between an
// atomic and a plain read.)
// Fixed twin: segment-sizes.cu.
__global__ void segment_sizes_plain(unsigned int *counts, int seg, int n)
{
    __requires(seg > 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        counts[i / seg] += 1;
}
