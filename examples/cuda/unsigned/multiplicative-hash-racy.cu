// expect: racy confirmed
//--blockDim=64 --gridDim=1
// multiplicative-hash.cu with 64 threads and the product's top 5 bits
// ((tid * 2654435761u) >> 27, the product wrapping around 2^32): 64 threads
// into 32 slots, so two threads write one slot (threads 0 and 34 both hash
// to slot 0).
__global__ void hash_slots_racy(unsigned *out) {
  __shared__ unsigned table[32];
  unsigned h = (threadIdx.x * 2654435761u) >> 27;
  table[h] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = table[threadIdx.x & 31u];
}
