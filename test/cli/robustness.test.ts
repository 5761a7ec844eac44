/**
 * Bad input through the whole CLI: a seeded set of mutants of the examples
 * (bytes flipped, files cut short, tokens inserted or dropped, a byte-order
 * mark, CR line endings, NUL and escape characters, deep nesting, huge
 * numbers) each run through `verify` in-process. Each must end with a verdict
 * (exit 0, 1 or 3) or with exit 2 and a located diagnostic (file:line:column
 * and a code frame), never an internal error or a stack trace. Any verdict
 * will do, so the solver's timeout is short. ROBUSTNESS_SEED and
 * ROBUSTNESS_RUNS run a longer campaign.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliResult, KERNELS } from './helpers.js';

const SEED = Number(process.env['ROBUSTNESS_SEED'] ?? 15);
const RUNS = Number(process.env['ROBUSTNESS_RUNS'] ?? 200);
/** .cu mutants run besides the hostile cases (each is a verify of a CUDA file: a few times slower than a BabyCUDA one) */
const CU_RUNS = Number(process.env['ROBUSTNESS_CU_RUNS'] ?? 24);

/** mulberry32: small, seeded, the same on every machine. */
function randomOf(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const below = (r: Random, n: number): number => Math.floor(r() * n);
const pick = <T>(r: Random, xs: readonly T[]): T => xs[below(r, xs.length)]!;

const TOKENS = [
  'kernel', 'shared', 'global', 'let', 'in', 'if', 'else', 'for', 'downto', 'step', 'sync', 'assume', 'skip', 'requires',
  'tid', 'blockDim.x', 'threadIdx.y', 'gridDim.z', ';', ',', ':=', '=', '==', '<', '<<<', '>>>', '..', '(', ')', '[', ']',
  '{', '}', '+', '-', '*', '/', '%', '&&', '||', '!', '0', '1', '4294967296', '18446744073709551616', 'A', 'x', '/*', '*/', '//',
];

/** One mutant of a seed text, and what was done (for the failure message). */
type Mutation = (r: Random, bytes: Buffer) => { what: string; bytes: Buffer };

const text = (b: Buffer): string => b.toString('utf8');
const bytesOf = (s: string): Buffer => Buffer.from(s, 'utf8');

/** A place where a statement may start: after a `{` or a `;`. */
function statementStart(r: Random, s: string): number {
  const places = [...s.matchAll(/[{;]/g)].map((m) => m.index + 1);
  return places.length === 0 ? 0 : pick(r, places);
}

const MUTATIONS: readonly Mutation[] = [
  (r, b) => {
    const out = Buffer.from(b);
    const flips = 1 + below(r, 3);
    for (let i = 0; i < flips; i++) {
      const at = below(r, out.length);
      out[at] = out[at]! ^ (1 << below(r, 8));
    }
    return { what: `${flips} bit(s) flipped`, bytes: out };
  },
  (r, b) => {
    const at = below(r, b.length);
    return { what: `cut at byte ${at}`, bytes: b.subarray(0, at) };
  },
  (r, b) => {
    const s = text(b);
    const at = below(r, s.length + 1);
    const token = pick(r, TOKENS);
    return { what: `'${token}' inserted at ${at}`, bytes: bytesOf(`${s.slice(0, at)} ${token} ${s.slice(at)}`) };
  },
  (r, b) => {
    const s = text(b);
    const tokens = [...s.matchAll(/[A-Za-z_]\w*|\d+|:=|\.\.|[^\s\w]/g)];
    const m = pick(r, tokens);
    return { what: `'${m[0]}' dropped at ${m.index}`, bytes: bytesOf(s.slice(0, m.index) + s.slice(m.index + m[0].length)) };
  },
  (_r, b) => ({ what: 'byte-order mark', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]) }),
  (r, b) => {
    const eol = pick(r, ['\r', '\r\n']);
    return { what: `line endings ${JSON.stringify(eol)}`, bytes: bytesOf(text(b).replace(/\n/g, eol)) };
  },
  (r, b) => {
    const s = text(b);
    const at = below(r, s.length + 1);
    const ch = pick(r, ['\u0000', '\u001b[31m', '\u0007', '\u007f', '\u202e', '\u00a0', '\uFEFF', '\r']);
    return { what: `${JSON.stringify(ch)} inserted at ${at}`, bytes: bytesOf(s.slice(0, at) + ch + s.slice(at)) };
  },
  (r, b) => {
    // deep nesting around a statement: brackets past the limit or not, long let chains, long sums
    const s = text(b);
    const at = statementStart(r, s);
    const n = pick(r, [20, 126, 130, 300]);
    const shape = below(r, 4);
    const wrapped =
      shape === 0
        ? ` if ${'('.repeat(n)}tid < 1000${')'.repeat(n)} { skip };`
        : shape === 1
          ? ` ${'if (tid < 1000) { '.repeat(n)}skip${' }'.repeat(n)};`
          : shape === 2
            ? ` ${Array.from({ length: n * 4 }, (_, i) => `let deep${i} = ${i} in `).join('')}skip;`
            : ` assume ${Array(n * 4).fill('tid').join(' + ')} >= 0;`;
    return { what: `nesting shape ${shape} of size ${n} at ${at}`, bytes: bytesOf(s.slice(0, at) + wrapped + s.slice(at)) };
  },
];

