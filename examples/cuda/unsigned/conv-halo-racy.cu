// expect: racy confirmed
//--blockDim=[1,32] --gridDim=1
// A column of 32 threads fills a shared tile with its neighbourhood: thread y
// writes s[y + R + k] for k from -R to R. C converts the int k to unsigned, so
// y + R + k wraps back into range (y + 2 + 4294967294 is y). Neighbours write
// the same elements: thread 0 (k = 1) and thread 1 (k = 0) both write s[3].
// Twin: conv-halo.cu.
#define R 2
__global__ void blur_racy(float *out, const float *in) {
  __shared__ float s[32 + 2 * R];
  for (int k = -R; k <= R; k++)
    s[threadIdx.y + R + k] = in[threadIdx.y];
  __syncthreads();
  out[threadIdx.y] = s[threadIdx.y + R];
}
