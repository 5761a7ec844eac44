// expect: drf
//--blockDim=[1,32] --gridDim=1
// conv-halo-racy.cu fixed: thread y writes its own element s[y + R] and the
// first R threads the halo, then each thread reads its neighbourhood
// s[y + R + k], k from -R to R: the unsigned sum wraps back into the tile
// (y + 2 + (unsigned) -2 is y), as C defines it.
#define R 2
__global__ void blur(float *out, const float *in) {
  __shared__ float s[32 + 2 * R];
  s[threadIdx.y + R] = in[threadIdx.y];
  if (threadIdx.y < R) {
    s[threadIdx.y] = 0.0f;
    s[threadIdx.y + 32 + R] = 0.0f;
  }
  __syncthreads();
  float acc = 0.0f;
  for (int k = -R; k <= R; k++)
    acc += s[threadIdx.y + R + k];
  out[threadIdx.y] = acc;
}
