// expect: racy confirmed
// ping-pong.cu with the two choices written the same way: on every step src
// and dst are one buffer, so thread i writes dst[i] while thread i-1 reads
// src[i] (the same element of a, when flip is 0).
__global__ void smooth_step(float *a, float *b, int n, int flip) {
  float *src = flip ? b : a;
  float *dst = flip ? b : a;
  int i = threadIdx.x;
  if (i < n - 1) dst[i] = 0.5f * src[i + 1];
}
