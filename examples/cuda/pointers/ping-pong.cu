// expect: drf
// A shift step of a double-buffered stencil in one block: the flag flip (the step's parity)
// chooses which buffer is read and which is written (`src = flip ? b : a`),
// so accesses through src and dst are accesses to a or to b as flip says.
// Each thread writes its own element of dst and reads src only: race-free.
// Twin: ping-pong-racy.cu.
__global__ void smooth_step(float *a, float *b, int n, int flip) {
  float *src = flip ? b : a;
  float *dst = flip ? a : b;
  int i = threadIdx.x;
  if (i < n - 1) dst[i] = 0.5f * src[i + 1];
}
