// expect: racy confirmed
// pack-pairs.cu with a copy-paste slip: the odd branch writes .x too, so
// threads 0 and 1 both write out[0].x (n >= 2). Fixed twin: pack-pairs.cu.
__global__ void pack_pairs_same_field(const float *in, float2 *out, unsigned int n)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i % 2 == 0)
            out[i / 2].x = in[i];
        else
            out[i / 2].x = in[i];
    }
}
