// expect: racy confirmed
//--blockDim=256 --gridDim=32
// Per-block 256-bin byte histogram in shared memory with a plain `+=` (no
// atomics). Two threads of a block whose bytes are equal both read and write
// hist[byte] in the same phase: a race, but whether two bytes are equal is
// data, so the verifier alone cannot prove it; zero-filled bytes are equal,
// and the run of the witness shows it: confirmed by a run. Clearing hist[tid] and writing the block's
// bins out (one slot per thread, after barriers) are race free.
// Fixed twin: histogram-per-thread-bins.cu.
#define NBINS 256

__global__ void __launch_bounds__(NBINS) histogram_shared(const unsigned char *data, unsigned int *partial, int n)
{
    __shared__ unsigned int hist[NBINS];
    hist[threadIdx.x] = 0;
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        hist[data[i]] += 1;
    __syncthreads();
    partial[blockIdx.x * NBINS + threadIdx.x] = hist[threadIdx.x];
}
