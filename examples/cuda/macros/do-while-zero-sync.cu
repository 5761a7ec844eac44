// expect: drf
// Statement-like macros written as `do { … } while (0)`, the C idiom: a
// barrier macro and a swap macro around it. The do-while runs its body once,
// so the barrier is the block barrier it is (before, the "loop" was
// approximated: the barrier a possible divergence). Each thread writes its
// slot, the block synchronises, then each thread swaps two values it read
// from the mirrored slots. Racy twin: do-while-zero-sync-racy.cu.
#define BLOCK_SYNC() do { __syncthreads(); } while (0)
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
