// expect: drf
// A helper returns two results through pointers to the caller's locals
// (`split(t, &r, &c)`): the row and column of t in rows of 16. Each thread
// writes its own element out[r * 16 + c] = out[t].
// Twin: address-of-local-racy.cu.
__device__ void split(unsigned v, unsigned *row, unsigned *col) {
  *row = v / 16;
  *col = v % 16;
}

__global__ void place(int *out, const int *in) {
  unsigned t = threadIdx.x;
  unsigned r, c;
  split(t, &r, &c);
  out[r * 16 + c] = in[t];
}
