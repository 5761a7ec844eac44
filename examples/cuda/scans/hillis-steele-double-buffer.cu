// expect: drf
// Inclusive scan of each block's BLOCK elements, Hillis-Steele with two
// buffers: step d reads buffer d & 1 and writes the other one, so no element
// is read and written in the same step; a barrier ends every step. The buffer
// is picked from the loop counter (not toggled in a variable), and the block
// size is fixed so that the LOG_BLOCK steps cover it.
// Racy twin: hillis-steele-in-place.cu.
#define BLOCK 256
#define LOG_BLOCK 8

__global__ void scan_double_buffer(const float *in, float *out, int n)
{
    __requires(blockDim.x == BLOCK);
    __shared__ float buf[2][BLOCK];
    int tid = threadIdx.x;
    int g = blockIdx.x * BLOCK + threadIdx.x;
    buf[0][tid] = (g < n) ? in[g] : 0.0f;
    __syncthreads();
    for (int d = 0; d < LOG_BLOCK; ++d) {
        int offset = 1 << d;
        int src = d & 1;
        int dst = 1 - src;
        if (tid >= offset)
            buf[dst][tid] = buf[src][tid] + buf[src][tid - offset];
        else
            buf[dst][tid] = buf[src][tid];
        __syncthreads();
    }
    if (g < n)
        out[g] = buf[LOG_BLOCK & 1][tid];
}
