// The host code of the program: it defines no kernel, and launches those of
// rotate.cu and rotate-wide.cu, which are verified at these launches.
#include "blocks.h"

void rotate_all(float *data, int n) {
  rotate<<<n / BLOCK, BLOCK>>>(data);
  dim3 wide(2 * BLOCK);
  rotate_wide<<<n / (2 * BLOCK), wide>>>(data);
}
