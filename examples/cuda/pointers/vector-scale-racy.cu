// expect: racy confirmed
// vector-scale.cu fixing up the float after its vector (`data[4 * i + 4]`):
// it is the first float of the next thread's float4, which thread i + 1
// reads and writes through the view.
__global__ void scale4(float *data, float s) {
  float4 *v = reinterpret_cast<float4 *>(data);
  int i = threadIdx.x;
  float4 x = v[i];
  x.x *= s;
  x.y *= s;
  x.z *= s;
  x.w *= s;
  v[i] = x;
  data[4 * i + 4] = 0.0f;
}
