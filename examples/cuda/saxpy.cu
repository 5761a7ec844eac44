// expect: drf
// y = a·x + y, one element per thread, guarded by the length. Thread i reads
// x[i] and y[i] and writes y[i] only: no two threads touch the same element.
__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
