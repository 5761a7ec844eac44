#!/usr/bin/env node
// CUDA front end timing (part of `npm run bench`, not a test): the start-up
// (loading the WebAssembly grammar), the first lowering, and then the median
// time to preprocess, parse and lower a 100-line kernel file
// (bench/kernels/heat100.cu) to the core. Goal: under 20 ms after start-up.
// Reads dist/: `npm run build` first (bench/run.js does).
// Usage: node bench/cuda.js [runs]
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
const { cudaGrammar } = await import('../dist/cli/cuda.js');
const { lowerCuda } = await import('../dist/frontend/cuda/lower.js');

const runs = Number(process.argv[2] ?? process.env.BENCH_RUNS ?? 50);
const path = 'bench/kernels/heat100.cu';
const text = readFileSync(`${root}${path}`, 'utf8');

const t0 = performance.now();
const grammar = await cudaGrammar();
const loadMs = performance.now() - t0;
const setup = { grammar, defines: new Map(), undefines: [], includeDirs: [], readFile: () => null };

const lower = () => {
  const unit = lowerCuda(setup, path, text);
  if (unit.rejected.length > 0 || unit.errors.length > 0 || unit.program.kernels.length !== 3) throw new Error(`${path} does not lower to its 3 kernels`);
};
const t1 = performance.now();
lower();
const firstMs = performance.now() - t1;

// wall time, and this process's CPU time, which a machine shared with other
// work does not inflate the way it does the wall time
const times = [];
const cpu = [];
for (let i = 0; i < runs; i++) {
  const c = process.cpuUsage();
  const t = performance.now();
  lower();
  times.push(performance.now() - t);
  const used = process.cpuUsage(c);
  cpu.push((used.user + used.system) / 1000);
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const cpuMedian = cpu[Math.floor(cpu.length / 2)];
console.log(`\nCUDA front end on ${path} (${text.split('\n').length} lines, 3 kernels):`);
console.log(`  grammar load ${loadMs.toFixed(1)} ms, first lowering ${firstMs.toFixed(1)} ms`);
console.log(`  after start-up, ${runs} runs: wall median ${median.toFixed(2)} ms (min ${times[0].toFixed(2)}, max ${times.at(-1).toFixed(2)}), CPU median ${cpuMedian.toFixed(2)} ms (goal: < 20 ms)`);
