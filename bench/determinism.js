#!/usr/bin/env node
// Identical verdicts under load (npm run bench:determinism): `faial-ts
// experiment` on the examples twice, once alone in one process, once with
// --jobs 2 beside CPU-bound busy loops (--busy N, default 1), and the two
// tables compared row by row: verdict, confirmed and possible alarms, unknown
// queries. A budget in resource units makes them identical; a difference is
// printed and the exit code is 1. Also prints, for each run, the median and
// largest time per kernel, the unknowns and the wall time. Other options are
// passed to `experiment` (--solver, --portfolio, --rlimit, --timeout, …);
// --inputs PATH (repeatable, default examples). Writes
// bench/results/determinism/{alone,loaded}/ (ignored by git).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const { values, tokens } = parseArgs({
  options: { busy: { type: 'string', default: '1' }, inputs: { type: 'string', multiple: true } },
  strict: false,
  tokens: true,
});
// everything but our own options goes to `experiment`
const passed = tokens.flatMap((t) => (t.kind === 'option' && !['busy', 'inputs'].includes(t.name) ? [t.rawName, ...(t.value === undefined ? [] : [t.value])] : []));
const inputs = values.inputs ?? ['examples'];
const busy = Number(values.busy);

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });

function experiment(name, extra) {
  const out = join('bench/results/determinism', name);
  const started = performance.now();
  execFileSync(process.execPath, ['bin/faial-ts.js', 'experiment', ...inputs, '--out', out, ...passed, ...extra], { stdio: ['ignore', 'ignore', 'inherit'] });
  const wallS = (performance.now() - started) / 1000;
  const results = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8'));
  return { name, wallS, run: results.run, kernels: results.rows.filter((r) => r.kind === 'kernel') };
}

const key = (r) => `${r.file} ${r.kernel}`;
const verdictOf = (r) => `${r.verdict}, ${r.confirmedAlarms} confirmed, ${r.possibleAlarms} possible, ${r.unknownQueries} unknown queries`;
const totalMs = (r) => r.totalMs;

function summary(run) {
  const ms = run.kernels.map(totalMs).sort((a, b) => a - b);
  const unknown = run.kernels.filter((r) => r.verdict === 'unknown');
  const slowest = run.kernels.reduce((a, b) => (totalMs(b) > totalMs(a) ? b : a));
  return [
    `${run.name}: ${run.run.solver}, ${run.run.rlimit ?? '—'} units, ${run.run.jobs} process(es); ${run.kernels.length} kernels in ${run.wallS.toFixed(1)} s`,
    `  per kernel: median ${ms[Math.floor(ms.length / 2)].toFixed(0)} ms, largest ${ms.at(-1).toFixed(0)} ms (${key(slowest)})`,
    `  unknown: ${unknown.length}${unknown.length === 0 ? '' : ` (${unknown.map(key).join(', ')})`}`,
  ].join('\n');
}

const alone = experiment('alone', ['--jobs', '1']);
console.log(summary(alone));

const loops = Array.from({ length: busy }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
let loaded;
try {
  loaded = experiment('loaded', ['--jobs', '2']);
} finally {
  for (const l of loops) l.kill('SIGKILL');
}
console.log(summary(loaded));

const before = new Map(alone.kernels.map((r) => [key(r), verdictOf(r)]));
const differences = loaded.kernels.filter((r) => before.get(key(r)) !== verdictOf(r)).map((r) => `${key(r)}: alone ${before.get(key(r)) ?? 'missing'}; loaded ${verdictOf(r)}`);
if (loaded.kernels.length !== alone.kernels.length) differences.push(`${alone.kernels.length} kernels alone, ${loaded.kernels.length} loaded`);
if (differences.length === 0) {
  console.log(`\nidentical verdicts: ${alone.kernels.length} kernels, alone and with --jobs 2 beside ${busy} busy loop(s)`);
} else {
  console.log(`\n${differences.length} difference(s):\n${differences.join('\n')}`);
  process.exitCode = 1;
}
