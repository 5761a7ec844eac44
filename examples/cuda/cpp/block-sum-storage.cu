// expect: drf
// A block-wide sum written as a reusable class, in the style of block-level
// primitive libraries: the class template nests its shared-memory layout
// (`TempStorage`), the kernel declares it `__shared__` through
// `typename BS::TempStorage`, and the object holds a reference member bound
// to that storage by its constructor. Every access through `temp` is an
// access of the kernel's shared array; the barrier between the writes and
// the reads, and the one before the storage is written again, order them.
// Twin: block-sum-storage-racy.cu.
template <typename T, int BLOCK> class BlockSum {
public:
  struct TempStorage {
    T partial[BLOCK];
  };

  __device__ explicit BlockSum(TempStorage &storage) : temp(storage) {}

  __device__ T Sum(T v) {
    temp.partial[threadIdx.x] = v;
    __syncthreads();
    T total = 0;
    for (int i = 0; i < BLOCK; ++i) total += temp.partial[i];
    __syncthreads();
    return total;
  }

private:
  TempStorage &temp;
};

#define THREADS 32

__global__ void row_sums(const unsigned *rows, unsigned *sums, unsigned *twice) {
  typedef BlockSum<unsigned, THREADS> BS;
  __shared__ typename BS::TempStorage storage;
  BS reducer(storage);
  unsigned v = rows[blockIdx.x * THREADS + threadIdx.x];
  unsigned s = reducer.Sum(v);
  unsigned s2 = reducer.Sum(2 * v);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = s;
    twice[blockIdx.x] = s2;
  }
}

int main() {
  unsigned *rows, *sums, *twice;
  cudaMalloc(&rows, 4 * THREADS * sizeof(unsigned));
  cudaMalloc(&sums, 4 * sizeof(unsigned));
  cudaMalloc(&twice, 4 * sizeof(unsigned));
  row_sums<<<4, THREADS>>>(rows, sums, twice);
  return 0;
}
