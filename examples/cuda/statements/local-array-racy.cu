// expect: racy confirmed
// local-array.cu with a table that is not a permutation: perm[0] and
// perm[2] are both 2, so threads 0 and 2 of a group both write
// out[group + 2] at line 10.
__global__ void scatter4(int *out, const int *in) {
  int perm[4] = {2, 0, 2, 1};
  unsigned t = threadIdx.x;
  unsigned lane = t % 4;
  // the write of each thread
  out[t - lane + perm[lane]] = in[t];
}
