#!/usr/bin/env node
// Scalability benchmark (npm run bench:scaling): the five synthetic families of
// Faial's CAV 2021 experiment (src/gen/families.ts), each verified at sizes 1…50
// in this one process, the parser and Z3 started once before the first kernel.
// Writes bench/results/scaling.csv, scaling.svg, scaling.md and scaling.html (ignored by git)
// and prints the report. Options: --max N (largest size, default 50), --step K
// (1 and the multiples of K, default 1), --runs R (measurements per point, the
// median kept, default 3), --timeout MS (per query, default 10000), --family
// NAME (repeatable; default all). The racy twin of each family is measured at the
// largest size too (issue 29: the racy loops' regression), reported apart.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
const { FAMILIES, isFamily } = await import('../dist/gen/families.js');
const { medianPoint, racyTwinsReport, scalingCsv, scalingHtml, scalingPoint, scalingReport, scalingSvg } = await import('../dist/experiment/scaling.js');
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

const started = performance.now();
const points = [];
for (const family of families) {
  for (const size of sizes) {
    const measured = [];
    for (let r = 0; r < runs; r++) measured.push(await scalingPoint(family, size, { timeoutMs, solver: z3Wasm }));
    const p = medianPoint(measured);
    points.push(p);
    process.stderr.write(`${family} n=${size}: ${p.verdict}, ${p.queries} queries, ${p.totalMs.toFixed(1)} ms\n`);
  }
}
const twins = [];
for (const family of families) {
  const measured = [];
  for (let r = 0; r < runs; r++) measured.push(await scalingPoint(family, max, { timeoutMs, solver: z3Wasm, racy: true }));
  const p = medianPoint(measured);
  twins.push(p);
  process.stderr.write(`${family} n=${max} racy: ${p.verdict}, ${p.queries} queries, ${p.totalMs.toFixed(1)} ms\n`);
}
const wallMs = performance.now() - started;

const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
const run = { version, solver: z3Wasm.name, timeoutMs, sizes, runs, wallMs };
const report = `${scalingReport(points, run)}\n${racyTwinsReport(twins)}`;
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/scaling.csv', scalingCsv(points));
writeFileSync('bench/results/scaling.svg', scalingSvg(points));
writeFileSync('bench/results/scaling.md', report);
writeFileSync('bench/results/scaling.html', scalingHtml(points, run, twins));
console.log(report);
console.log('written: bench/results/scaling.csv, bench/results/scaling.svg, bench/results/scaling.md, bench/results/scaling.html');
