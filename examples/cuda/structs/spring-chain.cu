// expect: racy confirmed
// Forces along a chain of particles linked by springs, applied pairwise from
// both ends: thread i adds the force of spring (i, i+1) to particle i and
// subtracts it from particle i+1. Thread i's `p[i + 1].f -= ...` and thread
// i+1's `p[i + 1].f += ...` both write p[i + 1].f (threads 0 and 1 on
// p[1].f, n >= 3). The fields x and f of one element are distinct, so the
// reads of p[i + 1].x do not conflict with anything.
struct Node {
    float x;
    float f;
};

__global__ void spring_forces(Node *p, float k, float rest, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1) {
        float stretch = p[i + 1].x - p[i].x - rest;
        p[i].f += k * stretch;
        p[i + 1].f -= k * stretch;
    }
}
