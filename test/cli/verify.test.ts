import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bigintOf } from '../../src/report/json.js';
import { ANSI, cliResult, decoded, kernelDir, removeDir } from './helpers.js';

let dir = '';
beforeAll(async () => {
  dir = await kernelDir();
});
afterAll(() => removeDir(dir));

const file = (name: string): string => join(dir, name);

describe('faial-ts verify (text)', () => {
  it('proves a DRF kernel, exit 0', async () => {
    const r = await cliResult(['verify', file('drf.bcu')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^✓ drf \(.*drf\.bcu\): DRF — proved for all parameters and launches: 1 phase, 1 array, 1 query, \d+ ms$/m);
    expect(r.stdout).toContain('well-typed: yes');
    expect(r.stdout).toMatch(/1 kernel: 1 DRF\n$/);
  });

  it('names the launch facts given on the command line', async () => {
    const r = await cliResult(['verify', file('drf.bcu'), '--block-dim', '[32,1,1]', '--grid-dim', '2']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('proved for all parameters, at blockDim = 32, gridDim = 2');
  });

  it('reports a race with both accesses marked in one frame and a witness table, exit 1', async () => {
    const r = await cliResult(['verify', file('racy.bcu')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/✗ data race on A\[\d+\] \(read-write, confirmed\)/);
    // both accesses, one frame: the read on line 3 and the write on line 4
    expect(r.stdout).toMatch(/> 3 \|   let v = A\[tid \+ 1\] in\n\s+\|\s+\^{10} read \(thread [12]\)\n\s+> 4 \|   A\[tid\] := v\n\s+\|\s+\^{6} write \(thread [12]\)/);
    expect(r.stdout).toMatch(/witness: N = \d+; blockDim = \d+, gridDim = 1/);
    expect(r.stdout).toMatch(/threadIdx\s+\d+\s+\| \d+/);
    expect(r.stdout).toContain('1 kernel: 1 racy');
  });

  it('reports a barrier divergence with the two threads, exit 1', async () => {
    const r = await cliResult(['verify', file('diverge.bcu')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('✗ barrier divergence at 4:5 (confirmed)');
    expect(r.stdout).toMatch(/> 4 \|     sync\n\s+\|\s+\^{4} thread 1 reaches this barrier, thread 2 does not/);
    expect(r.stdout).toMatch(/threadIdx\s+0\s+\| [1-9]\d*/);
  });

  it('hints at stating the launches when a race needs a grid larger than programs launch (an unsigned index wrapping)', async () => {
    const kernel = (requires: string): string => `__global__ void k(int *out) {\n  ${requires}if (threadIdx.x < 32) out[blockIdx.x * 32 + threadIdx.x] = blockIdx.x;\n}\n`;
    await writeFile(file('wrap-grid.cu'), kernel(''));
    const r = await cliResult(['verify', file('wrap-grid.cu')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/hint: this witness launches gridDim\.x = \d{6,} blocks; if the program never launches that many, state the launches it makes \(`__requires\(gridDim\.x <= …\)` in the kernel, or --grid-dim\)/);
    await writeFile(file('wrap-grid-bounded.cu'), kernel('__requires(gridDim.x <= 4294967296 / 32);\n  '));
    expect((await cliResult(['verify', file('wrap-grid-bounded.cu')])).exitCode).toBe(0);
    // a race at a small launch gets no such hint
    expect((await cliResult(['verify', file('racy.bcu')])).stdout).not.toContain('this witness launches');
  });

  it('prints a syntax error with file:line:col and a code frame, exit 2', async () => {
    const r = await cliResult(['verify', file('syntax.bcu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('error[E0001]: syntax error');
    expect(r.stdout).toContain(` --> ${file('syntax.bcu')}:3:3`);
    expect(r.stdout).toMatch(/> 3 \|   A\[0\] := 1\n\s+\|   \^/);
    expect(r.stdout).toContain('1 kernel: 1 error');
  });

  it('prints an unknown name with its hint, exit 2', async () => {
    const r = await cliResult(['verify', file('names.bcu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain("error[E0103]: unknown variable 'y'");
    expect(r.stdout).toContain(`${file('names.bcu')}:3:5`);
    expect(r.stdout).toMatch(/^hint: /m);
  });

  it('says which file is missing, without a stack trace, exit 2', async () => {
    const r = await cliResult(['verify', file('drf.bcu'), file('nope.bcu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: cannot read '${file('nope.bcu')}': no such file or directory\n`);
    expect(r.stdout).toBe('');
  });

  it('rejects -p for a name that is not a parameter, naming the parameters, exit 2', async () => {
    const r = await cliResult(['verify', file('racy.bcu'), '-p', 'M=3']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("error: -p M: kernel racy has no parameter 'M'");
    expect(r.stderr).toContain('hint: parameters: racy(N)');
  });

  it('applies -p to the kernels that have the parameter', async () => {
    const r = await cliResult(['verify', file('two.bcu'), '-p', 'M=3', '--json']);
    expect(r.exitCode).toBe(1);
    const report = decoded(r.stdout);
    const first = report.kernels.find((k) => k.kernel === 'first')!;
    expect(first.status).toBe('racy');
    expect(first.races[0]!.witness.parameters).toEqual({ M: 3 });
    expect(report.kernels.find((k) => k.kernel === 'second')!.status).toBe('drf');
  });

  it('rejects bad launch options, exit 2', async () => {
    for (const args of [['--block-dim', '0'], ['--grid-dim', '[1,x]'], ['-p', 'N'], ['--timeout', 'soon'], ['--bogus']]) {
      const r = await cliResult(['verify', file('drf.bcu'), ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/error/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('rejects launch values of 2^32 or more, which the verifier cannot take, naming the bound, exit 2', async () => {
    for (const args of [['--block-dim', '18446744073709551616'], ['--grid-dim', '1,4294967296'], ['-p', 'N=4294967296'], ['-p', 'N=18446744073709551616']]) {
      const r = await cliResult(['verify', file('racy.bcu'), ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('below 2^32 (4294967296)');
      expect(r.stdout, args.join(' ')).toBe('');
    }
    const largest = await cliResult(['verify', file('racy.bcu'), '-p', 'N=4294967295', '--block-dim', '4294967295']);
    expect(largest.exitCode).toBe(1);
  });

  it('--kernel selects one kernel; an unknown one lists the kernels, exit 2', async () => {
    const one = await cliResult(['verify', file('two.bcu'), '--kernel', 'second']);
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toContain('second');
    expect(one.stdout).not.toContain('first');
    const none = await cliResult(['verify', file('two.bcu'), '--kernel', 'third']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("error: no kernel named 'third'");
    expect(none.stderr).toContain('first, second');
  });

  it('verifies every .bcu below a directory, in sorted order', async () => {
    const r = await cliResult(['verify', file('tree'), '--json']);
    expect(r.exitCode).toBe(1);
    const report = decoded(r.stdout);
    expect(report.kernels.map((k) => [k.file, k.kernel, k.status])).toEqual([
      [file('tree/a.bcu'), 'a', 'drf'],
      [file('tree/sub/b.bcu'), 'b', 'racy'],
    ]);
  });

  it('is "unknown" (exit 3) when queries run out of budget and nothing is found', async () => {
    // the simplifier decides most of its queries; a budget of 1 unit leaves the others undecided
    const r = await cliResult(['verify', 'examples/stencils/stencil1d.bcu', '--rlimit', '1']);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toContain('unknown — not proved');
    expect(r.stdout).toMatch(/query stencil_1d\/\S+: \S/);
  });

  it('writes no ANSI escape when the output is not a terminal', async () => {
    const r = await cliResult(['verify', file('racy.bcu'), file('syntax.bcu')], { NO_COLOR: '1' });
    expect(r.stdout).not.toMatch(ANSI);
    expect(r.stderr).not.toMatch(ANSI);
  });
});

describe('faial-ts verify --json', () => {
  it('gives a racy kernel both accesses, distinct threads and one element', async () => {
    const r = await cliResult(['verify', '--json', file('racy.bcu')]);
    expect(r.exitCode).toBe(1);
    const [k] = decoded(r.stdout).kernels;
    expect(k!.status).toBe('racy');
    expect(k!.wellTyped).toBe(true);
    const race = k!.races.find((x) => x.kind === 'read-write')!;
    expect(race.confidence).toBe('confirmed');
    expect(race.level).toBe('block');
    expect(race.phase).toBe(0);
    const read = race.accesses.find((a) => a.mode === 'read')!;
    const write = race.accesses.find((a) => a.mode === 'write')!;
    expect(read).toMatchObject({ line: 3, column: 11, endLine: 3, endColumn: 21, text: 'A[tid + 1]' });
    expect(write).toMatchObject({ line: 4, column: 3, endLine: 4, endColumn: 9, text: 'A[tid]' });
    const [t1, t2] = race.witness.threads;
    expect(t1.threadIdx).not.toEqual(t2.threadIdx);
    // the element both touch: thread reading A[tid + 1] and thread writing A[tid] agree on it
    const tidOf = (mode: 'read' | 'write'): bigint => bigintOf(race.witness.threads[race.accesses.findIndex((a) => a.mode === mode)]!.threadIdx[0]);
    expect(tidOf('read') + 1n).toBe(tidOf('write'));
    expect(race.witness.index.map(bigintOf)).toEqual([tidOf('write')]);
    expect(bigintOf(race.witness.blockDim[0])).toBeGreaterThan(tidOf('write'));
    expect(typeof race.witness.parameters['N']).toBe('number');
  });

  it('names a race on an array of structs by its field, in text and JSON', async () => {
    // thread t writes key t % 4 of node t / 4 and reads key (t + 1) % 4: the neighbour's
    const kernel = 'struct Node { int count; int keys[4]; };\n__global__ void k(int *out) {\n  __shared__ Node s[8];\n  unsigned t = threadIdx.x;\n  if (t < 32) s[t / 4].keys[t % 4] = t;\n  if (t < 32) out[t] = s[t / 4].keys[(t + 1) % 4];\n}\n';
    await writeFile(file('node-keys.cu'), kernel);
    const text = await cliResult(['verify', file('node-keys.cu'), '--block-dim', '32']);
    expect(text.exitCode).toBe(1);
    const named = /data race on s\[(\d)\]\.keys\[(\d)\] \(read-write, confirmed\)/.exec(text.stdout);
    expect(named).not.toBeNull();
    const [k] = decoded((await cliResult(['verify', '--json', file('node-keys.cu'), '--block-dim', '32'])).stdout).kernels;
    const race = k!.races[0]!;
    // leaf 0 is count, leaves 1..4 are keys[0..3]
    const [node, leaf] = race.witness.index.map(bigintOf);
    expect(race.field).toBe(`keys[${Number(leaf) - 1}]`);
    expect(node! < 8n && leaf! >= 1n && leaf! <= 4n).toBe(true);
  });

  it('gives a DRF kernel no alarm and its stats', async () => {
    const r = await cliResult(['verify', '--json', file('drf.bcu')]);
    expect(r.exitCode).toBe(0);
    const report = decoded(r.stdout);
    expect(report.summary).toMatchObject({ kernels: 1, drf: 1 });
    expect(report.kernels[0]).toMatchObject({ kernel: 'drf', status: 'drf', races: [], divergences: [], unknowns: [], errors: [] });
    // A[tid] of two threads is decided by the simplifier: no solver is asked
    expect(report.kernels[0]!.stats).toMatchObject({ phases: 1, arrays: 1, queries: 1, withoutSolver: 1 });
  });

  it('gives a divergence its sync location and a reaching / non-reaching pair', async () => {
    const r = await cliResult(['verify', '--json', file('diverge.bcu')]);
    expect(r.exitCode).toBe(1);
    const [k] = decoded(r.stdout).kernels;
    expect(k!.status).toBe('divergent');
    const d = k!.divergences[0]!;
    expect(d).toMatchObject({ line: 4, column: 5, endLine: 4, endColumn: 9, confidence: 'confirmed' });
    const [reaches, not] = d.witness.threads;
    expect(bigintOf(reaches.threadIdx[0])).toBeLessThan(1n);
    expect(bigintOf(not.threadIdx[0])).toBeGreaterThanOrEqual(1n);
  });

  it('gives a grid-level race on a global array between two blocks', async () => {
    const r = await cliResult(['verify', '--json', file('global.bcu')]);
    expect(r.exitCode).toBe(1);
    const race = decoded(r.stdout).kernels[0]!.races.find((x) => x.level === 'grid')!;
    expect(race.phase).toBeNull();
    expect(race.witness.threads[0].blockIdx).not.toEqual(race.witness.threads[1].blockIdx);
  });

  it('gives a file that does not parse one entry with its errors, exit 2', async () => {
    const r = await cliResult(['verify', '--json', file('syntax.bcu'), file('drf.bcu')]);
    expect(r.exitCode).toBe(2);
    const report = decoded(r.stdout);
    expect(report.kernels).toHaveLength(2);
    const broken = report.kernels[0]!;
    expect(broken).toMatchObject({ file: file('syntax.bcu'), kernel: null, status: 'error' });
    expect(broken.errors[0]).toMatchObject({ code: 'E0001', line: 3, column: 3 });
    expect(report.kernels[1]!.status).toBe('drf');
  });

  it('reports violations of well-typedness with the read they come from', async () => {
    const r = await cliResult(['verify', '--json', 'examples/paper/equation2.bcu']);
    expect(r.exitCode).toBe(1);
    const [k] = decoded(r.stdout).kernels;
    expect(k!.wellTyped).toBe(false);
    expect(k!.violations).toEqual([{ variable: 'y', use: 'index', line: 15, column: 5, readLine: 14, readColumn: 11, array: 'A' }]);
    // the type system proves no alarm; the run of each witness with A zero-filled does
    expect(k!.races.length).toBeGreaterThan(0);
    expect(k!.races.every((x) => x.confidence === 'confirmed' && x.confirmedBy === 'run' && x.reason.includes('zero-filled'))).toBe(true);
  });
});
