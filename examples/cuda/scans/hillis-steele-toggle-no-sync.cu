// expect: racy confirmed
// The double-buffered scan without the barrier that ends each step: step 0
// (offset 1, pout = 1) writes buffer 1, which step 1 (offset 2, pin = 1)
// reads, so thread 1 writing temp[n + 1] in step 0 races with thread 3
// reading temp[n + 3 - 2] in step 1.
// Race-free twin: hillis-steele-toggle.cu.
__global__ void scan_toggle(float *out, const float *in, int n)
{
    __requires(blockDim.x == 256);
    __requires(n == 256);
    extern __shared__ float temp[];
    int thid = threadIdx.x;
    int pout = 0, pin = 1;
    temp[pout * n + thid] = in[thid];
    __syncthreads();
    for (int offset = 1; offset < n; offset *= 2) {
        pout = 1 - pout;
        pin = 1 - pout;
        if (thid >= offset)
            temp[pout * n + thid] = temp[pin * n + thid] + temp[pin * n + thid - offset];
        else
            temp[pout * n + thid] = temp[pin * n + thid];
    }
    __syncthreads();
    out[thid] = temp[thid] + temp[n + thid];
}
