// expect: racy confirmed
// block-sum-storage.cu without the barrier at the end of Sum: the second call
// writes temp.partial[threadIdx.x] while slower threads still read every
// element of the storage in the first call's loop (a write-read race on the
// shared array reached through the reference member).
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
