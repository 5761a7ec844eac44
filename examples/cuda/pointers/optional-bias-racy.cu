// expect: racy confirmed
// optional-bias.cu where, without a bias, every thread writes out[0]
// (`if (!bias)`): at a launch passing bias = NULL, two threads write out[0].
__global__ void add_bias(float *out, const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (!bias) {
    out[0] = 0.0f;
    return;
  }
  out[i] = out[i] + bias[i % 16];
}
