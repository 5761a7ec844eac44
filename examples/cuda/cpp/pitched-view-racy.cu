// expect: racy confirmed
//--blockDim=[16,16] --gridDim=[4,4]
// pitched-view.cu where each thread reads its right neighbour through the
// view: thread (row, col) reads pixel (row, col + 1), which the thread to its
// right writes, both through operator() of the same view object.
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
    view(row, col) = view(row, col + 1) * gain;
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
