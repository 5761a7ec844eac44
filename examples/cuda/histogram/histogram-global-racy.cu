// expect: racy confirmed
// Histogram straight into global memory with a plain increment: threads (of
// one block or of two) whose keys fall into the same bin both read and write
// bins[b]. The bin is computed from a key read from memory, so the verifier
// alone cannot prove the race; zero-filled keys all fall into bin 0, and the
// run of the witness shows it: confirmed by a run.
__global__ void histogram_global(const int *keys, int *bins, int nbins, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int b = keys[i] % nbins;
        if (b < 0)
            b += nbins;
        bins[b] = bins[b] + 1;
    }
}
