// expect: drf
// Shifts each block's values one slot to the left through shared memory:
// thread t stores its value at slot left = t - 1, computed in int, so thread 0
// gets -1 and `left >= 0` skips it; the slots written are distinct. (On
// unsigned or natural numbers tid - 1 would not be negative for thread 0.)
// The last thread zeroes the last slot: `tid == blockDim.x - 1` compares int
// with unsigned. Racy twin: signed-clamp.cu.
__global__ void shift_left(const float *in, float *out, int n)
{
    extern __shared__ float staged[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    int left = tid - 1;
    if (left >= 0)
        staged[left] = v;
    if (tid == blockDim.x - 1)
        staged[tid] = 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = staged[tid];
}
