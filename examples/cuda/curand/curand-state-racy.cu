// expect: racy confirmed
// curand-state.cu with two threads sharing a generator state: threads 0 and
// 1 both advance state[0] in curand_init at line 9.
#include <curand_kernel.h>
__global__ void draw(curandState *state, float *out) {
  unsigned t = threadIdx.x;
  unsigned g = t / 2;
  // the shared state
  curand_init(1234, t, 0, &state[g]);
  curandState s = state[g];
  out[t] = curand_uniform(&s);
  state[g] = s;
}
