#!/usr/bin/env node
// Z3's tactics on bit-vector queries (npm run bench:tactics): every query of
// every example (`faial-ts smt examples --out DIR`) whose constants are
// bit-vectors, checked by the z3 binary and by z3-wasm, each with `smt` (the
// SMT core) and `qfbv` (bit-blasting to SAT), under the default budget. Prints
// per solver and tactic the total and median wall time, the largest query and
// the verdicts (the tactics must agree), and writes
// bench/results/tactics.json. This is what chose NATIVE's bit-vector tactic
// in src/solve/z3-script.ts. Options: --only TEXT (queries whose file name
// contains TEXT). The z3 binary is skipped when it is not installed.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);
const { values } = parseArgs({ options: { only: { type: 'string', default: '' } } });

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { overBitVectors, z3Script, z3Verdict } = await import('../dist/solve/z3-script.js');
const { DEFAULT_RLIMIT } = await import('../dist/solve/budget.js');
const { measuredCheck } = await import('../dist/solve/z3.js');

const dir = mkdtempSync(join(tmpdir(), 'faial-tactics-'));
let scripts;
try {
  spawnSync('node', ['bin/faial-ts.js', 'smt', 'examples', '--out', dir], { stdio: 'ignore' });
  scripts = readdirSync(dir)
    .sort()
    .filter((n) => n.includes(values.only))
    .map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }))
    .filter((s) => overBitVectors(s.text));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const TIMEOUT_MS = 120_000;
const native = spawnSync('z3', ['-version']).status === 0;

function binary(text, tactic) {
  const started = performance.now();
  const run = spawnSync('z3', ['-in', '-smt2', `-t:${TIMEOUT_MS}`], { input: z3Script(text, { name: 'z3', tactic }, DEFAULT_RLIMIT, null), encoding: 'utf8' });
  const elapsedMs = performance.now() - started;
  return { ms: elapsedMs, status: z3Verdict(run.stdout, text, DEFAULT_RLIMIT, { timeoutMs: TIMEOUT_MS, elapsedMs }).status };
}

async function wasm(text, tactic) {
  const started = performance.now();
  const { verdict } = await measuredCheck(text, { name: 'z3-wasm', tactic }, DEFAULT_RLIMIT, TIMEOUT_MS);
  return { ms: performance.now() - started, status: verdict.status };
}

const runs = [
  ...(native ? [['z3 binary', 'smt', binary], ['z3 binary', 'qfbv', binary]] : []),
  ['z3-wasm', 'smt', wasm],
  ['z3-wasm', 'qfbv', wasm],
];

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

console.log(`${scripts.length} bit-vector queries; budget ${DEFAULT_RLIMIT} units`);
const results = [];
for (const [solver, tactic, check] of runs) {
  const rows = [];
  for (const s of scripts) rows.push({ query: s.name, ...(await check(s.text, tactic)) });
  const ms = rows.map((r) => r.ms);
  const largest = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
  const counts = ['sat', 'unsat', 'unknown'].map((v) => `${rows.filter((r) => r.status === v).length} ${v}`);
  console.log(
    `${solver.padEnd(10)} ${tactic.padEnd(5)} total ${(ms.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s, median ${median(ms).toFixed(0)} ms, largest ${largest.ms.toFixed(0)} ms (${largest.query}); ${counts.join(', ')}`,
  );
  results.push({ solver, tactic, rows });
}
const decided = results.map((r) => r.rows.map((x) => x.status));
const disagree = scripts.filter((_, i) => new Set(decided.map((d) => d[i]).filter((v) => v !== 'unknown')).size > 1).map((s) => s.name);
console.log(disagree.length === 0 ? 'verdicts: the tactics agree on every query' : `verdicts DIFFER on: ${disagree.join(', ')}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/tactics.json', `${JSON.stringify({ queries: scripts.length, rlimit: DEFAULT_RLIMIT, results }, null, 2)}\n`);
if (disagree.length > 0) process.exitCode = 1;
