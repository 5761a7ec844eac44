// expect: racy confirmed
// odd-even-transposition.cu with i = tid + (phase & 1) instead of
// 2*tid + (phase & 1): neighbouring threads' pairs overlap. In phase 0 thread 0
// orders (s[0], s[1]) and thread 1 orders (s[1], s[2]): both write s[1].
// Fixed twin: odd-even-transposition.cu.
#define N 256

__device__ void order_pair(int *s, int i)
{
    int a = s[i];
    int b = s[i + 1];
    s[i] = (a < b) ? a : b;
    s[i + 1] = (a < b) ? b : a;
}

__global__ void odd_even_sort_overlap(int *keys)
{
    __requires(blockDim.x == N / 2);
    // the unsigned blockIdx.x * N wraps modulo 2^32 beyond 2^32 / N blocks
    // (blocks would then also race on global memory, as the twin says)
    __requires(gridDim.x <= 4294967296 / N);
    __shared__ int s[N];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * N;
    s[tid] = keys[base + tid];
    s[tid + N / 2] = keys[base + tid + N / 2];
    __syncthreads();
    for (int phase = 0; phase < N; ++phase) {
        int i = tid + (phase & 1);
        if (i + 1 < N)
            order_pair(s, i);
        __syncthreads();
    }
    keys[base + tid] = s[tid];
    keys[base + tid + N / 2] = s[tid + N / 2];
}
