// expect: racy confirmed
// do-while-zero-sync.cu with the barrier macro defined empty, as a debug
// build might: `do { } while (0)` runs once and synchronises nothing, so a
// thread reads the mirrored slot while its owner writes it. The race is
// confirmed (before, the approximated "loop" made every alarm possible).
// Race-free twin: do-while-zero-sync.cu.
#define BLOCK_SYNC() do { } while (0)
#define SWAP(a, b) do { float t_ = (a); (a) = (b); (b) = t_; } while (0)

__global__ void mirror(float *data) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * 256 + t];
  BLOCK_SYNC();
  float lo = s[255 - t], hi = s[t];
  SWAP(lo, hi);
  data[blockIdx.x * 256 + t] = lo + 2.0f * hi;
}

int main() {
  float *d;
  mirror<<<8, 256>>>(d);
  return 0;
}
