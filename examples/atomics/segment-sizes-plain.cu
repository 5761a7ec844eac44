// expect: racy possible
// Every thread counts itself into its segment's counter with a plain `+=`:
// threads 0 and 1 (seg >= 2) both read and write counts[0] in the same phase,
// whatever the data. The race is reported as possible only because the
// incremented value, counts[0] + 1, is read from memory: an unsigned addition
// past 2^32 is outside the scope of a proof (see Machine integers), and
// whether it happens depends on that value. (ticket-then-read.cu is a
// confirmed race between an atomic and a plain read.)
// Fixed twin: segment-sizes.cu.
__global__ void segment_sizes_plain(unsigned int *counts, int seg, int n)
{
    __requires(seg > 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        counts[i / seg] += 1;
}
