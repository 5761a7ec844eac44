// expect: drf
//--blockDim=64 --gridDim=16
// histogram-shared-racy.cu privatised: counts[b][t] is thread t's own counter
// for bin b, so before the barrier thread t only touches column t, whatever
// bin its data selects. After the barrier thread t sums row t (bin t) over all
// threads into the block's slot partial[blockIdx.x * NBINS + t].
#define NBINS 64
#define THREADS 64

__global__ void histogram_per_thread(const unsigned int *data, unsigned int *partial, int n)
{
    __shared__ unsigned short counts[NBINS][THREADS];
    int t = threadIdx.x;
    for (int b = 0; b < NBINS; ++b)
        counts[b][t] = 0;
    int stride = blockDim.x * gridDim.x;
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += stride) {
        unsigned int bin = data[i] % NBINS;
        counts[bin][t] += 1;
    }
    __syncthreads();
    unsigned int total = 0;
    for (int k = 0; k < THREADS; ++k)
        total += counts[t][k];
    partial[blockIdx.x * NBINS + t] = total;
}
