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
// wall time, and the process's CPU time (all threads: GC included), which a loaded machine disturbs less
const time = (text, count) => {
  const wall = [];
  const cpu = [];
  for (let i = 0; i < count; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const r = preprocess({ path: 'k.cu', text }, options);
    wall.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    if (r.diagnostics.length > 0) throw new Error(r.diagnostics[0].message);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { median: median(wall), min: Math.min(...wall), max: Math.max(...wall), cpu: median(cpu) };
};
time(small, 50); // warm-up
const s = time(small, runs);
console.log(`${small.split('\n').length}-line kernel file (${small.length} bytes), ${runs} runs: wall median ${s.median.toFixed(2)} ms (min ${s.min.toFixed(2)}, max ${s.max.toFixed(2)}), CPU median ${s.cpu.toFixed(2)} ms`);
const b = time(big, 5);
console.log(`${(big.length / 1e6).toFixed(2)} MB file (${big.split('\n').length} lines), 5 runs: wall median ${b.median.toFixed(0)} ms (min ${b.min.toFixed(0)}, max ${b.max.toFixed(0)}), CPU median ${b.cpu.toFixed(0)} ms`);
const r = preprocess({ path: 'k.cu', text: big }, options);
const spans = Math.ceil(r.text.length / 97);
let cpuPerSpan = 0;
for (let round = 0; round < 3; round++) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < r.text.length; i += 97) r.locate(i, i + 40);
  const c = process.cpuUsage(c0);
  cpuPerSpan = (c.user + c.system) / spans;
}
console.log(`locate on the 1 MB unit (third round of ${spans} spans of 40 characters): ${cpuPerSpan.toFixed(2)} µs CPU per span`);
