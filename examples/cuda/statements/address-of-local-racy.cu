// expect: racy confirmed
// address-of-local.cu with the column taken modulo 8 instead of 16:
// threads 0 and 8 both get r = 0, c = 0, and both write out[0] at line 15.
__device__ void split(unsigned v, unsigned *row, unsigned *col) {
  *row = v / 16;
  *col = v % 8;
}

__global__ void place(int *out, const int *in) {
  unsigned t = threadIdx.x;
  unsigned r, c;
  split(t, &r, &c);
  // r and c are written through the pointers
  // the write of each thread:
  out[r * 16 + c] = in[t];
}
