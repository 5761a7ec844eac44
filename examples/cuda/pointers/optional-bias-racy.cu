// expect: racy confirmed
// optional-bias.cu where, without a bias, every thread writes out[0]
// its own index (`if (!bias)`): at a launch passing bias = NULL, two threads
// write different values to out[0] (equal values would be a benign race).
__global__ void add_bias(float *out, const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (!bias) {
    out[0] = (float)i;
    return;
  }
  out[i] = out[i] + bias[i % 16];
}
