// The block size both kernels are written for, and their declarations for the host code.
#define BLOCK 64

__global__ void rotate(float *data);
__global__ void rotate_wide(float *data);
