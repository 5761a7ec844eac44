// expect: racy confirmed
// Each thread swaps the two halves of its own segment: `Half` is a nested
// struct copied as a whole (`x.lo = x.hi`), and `mid` passes one by value.
// Each whole copy is one read or write per field.
// Thread i writes the low half of segment i + 1, which thread i + 1 reads
// (and writes). Race-free twin: swap-halves.cu.
struct Half {
    int a;
    int b;
};
struct Segment {
    Half lo;
    Half hi;
};

__device__ int mid(Half h) { return h.a + h.b; }

__global__ void swap_halves(Segment *seg, int *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        Segment x = seg[i];
        seg[i].lo = x.hi;
        seg[i + 1].lo = x.lo;
        sums[i] = mid(x.lo);
    }
}
