// expect: drf
// Grid-stride loop over an array of float4: thread g visits g, g + stride,
// g + 2·stride, … and writes the x and w fields of those elements only.
__global__ void clear_xw(float4 *v, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    v[i].x = 0.0f;
    v[i].w = 1.0f;
  }
}
