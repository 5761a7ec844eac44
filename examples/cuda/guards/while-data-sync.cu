// expect: divergent
// Halves each thread's staged value until it is at most `limit`, with a
// __syncthreads() in the `while` body. The trip count depends on the thread's
// own value, read from memory: a thread whose value is already small skips the
// loop while another waits at that barrier (a data-dependent divergence).
__global__ void halve_until(float *vals, float limit)
{
    extern __shared__ float s[];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * blockDim.x + tid;
    s[tid] = vals[i];
    __syncthreads();
    while (s[tid] > limit) {
        s[tid] = 0.5f * s[tid];
        __syncthreads();
    }
    vals[i] = s[tid];
}
