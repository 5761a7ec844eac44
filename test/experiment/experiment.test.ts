import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from '../../src/cli/main.js';
import { CSV_HEADER } from '../../src/experiment/results.js';
import type { ExperimentResults } from '../../src/experiment/results.js';
import { STAGES, type ExperimentRow, type KernelRow } from '../../src/experiment/rows.js';

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function csvRecords(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (quoted || (ch !== ',' && ch !== '\n')) {
      field += ch;
    } else {
      record.push(field);
      field = '';
      if (ch === '\n') {
        records.push(record);
        record = [];
      }
    }
  }
  return records;
}

const INPUTS = ['examples/paper/figure3.bcu', 'examples/paper/figure4.bcu', 'examples/data-dependent/histogram.bcu', 'examples/divergence/sync-under-data.bcu', 'examples/data-dependent/spmv-csr.bcu'];

let dir = '';
let broken = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-experiment-'));
  broken = join(dir, 'broken.bcu');
  await writeFile(broken, 'kernel broken() {\n  shared A\n  A[0] := 1\n}\n');
});
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('faial-ts experiment', () => {
  let csv: string[][] = [];
  let json: ExperimentResults | null = null;
  let summary = '';
  let stdout = '';

  beforeAll(async () => {
    const out = join(dir, 'out');
    const r = await cliResult(['experiment', ...INPUTS, broken, '--out', out]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    stdout = r.stdout;
    csv = csvRecords(await readFile(join(out, 'results.csv'), 'utf8'));
    json = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as ExperimentResults;
    summary = await readFile(join(out, 'summary.md'), 'utf8');
  });

  const row = (kernel: string): Record<string, string> => {
    const found = csv.slice(1).find((r) => r[1] === kernel);
    if (!found) throw new Error(`no row for ${kernel}`);
    return Object.fromEntries(CSV_HEADER.map((h, i) => [h, found[i]!]));
  };

  it('lists the files it wrote and the totals', () => {
    expect(stdout).toContain(join(dir, 'out', 'results.csv'));
    expect(stdout).toContain(join(dir, 'out', 'summary.md'));
    expect(stdout).toMatch(/^5 kernels \(2 drf, 2 racy, 1 divergent\), 1 file\(s\) in error; [\d.]+ s, [\d.]+% outside the solver$/m);
  });

  it('writes a header and one row per kernel, in input order, and one per broken file', () => {
    expect(csv[0]).toEqual([...CSV_HEADER]);
    expect(csv.slice(1).map((r) => r[1])).toEqual(['fig3', 'fig4', 'histogram', 'early_exit', 'spmv_csr', '']);
    for (const r of csv) expect(r).toHaveLength(CSV_HEADER.length);
  });

  it('classifies kernels by where values read from memory go', () => {
    expect(row('fig3')).toMatchObject({ well_typed: 'true', data_dependent: '', class: 'CI/DI', verdict: 'racy', confirmed_alarms: '2', possible_alarms: '0' });
    expect(row('fig4')).toMatchObject({ class: 'CI/DI', verdict: 'drf', confirmed_alarms: '0', possible_alarms: '0', queries: '1' });
    // data-dependent, and confirmed by a run of the witness with every array zero-filled (every value in bin 0)
    expect(row('histogram')).toMatchObject({ well_typed: 'false', data_dependent: 'd:index', class: 'CI/DD', verdict: 'racy', confirmed_alarms: '2', possible_alarms: '0' });
    expect(row('early_exit')).toMatchObject({ data_dependent: 'v:control', class: 'CD/DI', verdict: 'divergent', possible_alarms: '1', phases: '0' });
    expect(row('spmv_csr')).toMatchObject({ data_dependent: 'start:control stop:control col:index', class: 'CD/DD', verdict: 'drf' });
  });

  it('counts accesses, phases and queries', () => {
    expect(row('fig3')).toMatchObject({ accesses: '2', phases: '1', unknown_queries: '0' });
    expect(Number(row('fig3')['queries'])).toBeGreaterThanOrEqual(2);
    // figure 3's race is found by evaluation: no query reaches a solver
    expect(row('fig3')['solver_queries']).toBe('0');
    for (const r of csv.slice(1, -1)) {
      const solver = Number(r[CSV_HEADER.indexOf('solver_queries')]);
      expect(Number.isInteger(solver) && solver >= 0 && solver <= Number(r[CSV_HEADER.indexOf('queries')])).toBe(true);
    }
  });

  it('counts the queries that reached a solver: morton.bcu leaves one of its five to it', async () => {
    const out = join(dir, 'morton');
    expect((await cliResult(['experiment', 'examples/bitwise/morton.bcu', '--out', out])).exitCode).toBe(0);
    const [header, morton] = csvRecords(await readFile(join(out, 'results.csv'), 'utf8'));
    const at = (h: string): string => morton![header!.indexOf(h)]!;
    expect([at('queries'), at('solver_queries')]).toEqual(['5', '1']);
  });

  it('times every stage, and the stages add up to the total', () => {
    for (const r of csv.slice(1, -1)) {
      const stages = STAGES.map((s) => Number(r[CSV_HEADER.indexOf(`${s}_ms`)]));
      for (const ms of stages) expect(ms).toBeGreaterThanOrEqual(0);
      const total = Number(r[CSV_HEADER.indexOf('total_ms')]);
      expect(Math.abs(stages.reduce((a, b) => a + b, 0) - total)).toBeLessThanOrEqual(0.1 * STAGES.length);
      expect(Number(r[CSV_HEADER.indexOf('parse_ms')])).toBeGreaterThan(0);
    }
    // a race's witness is a solver's model; fig4's one query is decided by the simplifier, without a solver
    expect(Number(row('fig3')['solving_ms'])).toBeGreaterThan(0);
    expect(Number(row('fig4')['solving_ms'])).toBe(0);
  });

  it('gives a broken file an error row with file:line:column', () => {
    const last = csv.at(-1)!;
    expect(last[0]).toBe(broken);
    expect(last[CSV_HEADER.indexOf('verdict')]).toBe('error');
    expect(last[CSV_HEADER.indexOf('error')]).toBe(`${broken}:3:3: error[E0001]: syntax error: expected '[', ',' or ';', found 'A'`);
  });

  it('writes the same rows, typed, to results.json', () => {
    const rows = json!.rows;
    expect(rows).toHaveLength(csv.length - 1);
    const fig3 = rows.find((r): r is KernelRow => r.kind === 'kernel' && r.kernel === 'fig3')!;
    expect(fig3).toMatchObject({ wellTyped: true, class: 'CI/DI', verdict: 'racy', confirmedAlarms: 2, possibleAlarms: 0, accesses: 2, error: null });
    expect(fig3.times.solving).toBe(Number(row('fig3')['solving_ms']));
    const spmv = rows.find((r): r is KernelRow => r.kind === 'kernel' && r.kernel === 'spmv_csr')!;
    expect(spmv.dataDependent).toEqual([
      { variable: 'start', reaches: 'control' },
      { variable: 'stop', reaches: 'control' },
      { variable: 'col', reaches: 'index' },
    ]);
    const error: ExperimentRow = rows.at(-1)!;
    expect(error).toMatchObject({ kind: 'file-error', file: broken });
    expect(json!.run).toMatchObject({ inputs: [...INPUTS, broken], solver: expect.stringMatching(/^portfolio \(z3-wasm, z3-wasm:seed7\b/), rlimit: 20_000_000, timeoutMs: 600_000, maxRaces: 20, jobs: 1 });
    expect(json!.run.startUpMs!.solverMs).toBeGreaterThan(0);
  });

  it('summarises classes, verdicts, alarms and time per stage', () => {
    expect(summary).toContain('# Experiment: 5 kernels in 6 files');
    expect(summary).toMatch(/solver portfolio \(z3-wasm, [^)]*\), 20000000 resource units per query \(wall-clock safety net 600000 ms\)/);
    expect(summary).toContain('| CI/DI | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 0 |');
    expect(summary).toContain('| CI/DD | 1 | 0 | 1 | 0 | 0 | 0 | 0 | 0 |');
    expect(summary).toContain('| CD/DI | 1 | 0 | 0 | 0 | 1 | 0 | 0 | 0 |');
    expect(summary).toContain('| CD/DD | 1 | 1 | 0 | 0 | 0 | 0 | 0 | 0 |');
    expect(summary).toContain('| total | 5 | 2 | 2 | 0 | 1 | 0 | 0 | 0 |');
    expect(summary).toContain(`\`${broken}:3:3: error[E0001]`);
    expect(summary).toMatch(/3 kernels have alarms; 2 of them \(66\.7%\) have only confirmed alarms\./);
    for (const s of STAGES) expect(summary).toMatch(new RegExp(`^\\| ${s} \\| [\\d.]+ \\| [\\d.]+% \\|$`, 'm'));
    expect(summary).toMatch(/Outside the solver: [\d.]+ ms, [\d.]+% of the total\./);
  });
});

describe('faial-ts experiment, usage', () => {
  it('verifies in worker processes with --jobs, with the same results', async () => {
    const inputs = ['examples/paper/figure3.bcu', 'examples/paper/figure4.bcu'];
    const one = await cliResult(['experiment', ...inputs, '--out', join(dir, 'one')]);
    const two = await cliResult(['experiment', ...inputs, '--out', join(dir, 'two'), '--jobs', '2']);
    expect([one.exitCode, two.exitCode]).toEqual([0, 0]);
    const results = async (sub: string): Promise<ExperimentResults> => JSON.parse(await readFile(join(dir, sub, 'results.json'), 'utf8')) as ExperimentResults;
    const untimed = (r: ExperimentResults): unknown[] => r.rows.map(({ times: _t, totalMs: _m, ...rest }) => rest);
    const [a, b] = [await results('one'), await results('two')];
    expect(untimed(b)).toEqual(untimed(a));
    expect(b.run.jobs).toBe(2);
    expect(b.run.startUpMs).toBeNull();
  });

  it('needs --out, and reports a missing input as a usage error', async () => {
    const noOut = await cliResult(['experiment', 'examples/paper/figure3.bcu']);
    expect(noOut.exitCode).toBe(2);
    expect(noOut.stderr).toContain("required option '--out <DIR>' not specified");
    const missing = await cliResult(['experiment', join(dir, 'nope.bcu'), '--out', join(dir, 'x')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('no such file or directory');
  });

  it('says so when the output directory cannot be made', async () => {
    const r = await cliResult(['experiment', 'examples/paper/figure4.bcu', '--out', join(broken, 'sub')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error: --out ${join(broken, 'sub')}: cannot create the directory`);
  });
});

describe('faial-ts experiment --warp-size', () => {
  const WARPS = ['examples/warps/last-warp-loop.bcu', 'examples/warps/warp-diverged-sides.bcu'];
  let header = '';
  const results = async (sub: string): Promise<ExperimentResults> => JSON.parse(await readFile(join(dir, sub, 'results.json'), 'utf8')) as ExperimentResults;
  const kernelRows = (r: ExperimentResults): Record<string, Pick<KernelRow, 'warpSize' | 'verdict'>> =>
    Object.fromEntries(r.rows.flatMap((k) => (k.kind === 'kernel' ? [[k.kernel, { warpSize: k.warpSize, verdict: k.verdict }]] : [])));

  beforeAll(async () => {
    // the volatile warp reduction, whose GPUVerify test header asks for lockstep warps itself
    header = join(dir, 'header-warps.cu');
    const text = await readFile('examples/warps/warp-reduce-volatile.cu', 'utf8');
    await writeFile(header, text.replace('//--blockDim=128 --gridDim=4', '//--blockDim=128 --gridDim=4 --warp-sync=32'));
  });

  it('verifies every kernel with lockstep warps, which turns a warp-synchronous reduction DRF, and records the warp size in every result file', async () => {
    const plain = await cliResult(['experiment', ...WARPS, header, '--out', join(dir, 'independent')]);
    const warps = await cliResult(['experiment', ...WARPS, header, '--arch', 'sm_60', '--warp-size', '32', '--out', join(dir, 'warps')]);
    expect([plain.exitCode, warps.exitCode, plain.stderr, warps.stderr]).toEqual([0, 0, '', '']);
    const [a, b] = [await results('independent'), await results('warps')];
    expect(kernelRows(a)).toEqual({
      last_warp_loop: { warpSize: null, verdict: 'racy' },
      warp_diverged_sides: { warpSize: null, verdict: 'racy' },
      warpReduce: { warpSize: 32, verdict: 'drf' },
    });
    expect(kernelRows(b)).toEqual({
      last_warp_loop: { warpSize: 32, verdict: 'drf' },
      warp_diverged_sides: { warpSize: 32, verdict: 'racy' },
      warpReduce: { warpSize: 32, verdict: 'drf' },
    });
    expect([a.run.warpSize, b.run.warpSize]).toEqual([null, 32]);

    const csv = csvRecords(await readFile(join(dir, 'warps', 'results.csv'), 'utf8'));
    const loop = csv.find((r) => r[1] === 'last_warp_loop')!;
    expect([loop[CSV_HEADER.indexOf('warp_size')], loop[CSV_HEADER.indexOf('verdict')]]).toEqual(['32', 'drf']);
    const before = csvRecords(await readFile(join(dir, 'independent', 'results.csv'), 'utf8')).find((r) => r[1] === 'last_warp_loop')!;
    expect([before[CSV_HEADER.indexOf('warp_size')], before[CSV_HEADER.indexOf('verdict')]]).toEqual(['', 'racy']);

    const summary = await readFile(join(dir, 'warps', 'summary.md'), 'utf8');
    expect(summary).toContain(`\`faial-ts experiment ${[...WARPS, header].join(' ')} --arch sm_60 --warp-size 32\``);
    expect(summary).toMatch(/races per kernel, warp size 32 \(lockstep, which holds only before sm_70\), one process\./);
    expect(await readFile(join(dir, 'independent', 'summary.md'), 'utf8')).toMatch(/races per kernel, independent threads \(1 kernel with lockstep warps, as its file asks\), one process\./);
    expect(await readFile(join(dir, 'warps', 'report.html'), 'utf8')).toContain('warp size 32 (lockstep, which holds only before sm_70)');
  }, 300_000);

  it("takes GPUVerify's spelling --warp-sync=N, in worker processes too", async () => {
    const r = await cliResult(['experiment', ...WARPS, '--arch=sm_60', '--warp-sync=32', '--jobs', '2', '--out', join(dir, 'warp-sync')]);
    expect([r.exitCode, r.stderr]).toEqual([0, '']);
    const run = await results('warp-sync');
    expect(run.run.warpSize).toBe(32);
    expect(kernelRows(run)).toEqual({ last_warp_loop: { warpSize: 32, verdict: 'drf' }, warp_diverged_sides: { warpSize: 32, verdict: 'racy' } });
    expect(run.run.jobs).toBe(2);
  }, 300_000);

  it('verifies independent threads for --warp-size 32 on the default architecture (sm_70 and later have no lockstep), and says so', async () => {
    const r = await cliResult(['experiment', WARPS[0]!, '--warp-size', '32', '--out', join(dir, 'volta')]);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toContain('note: --warp-size 32 on sm_90: warps do not run in lockstep since sm_70');
    expect(kernelRows(await results('volta'))).toEqual({ last_warp_loop: { warpSize: null, verdict: 'racy' } });
  }, 300_000);

  it('refuses a warp size it cannot use, as verify does', async () => {
    const r = await cliResult(['experiment', WARPS[0]!, '--warp-size', '0', '--out', join(dir, 'warp-zero')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--warp-size');
  });
});
