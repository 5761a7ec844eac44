// expect: racy confirmed
// functor-transform.cu where clamp_bins takes the index it writes from
// another functor, `Even()(i)`, which rounds i down to even: threads 2k and
// 2k + 1 both write out[2k], with values clamped from bins[2k] and bins[2k + 1].
struct Axpb {
  float a, b;
  __device__ float operator()(float x) const { return a * x + b; }
};

template <class T> class ClampTo {
public:
  __device__ ClampTo(T lo, T hi) : lo_(lo), hi_(hi) {}
  __device__ T operator()(T x) const { return x < lo_ ? lo_ : x > hi_ ? hi_ : x; }

private:
  T lo_, hi_;
};

template <class T, class Op> __device__ void transform_to(const T *in, T *out, int from, int to, Op op) { out[to] = op(in[from]); }

struct Even {
  __device__ int operator()(int i) const { return i - i % 2; }
};

__global__ void clamp_bins(const int *bins, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) transform_to(bins, out, i, Even()(i), ClampTo<int>(0, 255));
}
