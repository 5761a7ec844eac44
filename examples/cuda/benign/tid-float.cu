// expect: racy confirmed
// Every thread writes its own id, as a float, to last[0]: threads 0 and 1
// write 0.0f and 1.0f, two different values, so the write-write race at
// `last[0] = (float)threadIdx.x` is an error. Twin: zero-float.cu.
__global__ void lastWriter(float *last) {
  last[0] = (float)threadIdx.x;
}
