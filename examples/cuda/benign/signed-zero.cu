// expect: racy confirmed
// Thread 0 writes 0.0f to v[0], the others -0.0f: equal as numbers (0.0f ==
// -0.0f), but different bit patterns (0x00000000 and 0x80000000), and a
// reader can tell them apart (1.0f / v[0], signbit), so faial-ts compares
// the stored patterns and the race of `v[0] = 0.0f` with `v[0] = -0.0f` is
// reported. Twin: float-double-one.cu.
__global__ void zeroes(float *v) {
  if (threadIdx.x == 0)
    v[0] = 0.0f;
  else
    v[0] = -0.0f;
}
