// expect: drf
// Inclusive scan of one block of n elements in the double-buffered style:
// the buffers' roles swap every step by `pout = 1 - pout; pin = 1 - pout;`,
// so each step reads the buffer the previous step wrote and writes the other,
// and a barrier ends each step. The toggle is followed exactly (pout is 0 at
// even steps, 1 at odd ones, from the loop's offset = 2^step).
// Racy twin: hillis-steele-toggle-no-sync.cu.
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
        __syncthreads();
    }
    out[thid] = temp[thid] + temp[n + thid];
}
