#!/usr/bin/env node
// Benchmarks (npm run bench): start-up (`--version`) and end-to-end time of one
// small kernel of each language as a process (Node start, grammar and Z3
// start, verify), then every example (.bcu and .cu) in one process, where Z3
// and the CUDA grammar are started once, verified as `verify` does (a .cu
// file's test header gives its launch). Writes bench/results/latest.json;
// prints a table and each language's median per kernel.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { verifyFile } = await import('../dist/api/verify.js');
const { frontEndsFor } = await import('../dist/cli/cuda.js');
const { solverOf } = await import('../dist/solve/backends.js');
const { defaultMembers } = await import('../dist/solve/members.js');
const { DEFAULT_RLIMIT, DEFAULT_TIMEOUT_MS } = await import('../dist/solve/budget.js');
// the command line's default solver and budget
const solver = solverOf({ kind: 'portfolio', members: defaultMembers() }, DEFAULT_RLIMIT);

const runs = Number(process.env.BENCH_RUNS ?? 5);
const small = 'examples/paper/figure3.bcu';
// a CUDA kernel decided without a solver: the CUDA grammar's start-up and the front end
const smallCuda = 'examples/cuda/elementwise/saxpy.cu';
const median = (xs) => xs[Math.floor(xs.length / 2)];

/** Wall milliseconds of `faial-ts ARGS` as a process, `runs` times after one warm-up, sorted. */
function processTimesOf(args, exitCode) {
  const times = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, ['bin/faial-ts.js', ...args], { encoding: 'utf8' });
    if (i > 0) times.push(performance.now() - t0);
    if (r.status !== exitCode) throw new Error(`unexpected exit ${r.status} for faial-ts ${args.join(' ')}: ${r.stderr}`);
  }
  return times.sort((a, b) => a - b);
}

// goals (issue 14): --version at most 150 ms, verify of figure 3 at most 500 ms (median, wall)
const versionTimes = processTimesOf(['--version'], 0);
const processTimes = processTimesOf(['verify', small], 1);
const cudaProcessTimes = processTimesOf(['verify', smallCuda], 0);

// a build project (a CMakeLists.txt beside its sources) is verified through its compilation database, a program (a Makefile beside its files) as one directory, not file by file
const files = (dir) =>
  existsSync(join(dir, 'CMakeLists.txt')) || existsSync(join(dir, 'Makefile')) ? [] : readdirSync(dir).sort().flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith('.bcu') || n.endsWith('.cu') ? [p] : [];
  });

const rows = [];
const t0 = performance.now();
for (const path of files('examples')) {
  const text = readFileSync(path, 'utf8');
  const options = { kernel: null, launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: DEFAULT_TIMEOUT_MS, maxRaces: 20, barriers: false, replay: false };
  const { file: result } = await verifyFile(path, text, options, solver, await frontEndsFor(path, text, {}));
  if (!result.ok) throw new Error(`${path} does not check`);
  for (const k of result.kernels) {
    rows.push({ path, kernel: k.kernel, status: k.status, queries: k.stats.queries, ms: Math.round(k.stats.milliseconds), solverMs: Math.round(k.stats.stages.solving) });
  }
}
const total = performance.now() - t0;

const spread = (xs) => `median ${median(xs).toFixed(0)} ms, min ${xs[0].toFixed(0)} ms, max ${xs.at(-1).toFixed(0)} ms`;
console.log(`\nfaial-ts --version as a process, ${runs} runs: ${spread(versionTimes)} (goal: median 150 ms)`);
console.log(`one small kernel (verify ${small}) as a process, ${runs} runs: ${spread(processTimes)} (goal: median 500 ms)`);
console.log(`one small CUDA kernel (verify ${smallCuda}) as a process, ${runs} runs: ${spread(cudaProcessTimes)} (goal: median 500 ms)`);
console.log(`\nall examples in one process (Z3 started once; ${solver.name}, ${DEFAULT_RLIMIT} units per query): ${rows.length} kernels, ${(total / 1000).toFixed(1)} s total\n`);
console.log('ms'.padStart(7), 'solver'.padStart(7), 'queries'.padStart(7), 'status'.padEnd(10), 'kernel');
for (const r of rows) console.log(String(r.ms).padStart(7), String(r.solverMs).padStart(7), String(r.queries).padStart(7), r.status.padEnd(10), `${r.path} ${r.kernel}`);
const solving = rows.reduce((s, r) => s + r.solverMs, 0);
console.log(`\nsolver share of the examples' time: ${((100 * solving) / total).toFixed(1)}%`);
const medianMs = (ext) => median(rows.filter((r) => r.path.endsWith(ext)).map((r) => r.ms).sort((a, b) => a - b));
console.log(`median per kernel (its verification, after start-up): ${medianMs('')} ms; .bcu ${medianMs('.bcu')} ms, .cu ${medianMs('.cu')} ms (goal: 50 ms); slowest ${Math.max(...rows.map((r) => r.ms))} ms (goal: 2000 ms)`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/latest.json', JSON.stringify({ date: new Date().toISOString(), versionTimes, processTimes, cudaProcessTimes, total, rows }, null, 2));
