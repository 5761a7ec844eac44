// expect: drf
// A switch on the thread's residue mod 3: case 0 writes its odd slot and
// falls through into case 1, which writes its even slot and breaks; the
// default writes the even slot. Every thread writes only a[2t] and a[2t+1].
// Twin: switch-fallthrough-racy.cu.
__global__ void tag(int *a) {
  unsigned t = threadIdx.x;
  switch (t % 3) {
    case 0:
      a[2 * t + 1] = 7;
    case 1:
      a[2 * t] = 1;
      break;
    default:
      a[2 * t] = 2;
  }
}
