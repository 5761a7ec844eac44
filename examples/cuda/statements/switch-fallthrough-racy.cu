// expect: racy confirmed
// switch-fallthrough.cu with case 0 writing a[2t+2], its right neighbour's
// even slot: thread 0 (case 0) writes a[2] at line 10, and thread 1 (case 1,
// which thread 0 also falls into) writes a[2] at line 12.
__global__ void tag(int *a) {
  unsigned t = threadIdx.x;
  switch (t % 3) {
    case 0:
      // falls through
      a[2 * t + 2] = 7;
    case 1:
      a[2 * t] = 1;
      break;
    default:
      a[2 * t] = 2;
  }
}
