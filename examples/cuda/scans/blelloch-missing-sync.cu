// expect: racy confirmed
// blelloch.cu without the barrier inside the up-sweep loop: the load and all
// up-sweep levels form one phase. Thread 1 writes temp[3] at stride 1
// (idx = 3) and thread 0 reads and writes temp[3] at stride 2 (idx = 3).
// Fixed twin: blelloch.cu.
#define N 512

__global__ void scan_blelloch_missing_sync(const float *in, float *out)
{
    __requires(blockDim.x == N / 2);
    // the unsigned blockIdx.x * N wraps modulo 2^32 beyond 2^32 / N blocks
    // (blocks would then also race on global memory, as the twin says)
    __requires(gridDim.x <= 4294967296 / N);
    __shared__ float temp[N];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * N;
    temp[2 * tid] = in[base + 2 * tid];
    temp[2 * tid + 1] = in[base + 2 * tid + 1];

    for (unsigned int stride = 1; stride < N; stride <<= 1) {
        unsigned int idx = (tid + 1) * stride * 2 - 1;
        if (idx < N)
            temp[idx] += temp[idx - stride];
    }
    __syncthreads();
    if (tid == 0)
        temp[N - 1] = 0.0f;

    for (unsigned int stride = N / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned int idx = (tid + 1) * stride * 2 - 1;
        if (idx < N) {
            float t = temp[idx - stride];
            temp[idx - stride] = temp[idx];
            temp[idx] += t;
        }
    }
    __syncthreads();
    out[base + 2 * tid] = temp[2 * tid];
    out[base + 2 * tid + 1] = temp[2 * tid + 1];
}
