// expect: drf
//--blockDim=32 --gridDim=1
// Knuth's multiplicative hash: tid * 2654435761u wraps around 2^32 up to 19
// times (C defines the unsigned product modulo 2^32). The constant is odd, so
// the product's low 5 bits are a bijection of tid's: 32 threads hash to 32
// distinct slots. Twin: multiplicative-hash-racy.cu.
__global__ void hash_slots(unsigned *out) {
  __shared__ unsigned table[32];
  unsigned h = threadIdx.x * 2654435761u;
  table[h & 31u] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = table[threadIdx.x];
}
