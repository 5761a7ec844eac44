// expect: drf
// Counts the Collatz steps of each start value: a `while` loop whose trip count
// depends on the value read, `?:` for the next term, `break` at a step limit.
// Nothing in an index depends on the loop: thread i writes only steps[i].
__global__ void collatz_steps(const unsigned int *start, int *steps, int n, int limit)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    unsigned int v = start[i];
    int count = 0;
    while (v > 1) {
        if (count == limit)
            break;
        v = (v & 1) ? 3 * v + 1 : v / 2;
        ++count;
    }
    steps[i] = count;
}
