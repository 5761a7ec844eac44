#!/usr/bin/env node
// Preprocessor timing (not a test): a 100-line kernel with macros, includes and
// conditionals after warm-up, and a 1 MB file of the same shape. Reads dist/:
// run `npm run build` first. Usage: node bench/preprocess.js [runs]
import { performance } from 'node:perf_hooks';

const { preprocess } = await import('../dist/frontend/cuda/preprocess/index.js');

const header = `#ifndef COMMON_H
#define COMMON_H
#define TILE 16
#define IDX(r, c, w) ((r) * (w) + (c))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define CHECK(x) do { if (!(x)) { __trap(); } } while (0)
#endif
`;

function kernel(n) {
  return `__global__ void transpose${n}(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;   // column
  int y = blockIdx.y * TILE + threadIdx.y;   /* row */
#if __CUDA_ARCH__ >= 700
  if (x < w && y < h) tile[threadIdx.y][threadIdx.x] = in[IDX(y, x, w)];
#else
  tile[threadIdx.y][threadIdx.x] = in[y * w + x];
#endif
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  if (x < h && y < w) out[IDX(y, x, h)] = tile[threadIdx.x][threadIdx.y];
  CHECK(MIN(x, y) >= 0);
}
`;
}

const small = `#include "common.h"\n${[0, 1, 2, 3, 4, 5].map(kernel).join('\n')}`;
let big = '#include "common.h"\n';
for (let n = 0; big.length < 1_000_000; n++) big += kernel(n);

const options = { defines: new Map([['N', '64']]), undefines: [], includeDirs: [], readFile: (p) => (p === 'common.h' ? header : null) };
const runs = Number(process.argv[2] ?? 200);
const time = (text, count) => {
  const times = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const r = preprocess({ path: 'k.cu', text }, options);
    times.push(performance.now() - t0);
    if (r.diagnostics.length > 0) throw new Error(r.diagnostics[0].message);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], min: times[0], max: times[times.length - 1] };
};
time(small, 50); // warm-up
const s = time(small, runs);
console.log(`${small.split('\n').length}-line kernel file (${small.length} bytes), ${runs} runs: median ${s.median.toFixed(2)} ms, min ${s.min.toFixed(2)} ms, max ${s.max.toFixed(2)} ms`);
const b = time(big, 5);
console.log(`${(big.length / 1e6).toFixed(2)} MB file (${big.split('\n').length} lines), 5 runs: median ${b.median.toFixed(0)} ms, min ${b.min.toFixed(0)} ms, max ${b.max.toFixed(0)} ms`);
const r = preprocess({ path: 'k.cu', text: big }, options);
const t0 = performance.now();
for (let i = 0; i < r.text.length; i += 97) r.locate(i, i + 40);
console.log(`locate on the 1 MB unit: ${((performance.now() - t0) / Math.ceil(r.text.length / 97) * 1000).toFixed(2)} µs per 40-character span`);
