// expect: drf
// A file that starts as real ones do, with CUDA's and C's headers in quotes:
// not found beside the file, they fall back to the system search (as in C)
// and are taken unread; printf and sqrtf are names the front end knows. Each
// thread scales its own element, so no two threads touch one.
#include "cuda_runtime.h"
#include "stdio.h"
#include "math.h"

__global__ void scale(float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] = sqrtf(x[i]) * 2.0f;
        if (i == 0) printf("scaled %d\n", n);
    }
}
