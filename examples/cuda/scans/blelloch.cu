// expect: drf
// Work-efficient (Blelloch) exclusive scan of N elements per block by N / 2
// threads: an up-sweep and a down-sweep over a binary tree in shared memory,
// a barrier before every level. At stride st, thread t works on
// idx = 2*st*(t+1) - 1 and idx - st; for two threads these four slots never
// meet (2*st*(t-u) = -st has no solution). __requires: block b owns
// in/out[b*N .. b*N + N-1] only if there are exactly N / 2 threads, and at
// most 2^32 / N blocks: the unsigned base = blockIdx.x * N wraps modulo 2^32
// beyond, and block 2^23 would write block 0's out[] (a real race there).
#define N 512

__global__ void scan_blelloch(const float *in, float *out)
{
    __requires(blockDim.x == N / 2);
    __requires(gridDim.x <= 4294967296 / N);
    __shared__ float temp[N];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * N;
    temp[2 * tid] = in[base + 2 * tid];
    temp[2 * tid + 1] = in[base + 2 * tid + 1];

    for (unsigned int stride = 1; stride < N; stride <<= 1) {
        __syncthreads();
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
