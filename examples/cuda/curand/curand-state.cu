// expect: drf
// Each thread seeds and draws from its own generator state: curand_init and
// curand_uniform read and write state[t] only, through a local copy that is
// stored back. Twin: curand-state-racy.cu.
#include <curand_kernel.h>
__global__ void draw(curandState *state, float *out) {
  unsigned t = threadIdx.x;
  curand_init(1234, t, 0, &state[t]);
  curandState s = state[t];
  out[t] = curand_uniform(&s);
  state[t] = s;
}
