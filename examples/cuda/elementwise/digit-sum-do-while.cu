// expect: drf
// Sum of the decimal digits of each value, with a `do ... while` loop on the
// value read (it runs at least once, for 0 too). Thread i writes only sums[i].
__global__ void digit_sums(const unsigned int *values, unsigned int *sums, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned int v = values[i];
        unsigned int s = 0;
        do {
            s += v % 10;
            v /= 10;
        } while (v != 0);
        sums[i] = s;
    }
}
