// expect: racy confirmed
//--blockDim=64 --gridDim=1
// A histogram's warp tag: tag = threadIdx.x << 27 keeps the thread's low 5
// bits in the top of the word (the shift wraps around for threadIdx.x >= 32,
// as C defines it), and tag >> 27 is the thread's lane. Each thread stores its
// id in its lane's slot: with 64 threads, threads 0 and 32 both
// write slots[0]. Twin: warp-tag.cu.
__global__ void tag_racy(unsigned *out) {
  __shared__ unsigned slots[32];
  unsigned tag = threadIdx.x << 27;
  slots[tag >> 27] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = slots[threadIdx.x % 32];
}
