// expect: racy confirmed
// vector-traits.cu with the output indexed by the width of the primary
// template (1) instead of the specialisation's: `out[i + k]` for k < 4, so
// thread i writes the scalars threads i + 1 .. i + 3 write too.
template <class T> struct VecTraits {
  typedef T Scalar;
  static const int width = 1;
  __device__ static Scalar get(const T &v, int k) { return v; }
};

template <> struct VecTraits<float4> {
  typedef float Scalar;
  static const int width = 4;
  __device__ static Scalar get(const float4 &v, int k) { return k == 0 ? v.x : k == 1 ? v.y : k == 2 ? v.z : v.w; }
};

template <class T>
__global__ void flatten(const T *in, typename VecTraits<T>::Scalar *out, int n) {
  typedef VecTraits<T> Tr;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T v = in[i];
  for (int k = 0; k < Tr::width; ++k) {
    typename Tr::Scalar s = Tr::get(v, k);
    out[i * VecTraits<int>::width + k] = s;
  }
}

template __global__ void flatten<float4>(const float4 *, float *, int);
