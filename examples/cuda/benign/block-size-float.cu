// expect: benign
// Every thread stores the block's size as a float: (float)blockDim.x is below
// 2^24 (CUDA's limit is 1024), so the conversion is exact and every thread
// writes the same bit pattern: a benign write-write race on scale[0]. Twin:
// tid-float.cu (each thread's own id, as a float: different values).
__global__ void blockScale(float *scale) {
  scale[0] = (float)blockDim.x;
}
