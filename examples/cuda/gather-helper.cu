// expect: racy possible
// A device helper takes a pointer into the output and an index read from
// memory: two threads may be given the same index (nothing says idx is a
// permutation), so their writes may race; the race rests on the values read
// from idx, hence possible, not confirmed.
struct Span { int first; int count; };

__device__ void put(float *base, int at, float v) { base[at] = v; }

__global__ void scatter(float *out, const int *idx, const Span *spans, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int where = idx[i];
  put(out + spans[0].first, where, v);
}