const STACK_TRACE = /\n\s+at .+[(:]\d+:\d+\)?/;

/** The seeds: the first kernel of each folder of examples (short and varied), and the CLI tests' kernels. */
function seedKernels(): { name: string; bytes: Buffer }[] {
  const examples = new URL('../../examples/', import.meta.url);
  const folders = readdirSync(examples, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const seeds = folders.flatMap((folder) => {
    const first = readdirSync(new URL(`${folder}/`, examples)).filter((f) => f.endsWith('.bcu')).sort()[0];
    return first === undefined ? [] : [{ name: `${folder}/${first}`, bytes: readFileSync(new URL(`${folder}/${first}`, examples)) }];
  });
  return [...seeds, ...Object.entries(KERNELS).flatMap(([name, source]) => (name.endsWith('.bcu') && !name.includes('/') ? [{ name, bytes: bytesOf(source) }] : []))];
}

const mutants = ((): { name: string; bytes: Buffer }[] => {
  const r = randomOf(SEED);
  const seeds = seedKernels();
  return Array.from({ length: RUNS }, (_, i) => {
    const seed = pick(r, seeds);
    const m = pick(r, MUTATIONS)(r, seed.bytes);
    return { name: `#${i} ${seed.name}, ${m.what}`, bytes: m.bytes };
  });
})();

/** What is wrong with a run's ending, or null. */
function problemOf(path: string, run: { exitCode: number; stdout: string; stderr: string }): string | null {
  const output = `${run.stdout}${run.stderr}`;
  const located = new RegExp(`${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:\\d+:\\d+\\n(.*\\n)*\\s+>\\s+\\d+ \\|`);
  if (/internal error|this is a bug|E0900/.test(output)) return 'an internal error';
  if (STACK_TRACE.test(output)) return 'a stack trace';
  if (![0, 1, 2, 3].includes(run.exitCode)) return `exit ${run.exitCode}`;
  if (run.exitCode === 2 && !located.test(output)) return 'exit 2 without a located diagnostic and code frame';
  // the verdict marks of report/text.ts: DRF, racy/divergent/error, benign, vacuous, unknown
  if (run.exitCode !== 2 && !/^[✓✗⚠!?] /m.test(run.stdout)) return 'no verdict';
  if (/[\u0000-\u0008\u000b-\u001f\u007f]/.test(output)) return 'a raw control character in the output';
  return null;
}

let dir = '';
const exits: number[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-robust-'));
});
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe(`verify on ${RUNS} mutated examples (seed ${SEED})`, () => {
  it.each(mutants.map((m, i) => [m.name, i] as const))('%s: a verdict or a located diagnostic', async (_name, i) => {
    const mutant = mutants[i]!;
    const path = join(dir, `m${i}.bcu`);
    await writeFile(path, mutant.bytes);
    const run = await cliResult(['verify', '--timeout', '300', '--max-races', '2', path]);
    exits.push(run.exitCode);
    const problem = problemOf(path, run);
    expect(problem === null ? null : `${problem}\n${JSON.stringify(text(mutant.bytes).slice(0, 300))}\n${run.stdout}${run.stderr}`).toBeNull();
  });

  it('exercised both bad input and verdicts', () => {
    expect(exits.filter((e) => e === 2).length).toBeGreaterThan(RUNS / 4);
    expect(exits.filter((e) => e !== 2).length).toBeGreaterThan(RUNS / 10);
  });
});

// ---------------------------------------------------------------- CUDA C

const CU_TOKENS = ['{', '}', '(', ')', '[', ']', ';', ',', '<<<', '>>>', '::', '=', '?', ':', '#', 'if', 'else', 'for', 'while', 'return', 'template', 'struct',
  'int', 'unsigned', 'float', '__global__', '__shared__', '__syncthreads()', 'threadIdx.x', 'blockDim.x', 'A', '0', '4294967296', '"s"', '/*', '//', '#define X', '#if 0', '#endif'];

const cuTokens = (s: string): RegExpMatchArray[] => [...s.matchAll(/[A-Za-z_]\w*|\d[\w.]*|<<<|>>>|::|->|[-+*/%&|^<>=!]=|&&|\|\||"(?:[^"\\\n]|\\.)*"|\S/g)];
const CU_MUTATIONS: readonly Mutation[] = [
  MUTATIONS[0]!,
  MUTATIONS[1]!,
  (r, b) => {
    const s = text(b);
    const m = pick(r, cuTokens(s));
    return { what: `'${m[0]}' dropped at ${m.index}`, bytes: bytesOf(s.slice(0, m.index) + s.slice(m.index! + m[0].length)) };
  },
  (r, b) => {
    const s = text(b);
    const m = pick(r, cuTokens(s));
    return { what: `'${m[0]}' doubled at ${m.index}`, bytes: bytesOf(`${s.slice(0, m.index)}${m[0]} ${s.slice(m.index)}`) };
  },
  (r, b) => {
    const s = text(b);
    const at = below(r, s.length + 1);
    const token = pick(r, CU_TOKENS);
    return { what: `'${token}' inserted at ${at}`, bytes: bytesOf(`${s.slice(0, at)} ${token} ${s.slice(at)}`) };
  },
];

