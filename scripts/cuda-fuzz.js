#!/usr/bin/env node
// Fuzzing of the CUDA front end alone (not a test): mutants of the .cu
// examples (bytes flipped, tokens dropped, repeated or inserted, files cut
// short, deep nesting, macro bombs, includes of odd files, invalid UTF-8)
// through the preprocessor, the parser, the lowering and MAP inference, in
// this process, without a solver. Reported: internal errors (an exception,
// or an E0900 diagnostic), silent drops (fewer kernels lowered or reported in
// error than the `__global__` scan of heads.ts finds in the preprocessed text),
// and time outliers (a mutant slower than --bound ms), each with the index
// that rebuilds it (--only N). Seeded and resumable: the state file keeps the
// seed, the next mutant and the findings; run again to go on.
// Reads dist/: run `npm run build` first (or run from a copy of the checkout,
// so that a rebuild does not change the code under test).
//
// Usage: node scripts/cuda-fuzz.js [--runs N] [--seed S] [--state FILE]
//          [--bound MS] [--only N] [--fresh]
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { frontEndsFor } = await import(join(root, 'dist/cli/cuda.js'));
const { lowerCuda } = await import(join(root, 'dist/frontend/cuda/lower.js'));
const { kernelHeads } = await import(join(root, 'dist/frontend/cuda/heads.js'));
const { wellFormednessErrors } = await import(join(root, 'dist/names/check.js'));
const { inferMap } = await import(join(root, 'dist/map/infer.js'));

const args = process.argv.slice(2);
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? fallback : args[i + 1];
};
const RUNS = Number(flag('runs', 1000));
const SEED = Number(flag('seed', 1));
const STATE = flag('state', 'cuda-fuzz.state.json');
const BOUND = Number(flag('bound', 2000));
const ONLY = flag('only', null);

/** mulberry32, as in the robustness test. */
function randomOf(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const below = (r, n) => Math.floor(r() * n);
const pick = (r, xs) => xs[below(r, xs.length)];

function cuFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? cuFiles(join(dir, e.name)) : e.name.endsWith('.cu') ? [join(dir, e.name)] : []));
}
const seeds = cuFiles(join(root, 'examples')).sort().map((path) => ({ path, text: readFileSync(path, 'utf8') }));

const TOKENS = ['{', '}', '(', ')', '[', ']', ';', ',', '<', '>', '<<<', '>>>', '::', '=', '+=', '++', '*', '&', '?', ':', '#', '##', '\\\n',
  'if', 'else', 'for', 'while', 'do', 'return', 'break', 'continue', 'switch', 'case', 'goto', 'template', 'typename', 'struct', 'union', 'class',
  'int', 'unsigned', 'float', 'auto', 'const', 'volatile', 'static', 'extern', '__global__', '__device__', '__shared__', '__syncthreads()',
  'threadIdx.x', 'blockDim.x', 'blockIdx.y', 'i', 'A', 'N', '0', '1', '-1', '4294967296', '0x7fffffff', '1e9', '"s"', "'c'", '/*', '*/', '//',
  '#define X', '#if 0', '#endif', '#include', '__VA_ARGS__', 'sizeof', 'static_cast<int>', 'operator', '~', 'new', 'delete', 'this'];
const ODD_INCLUDES = ['"/dev/zero"', '"."', '".."', '"/"', '"missing-file.h"', '<missing-file.h>', '"/etc/passwd"', '"../../../../etc/hostname"', '"/proc/self/status"', '""', '<>'];

