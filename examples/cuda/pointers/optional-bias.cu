// expect: drf
// A bias added when the caller passes one (`bias != nullptr`): a null
// pointer parameter is one value for the whole launch (bias_nonnull in the
// witness), and bias is read only where it is not null. Each thread writes
// its own element of out. Twin: optional-bias-racy.cu.
__global__ void add_bias(float *out, const float *bias, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = out[i];
  if (bias != nullptr) v += bias[i % 16];
  out[i] = v;
}
