// expect: drf
// Each thread looks up its query in a sorted table by a linear scan that
// `continue`s past smaller entries and `break`s at the first entry >= key.
// The loop has no barrier and its exit depends on data, but it only reads;
// thread q writes only pos[q].
__global__ void lower_bound_linear(const int *table, int len, const int *queries, int *pos, int nq)
{
    int q = blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= nq)
        return;
    int key = queries[q];
    int found = len;
    for (int j = 0; j < len; ++j) {
        if (table[j] < key)
            continue;
        found = j;
        break;
    }
    pos[q] = found;
}
