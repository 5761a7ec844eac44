#!/usr/bin/env node
// Scalability benchmark (npm run bench:scaling): the synthetic families of
// Faial's CAV 2021 experiment and issue 29 (src/gen/families.ts), each verified
// at sizes 1…50 in this one process, the parser and Z3 started once before the
// first kernel.
// Writes bench/results/scaling.csv, scaling.svg, scaling.md and scaling.html (ignored by git)
// and prints the report. Options: --max N (largest size, default 50), --step K
// (1 and the multiples of K, default 1), --runs R (measurements per point, the
// median kept, default 3), --timeout MS (per query, default 10000), --family
// NAME (repeatable; default all), --process (also time a whole `bin/faial-ts.js
// verify --json FILE` process per point, the median of --runs, as issue 29's
// goal 1 is stated, and `node -e 0`, its allowance for Node's start). The racy
// twin of each family is measured at the largest size too (issue 29: the racy
// loops' regression), reported apart; the report sets faial-ts beside Faial
// v1's reference times from issue 29 (src/experiment/reference.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const { values } = parseArgs({
  options: {
    max: { type: 'string', default: '50' },
    step: { type: 'string', default: '1' },
    runs: { type: 'string', default: '3' },
    timeout: { type: 'string', default: '10000' },
    family: { type: 'string', multiple: true },
    process: { type: 'boolean', default: false },
  },
});
const natural = (text, option) => {
  if (!/^\d+$/.test(text) || Number(text) < 1) {
    console.error(`error: --${option} ${text}: expected a whole number of at least 1`);
    process.exit(2);
  }
  return Number(text);
};
const max = natural(values.max, 'max');
const step = natural(values.step, 'step');
const runs = natural(values.runs, 'runs');
const timeoutMs = natural(values.timeout, 'timeout');

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { FAMILIES, generatedKernel, isFamily } = await import('../dist/gen/families.js');
const { medianPoint, racyTwinsReport, scalingCsv, scalingHtml, scalingPoint, scalingReport, scalingSvg, v1Report } = await import('../dist/experiment/scaling.js');
const { parseProgram } = await import('../dist/frontend/bcu/parse.js');
const { z3Wasm } = await import('../dist/solve/z3.js');

const families = values.family ?? [...FAMILIES];
for (const f of families) {
  if (!isFamily(f)) {
    console.error(`error: --family ${f}: the families are ${FAMILIES.join(', ')}`);
    process.exit(2);
  }
}
const sizes = [...new Set([1, ...Array.from({ length: Math.floor(max / step) }, (_, i) => (i + 1) * step)])].filter((n) => n <= max);

// started once, so that no kernel's time includes building the parser or starting Z3
parseProgram('start-up.bcu', 'kernel k() { skip }');
await z3Wasm.check('(declare-const x Int)\n(assert (= x 1))', timeoutMs);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const timedProcess = (args) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { ms: performance.now() - t, r };
};
// --process: each point's kernel written to a file and verified by a whole process, as a user runs it (the default solver)
const scratch = values.process ? mkdtempSync(join(tmpdir(), 'faial-scaling-')) : null;
const processMs = (family, size, racy, expected) => {
  if (scratch === null) return undefined;
  const { kernel, source } = generatedKernel(family, size, racy);
  const file = join(scratch, `${kernel}.bcu`);
  writeFileSync(file, source);
  const times = [];
  for (let r = 0; r < runs; r++) {
    const { ms, r: out } = timedProcess(['bin/faial-ts.js', 'verify', '--json', '--timeout', String(timeoutMs), file]);
    const status = out.stdout === '' ? `no output (exit ${out.status}): ${out.stderr.slice(0, 300)}` : JSON.parse(out.stdout).kernels[0]?.status;
    if (status !== expected) throw new Error(`${kernel}: the process says ${status}, this process ${expected}`);
    times.push(ms);
  }
  return median(times);
};
const nodeStartMs = values.process ? median(Array.from({ length: Math.max(runs, 5) }, () => timedProcess(['-e', '0']).ms)) : undefined;

const started = performance.now();
const measuredPoint = async (family, size, racy) => {
  const measured = [];
  for (let r = 0; r < runs; r++) measured.push(await scalingPoint(family, size, { timeoutMs, solver: z3Wasm, racy }));
  const p = medianPoint(measured);
  const ms = processMs(family, size, racy, p.verdict);
  const point = ms === undefined ? p : { ...p, processMs: ms };
  process.stderr.write(`${family} n=${size}${racy ? ' racy' : ''}: ${p.verdict}, ${p.queries} queries, ${p.totalMs.toFixed(1)} ms${ms === undefined ? '' : `, process ${ms.toFixed(0)} ms`}\n`);
  return point;
};
const points = [];
for (const family of families) for (const size of sizes) points.push(await measuredPoint(family, size, false));
const twins = [];
for (const family of families) twins.push(await measuredPoint(family, max, true));
const wallMs = performance.now() - started;
if (scratch !== null) rmSync(scratch, { recursive: true, force: true });

const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
const run = { version, solver: z3Wasm.name, timeoutMs, sizes, runs, wallMs, nodeStartMs };
const report = `${scalingReport(points, run)}\n${v1Report(points, run)}\n${racyTwinsReport(twins)}`;
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/scaling.csv', scalingCsv(points));
writeFileSync('bench/results/scaling.svg', scalingSvg(points));
writeFileSync('bench/results/scaling.md', report);
writeFileSync('bench/results/scaling.html', scalingHtml(points, run, twins));
console.log(report);
console.log('written: bench/results/scaling.csv, bench/results/scaling.svg, bench/results/scaling.md, bench/results/scaling.html');
