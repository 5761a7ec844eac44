// expect: drf
// A block reversal through helpers in a namespace, called by qualified names
// as library code does (`detail::next_phase()`, `::gpu::detail::load(…)`):
// each is the file's function, inlined with its barrier and accesses. Each
// thread writes its own slot, the block synchronises inside the helper, then
// each reads the mirrored slot. Before, a qualified call was taken for a
// function without a body: `next_phase`'s barrier was dropped, so the reads
// raced with the writes (a false confirmed race), and `load`, passed a
// pointer, was rejected. Racy twin: namespaced-helpers-racy.cu.
namespace gpu {
namespace detail {
__device__ void next_phase() { __syncthreads(); }
__device__ float load(const float *s, unsigned i) { return s[i]; }
}

__global__ void reverse(float *out, const float *in) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * 256 + t];
  detail::next_phase();
  out[blockIdx.x * 256 + t] = ::gpu::detail::load(s, 255 - t);
}
}

int main() {
  float *out, *in;
  gpu::reverse<<<16, 256>>>(out, in);
  return 0;
}
