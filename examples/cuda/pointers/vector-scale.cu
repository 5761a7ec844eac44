// expect: drf
// Vectorised scaling: the float array is read and written four floats at a
// time through `reinterpret_cast<float4 *>`, so element i of the view is
// data[4i] .. data[4i + 3]. Each thread then fixes up the last float of its
// own vector through the float pointer: race-free. Twin: vector-scale-racy.cu.
__global__ void scale4(float *data, float s) {
  float4 *v = reinterpret_cast<float4 *>(data);
  int i = threadIdx.x;
  float4 x = v[i];
  x.x *= s;
  x.y *= s;
  x.z *= s;
  x.w *= s;
  v[i] = x;
  data[4 * i + 3] = 0.0f;
}
