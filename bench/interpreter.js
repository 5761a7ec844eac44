#!/usr/bin/env node
// Interpreter throughput (npm run bench:interpreter): one long barrier phase
// in which every thread writes n distinct elements and thread 0 rewrites one
// flag n times, the shape that made the interpreter quadratic twice (a
// phase's writes kept in a Map that deleted and re-added the rewritten key;
// with lockstep warps, every earlier access of the warp to the flag scanned
// again at each write). Runs the reference interpreter in this process at
// growing n, with independent threads and with the two threads in one
// lockstep warp, and prints, per n, the median milliseconds, the steps per
// millisecond and the ratio to the smallest n's time per step: a linear
// interpreter keeps that ratio near 1.
// Replay (P3, `verify --replay`) runs witnesses of up to 20 million steps, so
// this is what bounds the time a confirmed alarm takes to replay.
// Writes bench/results/interpreter.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { programOf } = await import('../dist/api/check.js');
const { runKernel } = await import('../dist/semantics/interpret.js');

const source = `kernel long_phase(n) {
  global out;
  shared flag;
  for i in 0..n {
    out[tid * n + i] := i;
    if (tid < 1) { flag[0] := i }
  }
}
`;
const kernel = programOf('long-phase.bcu', source, { cuda: null }).program.kernels[0];
const threads = 2n;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const modes = [
  { name: 'independent threads', options: {} },
  { name: `lockstep warp of ${threads}`, options: { warpSize: Number(threads) } },
];
const perStep = (r) => r.ms / r.steps;
const results = [];
for (const mode of modes) {
  const rows = [];
  for (const n of [10_000, 40_000, 160_000]) {
    const times = [];
    let steps = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = runKernel(kernel, { params: { n: BigInt(n) }, blockDim: [threads, 1n, 1n], gridDim: [1n, 1n, 1n] }, { maxSteps: 100_000_000, ...mode.options });
      times.push(performance.now() - t0);
      if (r.kind !== 'finished') throw new Error(`${mode.name}, n = ${n}: the run ended as ${r.kind}`);
      steps = r.steps;
    }
    rows.push({ n, ms: median(times), steps });
  }
  console.log(`${mode.name}:`);
  console.log('| n | median ms | steps/ms | time per step vs smallest n |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.n} | ${r.ms.toFixed(0)} | ${(r.steps / r.ms).toFixed(0)} | ${(perStep(r) / perStep(rows[0])).toFixed(2)} |`);
  results.push({ mode: mode.name, rows });
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/interpreter.json', JSON.stringify({ threads: Number(threads), runs, results }, null, 2));
