// expect: racy possible
// A matrix given as an array of row pointers (`float **rows`): each block
// scales its row and writes the row's first element to sums. Which array a
// row pointer points into is not followed (a pointer read from memory): it
// may be sums itself or any other float memory, so the write through row
// may race with the write to sums, and two blocks may be handed one row.
// The alarms are possible, naming row (notice N0630); none is confirmed,
// and no alias is assumed away.
__global__ void scale_rows(float **rows, float *sums, float s, int width) {
  float *row = rows[blockIdx.x];
  for (int j = threadIdx.x; j < width; j += blockDim.x) {
    row[j] = row[j] * s;
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = row[0];
}
