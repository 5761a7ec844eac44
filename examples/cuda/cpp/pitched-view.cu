// expect: drf
//--blockDim=[16,16] --gridDim=[4,4]
// A small view class over a pitched 2-D image: a constructor takes the
// pointer and the pitch, operator()(row, col) returns a reference to the
// element, and a const member answers whether a pixel is inside. Each thread
// brightens its own pixel through the view, so the accesses are those of
// `img[row * pitch + col]` written by hand. Twin: pitched-view-racy.cu.
#include <cuda_runtime.h>

#define W 64
#define H 64

class ImageView {
public:
  __device__ ImageView(float *data, int pitch, int rows) : data_(data), pitch_(pitch), rows_(rows) {}
  __device__ float &operator()(int row, int col) { return data_[row * pitch_ + col]; }
  __device__ bool inside(int row, int col) const { return row < rows_ && col < pitch_; }

private:
  float *data_;
  int pitch_;
  int rows_;
};

__global__ void brighten(float *img, float gain) {
  ImageView view(img, W, H);
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (view.inside(row, col)) {
    view(row, col) = view(row, col) * gain;
  }
}

int main() {
  float *img;
  cudaMalloc(&img, W * H * sizeof(float));
  dim3 block(16, 16);
  dim3 grid(W / 16, H / 16);
  brighten<<<grid, block>>>(img, 1.5f);
  cudaDeviceSynchronize();
  cudaFree(img);
  return 0;
}
