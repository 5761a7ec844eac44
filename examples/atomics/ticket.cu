// expect: drf
// ticket-then-read.cu with a barrier between the atomic adds and thread 0's
// read of the counter. The tickets (old values) are distinct at run time; the
// verifier does not know them, and uses them only as values written. A
// first-occurrence search with atomicMin and a lock word set by atomicCAS and
// cleared by atomicExch show the other operations (atomics only: no race).
__global__ void ticket(const int *keys, int key, unsigned int *tickets, unsigned int *total, int *first, int *lock)
{
    __shared__ unsigned int next;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) next = 0;
    __syncthreads();
    tickets[i] = atomicAdd(&next, 1u);
    if (keys[i] == key) atomicMin(&first[0], (int) i);
    if (atomicCAS(&lock[0], 0, 1) == 0) atomicExch(&lock[0], 0);
    __syncthreads();
    if (threadIdx.x == 0) total[blockIdx.x] = next;
}