/** Hostile .cu files, the same every run: nesting past the limits, a macro bomb, includes of odd files ({outside}: a file outside the project). */
const HOSTILE: Record<string, string> = {
  'blocks-3000': `__global__ void k(int *A) {\n${'{'.repeat(3000)}A[threadIdx.x] = 0;${'}'.repeat(3000)}\n}\n`,
  'parentheses-10000': `__global__ void k(int *A) {\n  A[threadIdx.x] = ${'('.repeat(10000)}1${')'.repeat(10000)};\n}\n`,
  'ifs-1000': `__global__ void k(int *A) {\n${'if (threadIdx.x < 5) '.repeat(1000)}A[threadIdx.x] = 0;\n}\n`,
  'for-1000': `__global__ void k(int *A) {\n${Array.from({ length: 1000 }, (_, i) => `for (int i${i} = 0; i${i} < 2; i${i}++) `).join('')}A[threadIdx.x] = 0;\n}\n`,
  'macro-bomb': `#define B0 1\n${Array.from({ length: 40 }, (_, i) => `#define B${i + 1} B${i} B${i}`).join('\n')}\n__global__ void k(int *A) {\n  A[threadIdx.x] = B40;\n}\n`,
  'include-directory': `#include "inc"\n__global__ void k(int *A) { A[threadIdx.x] = 0; }\n`,
  'include-dev-zero': `#include "/dev/zero"\n__global__ void k(int *A) { A[threadIdx.x] = 0; }\n`,
  'include-missing': `#include "missing.h"\n__global__ void k(int *A) { A[threadIdx.x] = 0; }\n`,
  'include-outside': `#include "{outside}"\n__global__ void k(int *A) { A[threadIdx.x] = 0; }\n`,
};

function cuSeeds(): { name: string; bytes: Buffer }[] {
  const cuda = new URL('../../examples/cuda/', import.meta.url);
  const folders = readdirSync(cuda, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return folders.flatMap((folder) => {
    const first = readdirSync(new URL(`${folder}/`, cuda)).filter((f) => f.endsWith('.cu')).sort()[0];
    return first === undefined ? [] : [{ name: `cuda/${folder}/${first}`, bytes: readFileSync(new URL(`${folder}/${first}`, cuda)) }];
  });
}

const cuMutants = ((): { name: string; bytes: Buffer }[] => {
  const r = randomOf(SEED + 1);
  const seeds = cuSeeds();
  return Array.from({ length: CU_RUNS }, (_, i) => {
    const seed = pick(r, seeds);
    const m = pick(r, CU_MUTATIONS)(r, seed.bytes);
    return { name: `#${i} ${seed.name}, ${m.what}`, bytes: m.bytes };
  });
})();

describe(`verify on ${CU_RUNS} mutated CUDA examples and ${Object.keys(HOSTILE).length} hostile .cu files (seed ${SEED + 1})`, () => {
  let cuDir = '';
  let outside = '';
  beforeAll(async () => {
    cuDir = await mkdtemp(join(tmpdir(), 'faial-robust-cu-'));
    outside = await mkdtemp(join(tmpdir(), 'faial-robust-outside-'));
    await mkdir(join(cuDir, 'inc'));
    await writeFile(join(outside, 'secret.h'), '#define N 3\nint SECRET_LINE_7c1e;\n');
  });
  afterAll(async () => {
    for (const d of [cuDir, outside]) if (d !== '') await rm(d, { recursive: true, force: true });
  });

  it.each(Object.keys(HOSTILE))('%s: a verdict or a located diagnostic, soon', async (name) => {
    const path = join(cuDir, `${name}.cu`);
    await writeFile(path, HOSTILE[name]!.replace('{outside}', join(outside, 'secret.h')));
    const started = Date.now();
    const run = await cliResult(['verify', '--timeout', '300', '--max-races', '2', path]);
    const problem = problemOf(path, run);
    expect(problem === null ? null : `${problem}\n${run.stdout}${run.stderr}`).toBeNull();
    expect(run.exitCode).toBe(2);
    expect(`${run.stdout}${run.stderr}`).not.toContain('SECRET_LINE');
    expect(Date.now() - started).toBeLessThan(30_000);
  }, 60_000);

  it.each(cuMutants.map((m, i) => [m.name, i] as const))('%s: a verdict or a located diagnostic', async (_name, i) => {
    const mutant = cuMutants[i]!;
    const path = join(cuDir, `m${i}.cu`);
    await writeFile(path, mutant.bytes);
    const run = await cliResult(['verify', '--timeout', '300', '--max-races', '2', path]);
    const problem = problemOf(path, run);
    expect(problem === null ? null : `${problem}\n${JSON.stringify(text(mutant.bytes).slice(0, 300))}\n${run.stdout}${run.stderr}`).toBeNull();
  }, 60_000);
});
