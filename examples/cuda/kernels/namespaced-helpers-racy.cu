// expect: racy confirmed
// A block reversal that also records, through a helper of another namespace
// called by a qualified name, which thread ran last: every thread writes its
// index to the __device__ variable `last` in `stats::note(t)`. Before, the
// qualified call was taken for a function without a body, assumed to touch
// no memory: the write was dropped and the racy kernel proved DRF.
// Race-free twin: namespaced-helpers.cu.
__device__ unsigned last;

namespace stats {
__device__ void note(unsigned v) { last = v; }
}
namespace gpu {
__global__ void reverse(float *out, const float *in) {
  unsigned t = threadIdx.x;
  stats::note(t);
  out[blockIdx.x * 256 + t] = in[blockIdx.x * 256 + 255 - t];
}
}

int main() {
  float *out, *in;
  gpu::reverse<<<16, 256>>>(out, in);
  return 0;
}
