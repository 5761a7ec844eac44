import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { check } from '../../src/solve/z3.js';
import { runCli } from '../../src/cli/main.js';
import { cliResult, kernelDir, removeDir } from './helpers.js';
import { hasPrograms } from '../support/binaries.js';

let dir = '';
beforeAll(async () => {
  dir = await kernelDir();
});
afterAll(() => removeDir(dir));

const file = (name: string): string => join(dir, name);

describe('faial-ts infer', () => {
  it('prints the typing verdict with the read a violation comes from, and the MAP', async () => {
    const r = await cliResult(['infer', 'examples/paper/equation2.bcu']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('kernel eq2 (examples/paper/equation2.bcu)');
    expect(r.stdout).toContain('well-typed: no');
    expect(r.stdout).toContain('y (read from A[tid] at 14:11) used in index at 15:5');
    expect(r.stdout).toContain('rd A[tid]');
    expect(r.stdout).toContain('wr A[y]');
    expect(r.stdout).not.toContain('phase 0');
  });

  it('prints the phases with --phases, for the selected kernel only', async () => {
    const r = await cliResult(['infer', file('two.bcu'), '--kernel', 'second', '--phases']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('well-typed: yes');
    expect(r.stdout).toContain('wr B[tid]');
    expect(r.stdout).toMatch(/phase 0/);
    expect(r.stdout).not.toContain('kernel first');
  });

  it('prints diagnostics on stderr for a bad file, exit 2', async () => {
    const r = await cliResult(['infer', file('names.bcu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`error[E0103]: unknown variable 'y'\n --> ${file('names.bcu')}:3:5`);
  });
});

describe('faial-ts smt', () => {
  /** The scripts of the output: one per query, separated by (reset). */
  const scripts = (out: string): string[] => out.split('\n(reset)\n').filter((s) => s.includes('; query '));

  it('prints divergence queries, then race queries, as SMT-LIB that Z3 accepts', async () => {
    const r = await cliResult(['smt', file('diverge.bcu')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^; query diverge\/sync\d+$/m);
    const racy = await cliResult(['smt', 'examples/paper/figure3.bcu']);
    const all = scripts(racy.stdout);
    // one query per pair of accesses of which one writes: the read and the write at 11:13 and 12:5, the write and itself
    expect(all.map((s) => s.split('\n')[0])).toEqual(['; query fig3/phase0/A/11.13-12.5', '; query fig3/phase0/A/12.5-12.5']);
    const script = all[0]!;
    // the race of threads 0 and 1 is found by evaluation: the comment shows the model
    expect(script).toMatch(/^; query fig3\/phase0\/A\/11\.13-12\.5\n; decided sat by evaluation: no solver is asked; model: [^\n]*t1\.threadIdx\.x = 0[^\n]*\n; fragment: QF_LIA\n\(set-option :produce-models true\)\n\(set-logic ALL\)\n/);
    expect(script).toContain('(check-sat)');
    expect(script.trimEnd()).toMatch(/\(get-value \(blockDim\.x [^)]*t1\.threadIdx\.x[^)]*\)\)$/);
    // the commands are standard; the declarations and assertions are what the solver checks
    const body = script.split('\n').filter((l) => !l.startsWith('(check-sat)') && !l.startsWith('(get-value')).join('\n');
    const verdict = await check(body, 10_000);
    expect(verdict.status).toBe('sat');
  });

  it('gives every kernel its own scripts, with the launch options as facts', async () => {
    const r = await cliResult(['smt', file('two.bcu'), '-p', 'M=7', '--block-dim', '[64,1,1]']);
    expect(r.exitCode).toBe(0);
    const all = scripts(r.stdout);
    expect(all.map((s) => s.split('\n')[0])).toEqual(['; query first/phase0/A/3.3-3.3', '; query second/phase0/B/7.3-7.3']);
    // the simplifier substitutes the launch options' values: p.M is 7 in the index, blockDim.x 64 in the thread bounds
    expect(all[0]).not.toContain('p.M');
    expect(all[0]).toContain('(assert (< t1.threadIdx.x 64))');
    // A[7] of two threads is a race of threads 0 and 1: a model found by evaluation, printed with the query
    expect(all[0]).toContain('; decided sat by evaluation: no solver is asked; model: t1.threadIdx.x = 0, t2.threadIdx.x = 1\n');
    // B[tid] of two threads is never one element: decided without a solver, and printed as such
    expect(all[1]).toContain('; decided unsat by the simplifier: no solver is asked\n');
    expect(all[1]).toContain('(assert false)');
    expect(all[1]).not.toContain('p.M');
    for (const s of all) {
      const verdict = await check(s.split('\n').filter((l) => !/^\((check-sat|get-value)/.test(l)).join('\n'), 10_000);
      expect(['sat', 'unsat']).toContain(verdict.status);
    }
  });

  it.runIf(hasPrograms('z3'))('runs as one SMT-LIB file in the z3 binary, with (check-sat) and (get-value)', async () => {
    const r = await cliResult(['smt', file('two.bcu')]);
    const answer = execFileSync('z3', ['-in'], { input: r.stdout, encoding: 'utf8' });
    // first: racy (sat, with values), second: DRF (unsat, decided by the simplifier: no constant left, so no get-value)
    expect(answer).toMatch(/^sat\n\(\(blockDim\.x \d+\)[\s\S]*\)\nunsat\n/);
    expect(answer.split('\n').filter((l) => l.includes('error'))).toEqual([]);
  });
});

describe('faial-ts run', () => {
  it('is wired to the reference interpreter', async () => {
    const r = await cliResult(['run', 'examples/paper/figure3.bcu', '-p', 'M=2', '--block-dim', '2']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('kernel fig3(M=2), grid 1, block 2');
    expect(r.stdout).toContain('data race on A[');
  });

  it('passes --init, --seed and --json through', async () => {
    const r = await cliResult(['run', file('racy.bcu'), '-p', 'N=1', '--block-dim', '[2,1,1]', '--init', 'A=5,6,7', '--json']);
    expect(r.exitCode).toBe(1);
    const doc: unknown = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ exitCode: 1 });
    const seeded = await cliResult(['run', file('drf.bcu'), '--block-dim', '2', '--seed', '3']);
    expect(seeded.exitCode).toBe(0);
  });
});

describe('help, version and failures', () => {
  it('--help describes each command, exit 0', async () => {
    const r = await cliResult(['--help']);
    expect(r.exitCode).toBe(0);
    for (const c of ['verify', 'infer', 'smt', 'run']) expect(r.stdout).toMatch(new RegExp(`^\\s+${c} .*\\S`, 'm'));
    const v = await cliResult(['verify', '--help']);
    expect(v.exitCode).toBe(0);
    for (const o of ['--kernel', '--json', '--block-dim', '--grid-dim', '--param', '--rlimit', '--timeout', '--max-races', '--portfolio']) expect(v.stdout).toContain(o);
    expect(v.stdout).toMatch(/default:\s+"20000000"/);
    expect(v.stdout).toMatch(/default:\s+"600000"/);
  });

  it('--version prints the package version', async () => {
    const r = await cliResult(['--version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('colours the text report for a terminal', async () => {
    let out = '';
    const code = await runCli(['verify', file('racy.bcu'), file('syntax.bcu')], { out: (t) => void (out += t), err: () => undefined, colour: true, env: {} });
    expect(code).toBe(2);
    expect(out).toMatch(/\u001b\[/);
    expect(out.replace(/\u001b\[[0-9;]*m/g, '')).toContain('✗ data race on A[');
  });

  it('an unknown command is a usage error, exit 2', async () => {
    const r = await cliResult(['prove', 'x.bcu']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown command 'prove'");
  });

  it('an unexpected exception is an internal error with a hint, and no stack trace unless FAIAL_DEBUG', async () => {
    const run = async (env: NodeJS.ProcessEnv): Promise<{ code: number; err: string }> => {
      let err = '';
      const code = await runCli(['verify', file('drf.bcu')], {
        out: () => {
          throw new Error('disk full');
        },
        err: (t) => void (err += t),
        colour: false,
        env,
      });
      return { code, err };
    };
    const plain = await run({});
    expect(plain.code).toBe(2);
    expect(plain.err).toMatch(/^internal error: disk full\nhint: .*report/);
    expect(plain.err).not.toMatch(/\n\s+at /);
    const debug = await run({ FAIAL_DEBUG: '1' });
    expect(debug.err).toMatch(/\n\s+at /);
  });
});
