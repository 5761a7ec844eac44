// expect: racy possible
// "Find any match": every thread whose element equals key stores its index in
// *where. Two matching threads write *where (where[0]) unordered: a write-write
// race, but only if two elements match, which depends on the data (possible).
__global__ void find_any(const int *data, int n, int key, int *where)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && data[i] == key)
        *where = i;
}
