// expect: drf
// Odd-even transposition sort of N keys per block by N / 2 threads: in phase p
// thread t orders the pair (i, i + 1) with i = 2*t + (p & 1); the pairs of one
// phase are disjoint, and a barrier ends every phase. Each thread loads and
// stores keys t and t + N/2 of its block. __requires: N / 2 threads per block
// (the block's keys are base .. base + N-1), and at most 2^32 / N blocks: the
// unsigned base = blockIdx.x * N wraps modulo 2^32 beyond, and block 2^24
// would then sort block 0's keys (a real race at such a grid).
#define N 256

__device__ void order_pair(int *s, int i)
{
    int a = s[i];
    int b = s[i + 1];
    s[i] = (a < b) ? a : b;
    s[i + 1] = (a < b) ? b : a;
}

__global__ void odd_even_sort(int *keys)
{
    __requires(blockDim.x == N / 2);
    __requires(gridDim.x <= 4294967296 / N);
    __shared__ int s[N];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * N;
    s[tid] = keys[base + tid];
    s[tid + N / 2] = keys[base + tid + N / 2];
    __syncthreads();
    for (int phase = 0; phase < N; ++phase) {
        int i = 2 * tid + (phase & 1);
        if (i + 1 < N)
            order_pair(s, i);
        __syncthreads();
    }
    keys[base + tid] = s[tid];
    keys[base + tid + N / 2] = s[tid + N / 2];
}
