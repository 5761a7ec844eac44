// expect: racy confirmed
// signed-guard.cu with the test replaced by a clamp to slot 0: thread 0
// (left = -1, clamped to 0) and thread 1 (left = 0) both write staged[0] in
// the same phase (blockDim.x >= 2). Fixed twin: signed-guard.cu.
__global__ void shift_left_clamped(const float *in, float *out, int n)
{
    extern __shared__ float staged[];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    int left = tid - 1;
    staged[left < 0 ? 0 : left] = v;
    if (tid == blockDim.x - 1)
        staged[tid] = 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = staged[tid];
}
