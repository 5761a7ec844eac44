// expect: benign
// Thread 0 writes the float literal 1.0f to flag[0], the others the double
// literal 1.0 converted to float: both are the bit pattern 0x3f800000, so the
// races between them are benign. Twin: signed-zero.cu (patterns that differ).
__global__ void mark(float *flag) {
  if (threadIdx.x == 0)
    flag[0] = 1.0f;
  else
    flag[0] = 1.0;
}
