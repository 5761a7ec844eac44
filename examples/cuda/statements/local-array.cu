// expect: drf
// Each group of four threads scatters its inputs through a permutation held
// in a thread-private array: perm is {2, 0, 3, 1}, so the four threads of a
// group write four distinct elements. perm's accesses are not shared: its
// values are followed, at the index lane known only symbolically.
// Twin: local-array-racy.cu.
__global__ void scatter4(int *out, const int *in) {
  int perm[4] = {2, 0, 3, 1};
  unsigned t = threadIdx.x;
  unsigned lane = t % 4;
  out[t - lane + perm[lane]] = in[t];
}
