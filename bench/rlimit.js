#!/usr/bin/env node
// Calibration of the default budget (npm run bench:rlimit): every query of
// every example (divergence, loop-completion and race queries, as `faial-ts
// smt --out` writes them; integer queries also in their bit-vector encoding)
// checked by each z3-wasm strategy with a cap of --cap resource units and a
// wall-clock safety net of --timeout ms. Prints, per strategy, the units the
// decided queries spent (median, 90th percentile, largest, and which) and the
// queries left undecided, then the default budget's margin over the largest.
// Units are counted by Z3 itself: the figures are the same on every machine
// and under any load; only the seconds column depends on the machine.
// Writes bench/results/rlimit.json. Options: --cap N (default 50000000),
// --timeout MS (default 600000), --strategy NAME (repeatable), --only TEXT
// (queries whose name contains TEXT).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const { values } = parseArgs({
  options: {
    cap: { type: 'string', default: '50000000' },
    timeout: { type: 'string', default: '600000' },
    strategy: { type: 'string', multiple: true },
    only: { type: 'string', default: '' },
  },
});
const cap = Number(values.cap);
const timeoutMs = Number(values.timeout);

execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
const { checkedKernels } = await import('../dist/api/check.js');
const { queryScripts } = await import('../dist/verify/scripts.js');
const { bitVectorEncoding, printScript, EncodingLimit } = await import('../dist/encode/smtlib.js');
const { STANDARD, PREPROCESSED, RESEEDED } = await import('../dist/solve/z3-script.js');
const { DEFAULT_RLIMIT } = await import('../dist/solve/budget.js');
const { measuredCheck, z3Wasm } = await import('../dist/solve/z3.js');

const strategies = [STANDARD, PREPROCESSED, RESEEDED].filter((s) => values.strategy === undefined || values.strategy.includes(s.name));
const NO_LAUNCH = { params: new Map(), blockDim: null, gridDim: null };

const files = (dir) =>
  readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : n.endsWith('.bcu') ? [p] : [];
    });

/** Every query: its own script, and its bit-vector encoding when it is an integer query. */
const queries = [];
for (const path of files('examples')) {
  const checked = checkedKernels(path, readFileSync(path, 'utf8'));
  if (!checked.ok) throw new Error(`${path} does not check`);
  for (const map of checked.kernels) {
    let named;
    try {
      named = await queryScripts(map, NO_LAUNCH, timeoutMs, z3Wasm);
    } catch (e) {
      if (e instanceof EncodingLimit) continue;
      throw e;
    }
    for (const { name, script, query } of named) {
      const id = `${path} ${name}`;
      if (!id.includes(values.only)) continue;
      queries.push({ id, encoding: query?.encoding.width === null ? 'integers' : query === null ? 'own' : 'bit-vectors', script });
      if (query !== null && query.encoding.width === null) {
        try {
          queries.push({ id, encoding: 'bit-vectors (second)', script: printScript(query.declarations, query.assertions, bitVectorEncoding(query.declarations, query.assertions)) });
        } catch (e) {
          if (!(e instanceof EncodingLimit)) throw e;
        }
      }
    }
  }
}

const rows = [];
for (const q of queries) {
  for (const s of strategies) {
    const started = performance.now();
    const { verdict, spent } = await measuredCheck(q.script, s, cap, timeoutMs);
    rows.push({ query: q.id, encoding: q.encoding, strategy: s.name, status: verdict.status, spent, seconds: (performance.now() - started) / 1000 });
    const last = rows.at(-1);
    console.error(`${last.status.padEnd(7)} ${String(spent).padStart(10)} units ${last.seconds.toFixed(1).padStart(6)} s  ${s.name}  ${q.encoding}  ${q.id}`);
  }
}

const quantile = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
console.log(`\n${queries.length} scripts (${new Set(queries.map((q) => q.id)).size} queries), cap ${cap} units, safety net ${timeoutMs} ms\n`);
console.log(['strategy', 'scripts', 'decided', 'median', 'p90', 'largest', 'undecided', 'largest decided by'].join('\t'));
for (const s of strategies) {
  for (const own of [true, false]) {
    const mine = rows.filter((r) => r.strategy === s.name && own === !r.encoding.includes('second'));
    const decided = mine.filter((r) => r.status !== 'unknown' && r.spent !== null).sort((a, b) => a.spent - b.spent);
    const largest = decided.at(-1);
    console.log(
      [
        `${s.name}${own ? '' : ' on bit-vectors'}`,
        mine.length,
        decided.length,
        decided.length === 0 ? '—' : quantile(decided.map((r) => r.spent), 0.5),
        decided.length === 0 ? '—' : quantile(decided.map((r) => r.spent), 0.9),
        largest?.spent ?? '—',
        mine.length - decided.length,
        largest?.query ?? '—',
      ].join('\t'),
    );
  }
}
const standard = rows.filter((r) => r.strategy === STANDARD.name && !r.encoding.includes('second') && r.status !== 'unknown' && r.spent !== null);
const most = Math.max(0, ...standard.map((r) => r.spent));
console.log(`\ndefault --rlimit ${DEFAULT_RLIMIT}: ${(DEFAULT_RLIMIT / Math.max(1, most)).toFixed(1)} times the largest spent by ${STANDARD.name} on a query it decides (${most})`);
const undecided = rows.filter((r) => r.status === 'unknown');
for (const r of undecided) console.log(`undecided within ${cap} units: ${r.strategy} ${r.encoding} ${r.query}`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/rlimit.json', JSON.stringify({ date: new Date().toISOString(), cap, timeoutMs, rows }, null, 2));
