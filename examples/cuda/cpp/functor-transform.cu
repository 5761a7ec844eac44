// expect: drf
// A generic element-wise transform in the style of thrust: a device function
// template takes the operation as a function object, and the kernels pass
// functors built in place (`Axpb{a, b}`, `ClampTo<int>(lo, hi)`). The
// functor's operator() is inlined where it is called, with its data members
// as the functor object's. Each thread reads and writes only its own element.
// Twin: functor-transform-racy.cu.
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

template <class T, class Op> __device__ void transform_at(const T *in, T *out, int i, Op op) { out[i] = op(in[i]); }

__global__ void affine(const float *x, float *y, float a, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) transform_at(x, y, i, Axpb{a, b});
}

__global__ void clamp_bins(const int *bins, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) transform_at(bins, out, i, ClampTo<int>(0, 255));
}
