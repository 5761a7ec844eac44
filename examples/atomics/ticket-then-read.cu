// expect: racy confirmed
// Each thread takes a ticket with atomicAdd on a shared counter; thread 0
// then reads the counter with a plain load before any barrier. Its read races
// with the other threads' atomic adds (an atomic writes its element). With a
// __syncthreads() before the read, as in ticket.cu, the kernel is DRF.
__global__ void ticket_then_read(unsigned int *tickets, unsigned int *total)
{
    __shared__ unsigned int next;
    if (threadIdx.x == 0) next = 0;
    __syncthreads();
    tickets[blockIdx.x * blockDim.x + threadIdx.x] = atomicAdd(&next, 1u);
    if (threadIdx.x == 0) total[blockIdx.x] = next;
}
