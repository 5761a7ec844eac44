// expect: racy confirmed
// A reference reached through a typedef is a reference, not a copy: every
// thread writes a[0] through `Cell c = a[0]`, so two threads race on a[0]
// (write-write, of different values). faial-ts once read `Cell` as `int`
// and proved this kernel race-free. Twin: typedef-reference.cu.
typedef int &Cell;

__global__ void last_writer(int *a) {
  Cell c = a[0];
  c = threadIdx.x;
}
