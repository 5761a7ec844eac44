// expect: racy confirmed
// hillis-steele-double-buffer.cu done in one buffer: in the step with offset
// o, thread t reads s[t - o] while thread t - o (itself >= o) writes it, in
// the same phase (e.g. o = 1: thread 2 reads s[1], thread 1 writes s[1];
// blockDim.x >= 3). Fixed twin: hillis-steele-double-buffer.cu.
__global__ void scan_in_place(float *data, int n)
{
    extern __shared__ float s[];
    int tid = threadIdx.x;
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = (g < n) ? data[g] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < blockDim.x; offset *= 2) {
        if (tid >= offset)
            s[tid] += s[tid - offset];
        __syncthreads();
    }
    if (g < n)
        data[g] = s[tid];
}
