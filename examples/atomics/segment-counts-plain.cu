// expect: racy possible
// segment-counts.cu with a plain `+=`: two threads of one segment both read
// and write counts[i / seg]. Whether they count depends on the data they
// read (data[i] > threshold), so the race is possible.
// Fixed twin: segment-counts.cu.
__global__ void segment_counts_plain(const int *data, unsigned int *counts, int seg, int threshold, int n)
{
    __requires(seg > 0);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && data[i] > threshold)
        counts[i / seg] += 1;
}
