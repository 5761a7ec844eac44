// expect: racy confirmed
// adjacent-diff.cu computed in place: thread i reads data[i+1] while thread
// i+1 writes data[i+1] (e.g. threads 0 and 1 on data[1], n = 3); nothing orders
// them, whether they are in one block or in two. Fixed twin: adjacent-diff.cu.
__global__ void adjacent_diff_in_place(float *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n - 1)
        data[i] = data[i + 1] - data[i];
}
