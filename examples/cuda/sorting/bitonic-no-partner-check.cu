// expect: racy confirmed
// bitonic-shared.cu without the `ixj > tid` test: both threads of a pair run
// the compare-exchange, so in the first step (k = 2, j = 1) thread 0 writes
// s[0] and s[1] while thread 1 writes s[1] and s[0]. The writes do not depend
// on the keys. Fixed twin: bitonic-shared.cu.
#define N 512

__device__ __forceinline__ void compare_exchange(float *s, unsigned int i, unsigned int j, bool ascending)
{
    float a = s[i];
    float b = s[j];
    float lo = (a < b) ? a : b;
    float hi = (a < b) ? b : a;
    s[i] = ascending ? lo : hi;
    s[j] = ascending ? hi : lo;
}

__global__ void bitonic_sort_no_partner_check(float *keys)
{
    __requires(blockDim.x == N);
    __shared__ float s[N];
    unsigned int tid = threadIdx.x;
    unsigned int base = blockIdx.x * N;
    s[tid] = keys[base + tid];
    __syncthreads();
    for (unsigned int k = 2; k <= N; k <<= 1) {
        for (unsigned int j = k >> 1; j > 0; j >>= 1) {
            unsigned int ixj = tid ^ j;
            compare_exchange(s, tid, ixj, (tid & k) == 0);
            __syncthreads();
        }
    }
    keys[base + tid] = s[tid];
}