const tokensOf = (s) => [...s.matchAll(/[A-Za-z_]\w*|\d[\w.]*|<<<|>>>|::|->|\+\+|--|[-+*/%&|^<>=!]=|&&|\|\||<<|>>|"(?:[^"\\\n]|\\.)*"|\S/g)];
const statementStart = (r, s) => {
  const places = [...s.matchAll(/[{;]\s*\n/g)].map((m) => m.index + 1);
  return places.length === 0 ? s.length : pick(r, places);
};
const at = (s, i, piece) => s.slice(0, i) + piece + s.slice(i);

/** Each mutation: (random, text) => { what, text } */
const MUTATIONS = [
  (r, s) => {
    const b = Buffer.from(s, 'utf8');
    const flips = 1 + below(r, 4);
    for (let i = 0; i < flips; i++) {
      const j = below(r, b.length);
      b[j] ^= 1 << below(r, 8);
    }
    return { what: `${flips} bit(s) flipped`, text: b.toString('utf8') };
  },
  (r, s) => {
    const ts = tokensOf(s);
    const n = 1 + below(r, 3);
    let out = s;
    for (let k = 0; k < n && ts.length > 0; k++) {
      const m = ts.splice(below(r, ts.length), 1)[0];
      if (m.index + m[0].length <= out.length) out = out.slice(0, m.index) + ' '.repeat(m[0].length) + out.slice(m.index + m[0].length);
    }
    return { what: `${n} token(s) dropped`, text: out };
  },
  (r, s) => {
    const ts = tokensOf(s);
    const m = pick(r, ts);
    const times = pick(r, [1, 2, 3, 50]);
    return { what: `'${m[0]}' repeated ${times}x at ${m.index}`, text: at(s, m.index, `${m[0]} `.repeat(times)) };
  },
  (r, s) => {
    const i = below(r, s.length + 1);
    const tok = pick(r, TOKENS);
    return { what: `'${tok}' inserted at ${i}`, text: at(s, i, ` ${tok} `) };
  },
  (r, s) => {
    const i = below(r, s.length);
    return { what: `cut at ${i}`, text: s.slice(0, i) };
  },
  (r, s) => {
    // a span of tokens copied elsewhere
    const ts = tokensOf(s);
    const a = below(r, ts.length);
    const b = Math.min(ts.length - 1, a + below(r, 20));
    const piece = s.slice(ts[a].index, ts[b].index + ts[b][0].length);
    const i = pick(r, ts).index;
    return { what: `tokens ${a}..${b} copied to ${i}`, text: at(s, i, ` ${piece} `) };
  },
  (r, s) => {
    const i = statementStart(r, s);
    const n = pick(r, [50, 150, 199, 201, 400, 1001, 3000, 10000]);
    const shape = below(r, 7);
    const pieces = [
      () => `${'{'.repeat(n)}${'}'.repeat(n)}`,
      () => `int deep = ${'('.repeat(n)}1${')'.repeat(n)};`,
      () => `${'if (threadIdx.x < 7) '.repeat(n)};`,
      () => `${Array.from({ length: Math.min(n, 400) }, (_, j) => `for (int q${j} = 0; q${j} < 2; q${j}++) `).join('')};`,
      () => `int sum = ${Array(n).fill('threadIdx.x').join(' + ')};`,
      () => `int neg = ${'- '.repeat(n)}1;`,
      () => `${'do { '.repeat(Math.min(n, 400))}${' } while (0);'.repeat(Math.min(n, 400))}`,
    ];
    return { what: `nesting shape ${shape} of ${n} at ${i}`, text: at(s, i, pieces[shape]()) };
  },
  (r, s) => {
    // an exponential #define chain, used in the kernel or not
    const n = pick(r, [8, 12, 16, 40]);
    const defs = Array.from({ length: n }, (_, j) => `#define B${j + 1} B${j} B${j}`).join('\n');
    const use = r() < 0.7 ? `int bomb = B${n};\n` : '';
    const i = statementStart(r, s);
    return { what: `macro bomb of ${n} at ${i}${use === '' ? ' (unused)' : ''}`, text: `#define B0 1\n${defs}\n${at(s, i, use)}` };
  },
  (r, s) => {
    const inc = pick(r, ODD_INCLUDES);
    const where = r() < 0.5 ? 0 : statementStart(r, s);
    return { what: `#include ${inc} at ${where}`, text: at(s, where, `\n#include ${inc}\n`) };
  },
  (r, s) => {
    // invalid UTF-8 or a control character in a kernel's head or anywhere
    const heads = [...s.matchAll(/__global__/g)].map((m) => m.index);
    const i = heads.length > 0 && r() < 0.6 ? pick(r, heads) + 11 + below(r, 20) : below(r, s.length);
    const bytes = pick(r, [[0xff], [0xc3], [0xe2, 0x82], [0x00], [0x1b], [0xed, 0xa0, 0x80]]);
    const b = Buffer.from(s, 'utf8');
    const j = Math.min(i, b.length);
    return { what: `bytes ${bytes.map((x) => x.toString(16)).join(' ')} at ${j}`, text: Buffer.concat([b.subarray(0, j), Buffer.from(bytes), b.subarray(j)]).toString('utf8') };
  },
];

function mutant(index) {
  const r = randomOf((SEED * 1_000_003 + index) >>> 0);
  const seed = pick(r, seeds);
  let text = seed.text;
  const whats = [];
  const rounds = r() < 0.8 ? 1 : 2;
  for (let k = 0; k < rounds; k++) {
    const m = pick(r, MUTATIONS)(r, text);
    whats.push(m.what);
    text = m.text;
  }
  return { path: seed.path, name: relative(root, seed.path), what: whats.join('; '), text };
}

const isInternal = (d) => d.code === 'E0900' || /internal error/i.test(d.message);

/** One mutant through the front end: what went wrong, if anything, and the counts. */
async function run(m) {
  const frontEnds = await frontEndsFor(m.path, m.text, {});
  const lowered = lowerCuda(frontEnds.cuda, m.path, m.text);
  const diagnostics = [...lowered.errors, ...lowered.rejected.map((k) => k.diagnostic), ...lowered.notices];
  const internal = diagnostics.filter(isInternal).map((d) => d.message);
  // a file in error as a whole (preprocessor, nesting, no kernel) reports every kernel it has
  const fileInError = lowered.errors.length > 0;
  const heads = kernelHeads(lowered.program.file.text).length;
  const accounted = lowered.program.kernels.length + lowered.rejected.length;
  const dropped = fileInError ? 0 : Math.max(0, heads - accounted);
  if (lowered.errors.some((d) => d.code === 'E0606') && heads > 0) internal.push(`'no kernel' with ${heads} __global__ heads`);
  if (wellFormednessErrors(lowered.program).length === 0) for (const k of lowered.program.kernels) inferMap(lowered.program.file, k);
  return { internal, dropped, heads, accounted, fileInError };
}

function load() {
  if (!args.includes('--fresh') && existsSync(STATE)) {
    const s = JSON.parse(readFileSync(STATE, 'utf8'));
    if (s.seed === SEED) return s;
  }
  return { seed: SEED, next: 0, mutants: 0, fileErrors: 0, kernels: 0, internal: [], drops: [], slow: [], slowest: [] };
}

function save(state) {
  writeFileSync(`${STATE}.tmp`, `${JSON.stringify(state, null, 1)}\n`);
  renameSync(`${STATE}.tmp`, STATE);
}

if (ONLY !== null) {
  const m = mutant(Number(ONLY));
  console.log(`#${ONLY} ${m.name}: ${m.what}`);
  writeFileSync(`cuda-fuzz-${ONLY}.cu`, m.text);
  const t0 = performance.now();
  console.log(await run(m), `${Math.round(performance.now() - t0)} ms (written to cuda-fuzz-${ONLY}.cu)`);
  process.exit(0);
}

const state = load();
const end = state.next + RUNS;
const started = performance.now();
for (; state.next < end; state.next++) {
  const i = state.next;
  const m = mutant(i);
  const t0 = performance.now();
  let outcome;
  try {
    outcome = await run(m);
  } catch (e) {
    outcome = { internal: [`thrown: ${e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 4).join(' | ') : String(e)}`], dropped: 0, heads: 0, accounted: 0, fileInError: false };
  }
  const ms = performance.now() - t0;
  state.mutants++;
  state.kernels += outcome.accounted;
  if (outcome.fileInError) state.fileErrors++;
  const where = { index: i, seed: m.name, what: m.what.slice(0, 200), ms: Math.round(ms) };
  for (const message of outcome.internal) state.internal.push({ ...where, message: message.slice(0, 300) });
  if (outcome.dropped > 0) state.drops.push({ ...where, heads: outcome.heads, accounted: outcome.accounted });
  if (ms > BOUND) state.slow.push(where);
  state.slowest = [...state.slowest, where].sort((a, b) => b.ms - a.ms).slice(0, 10);
  if (state.next % 500 === 499) {
    save({ ...state, next: i + 1 });
    const rate = ((i + 1 - (end - RUNS)) / ((performance.now() - started) / 1000)).toFixed(1);
    console.log(`${i + 1} mutants (${rate}/s): ${state.internal.length} internal errors, ${state.drops.length} drops, ${state.slow.length} over ${BOUND} ms`);
  }
}
save(state);
console.log(`seed ${SEED}: ${state.mutants} mutants of ${seeds.length} examples, ${state.kernels} kernels lowered or rejected, ${state.fileErrors} files in error as a whole`);
console.log(`internal errors: ${state.internal.length}; silent drops: ${state.drops.length}; over ${BOUND} ms: ${state.slow.length}`);
for (const x of state.internal.slice(0, 20)) console.log(`  internal #${x.index} ${x.seed} (${x.what}): ${x.message}`);
for (const x of state.drops.slice(0, 20)) console.log(`  drop #${x.index} ${x.seed} (${x.what}): ${x.heads} heads, ${x.accounted} kernels`);
console.log('slowest:');
for (const x of state.slowest) console.log(`  #${x.index} ${x.ms} ms ${x.seed} (${x.what})`);
process.exitCode = state.internal.length + state.drops.length > 0 ? 1 : 0;
