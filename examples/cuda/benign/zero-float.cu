// expect: benign
// Every thread clears the accumulator out[0] before the block adds to it (the
// integer 0 converted to float: 0.0f) and sets scale[0] to 1.0f: write-write
// races, each pair writing one bit pattern, so benign (GPUVerify tolerates
// them). Twin: tid-float.cu, where each thread writes its own id.
__global__ void clear(float *out, float *scale, const float *in, float *res) {
  out[0] = 0;
  scale[0] = 1.0f;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  res[i] = in[i] * 2.0f;
}
