// expect: drf
// Bitonic sort of N keys per block in shared memory, one key per thread:
// nested stage loops with a barrier after every compare-exchange step. In step
// (k, j) thread tid pairs with ixj = tid ^ j and only the lower thread of a
// pair (ixj > tid) touches s[tid] and s[ixj], so no two active threads share
// a slot. The compare-exchange is a device helper taking the shared array;
// its writes are unconditional (min/max selected with ?:). __requires: block
// b owns keys[b*N .. b*N + N-1] only if it has exactly N threads.
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

__global__ void bitonic_sort_block(float *keys)
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
            if (ixj > tid)
                compare_exchange(s, tid, ixj, (tid & k) == 0);
            __syncthreads();
        }
    }
    keys[base + tid] = s[tid];
}
