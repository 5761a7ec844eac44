/** `verify --solver/--solver-cmd/--jobs`, robustness per kernel, and `smt --out`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { KernelJson, VerifyReport } from '../../src/report/json.js';
import { runCli } from '../../src/cli/main.js';
import { cliResult, decoded, kernelDir, removeDir } from './helpers.js';
import { hasPrograms } from '../support/binaries.js';

const run = promisify(execFile);

let dir = '';
beforeAll(async () => {
  dir = await kernelDir();
  // a "solver" that says sat to everything, every value 1: its models satisfy the probe, never a race query
  await writeFile(
    join(dir, 'ones.mjs'),
    `let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const names = [...s.matchAll(/^\\(declare-const (\\S+) /gm)].map((m) => m[1]);
  console.log('sat');
  console.log('(' + names.map((n) => '(' + n + ' 1)').join(' ') + ')');
});
`,
  );
});
afterAll(() => removeDir(dir));

const file = (name: string): string => join(dir, name);

/** What must not depend on the solver: per kernel, the status, and the pairs of accesses of its alarms with their confidence. */
const verdicts = (r: VerifyReport): string[] =>
  r.kernels.map((k: KernelJson) => {
    const races = k.races.map((x) => `${x.array}:${x.accesses.map((a) => `${a.line}.${a.column}`).sort().join('/')}:${x.confidence}`).sort();
    return `${k.file} ${k.kernel}: ${k.status} ${races.join(' ')} ${k.divergences.map((d) => `${d.line}:${d.confidence}`).join(' ')}`;
  });

/** The report without timings, which differ from run to run. */
const timeless = (stdout: string): unknown => JSON.parse(stdout, (key, v: unknown) => (key === 'milliseconds' ? 0 : v));

describe('verify --solver', () => {
  it.runIf(hasPrograms('z3', 'cvc5'))('z3 and cvc5 binaries give the verdicts and alarms of z3-wasm on the paper examples', async () => {
    const wasm = await cliResult(['verify', 'examples/paper', '--json']);
    for (const solver of ['z3', 'cvc5']) {
      const r = await cliResult(['verify', 'examples/paper', '--json', '--solver', solver]);
      expect(r.exitCode, solver).toBe(wasm.exitCode);
      expect(verdicts(decoded(r.stdout)), solver).toEqual(verdicts(decoded(wasm.stdout)));
    }
  });

  it.runIf(hasPrograms('z3', 'cvc5'))('--solver-cmd runs any SMT-LIB solver, on stdin or on a {file}', async () => {
    const wasm = verdicts(decoded((await cliResult(['verify', 'examples/paper/figure3.bcu', file('diverge.bcu'), '--json'])).stdout));
    for (const cmd of ['z3 -in', 'cvc5 --lang=smt2 {file}']) {
      const r = await cliResult(['verify', 'examples/paper/figure3.bcu', file('diverge.bcu'), '--json', '--solver-cmd', cmd]);
      expect(verdicts(decoded(r.stdout)), cmd).toEqual(wasm);
    }
  });

  it('rejects an unknown solver, a missing binary and both options at once, before any work, exit 2', async () => {
    const bogus = await cliResult(['verify', file('drf.bcu'), '--solver', 'yices']);
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toContain('z3-wasm, z3, cvc5');
    const missing = await cliResult(['verify', file('drf.bcu'), '--solver-cmd', 'no-such-solver-faial']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe("error: cannot start the solver no-such-solver-faial: 'no-such-solver-faial' was not found\nhint: check the command of --solver-cmd\n");
    expect(missing.stdout).toBe('');
    const both = await cliResult(['verify', file('drf.bcu'), '--solver', 'z3', '--solver-cmd', 'z3 -in']);
    expect(both.exitCode).toBe(2);
    expect((await cliResult(['verify', file('drf.bcu'), '--solver-cmd', 'cat'])).stderr).toContain('does not answer SMT-LIB as expected');
  });
});

describe('verify --rlimit, --timeout and --portfolio', () => {
  it('states the budget in every report', async () => {
    const text = await cliResult(['verify', file('drf.bcu'), '--rlimit', '300000', '--timeout', '90000']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toMatch(/^budget: 300000 resource units per query \(wall-clock safety net 90000 ms\); solver portfolio \(z3-wasm, z3-wasm:seed7[^)]*\)\n1 kernel: 1 DRF\n$/m);
    const json = decoded((await cliResult(['verify', file('drf.bcu'), '--json', '--rlimit', '300000', '--solver', 'z3-wasm'])).stdout);
    expect(json.solver).toEqual({ name: 'z3-wasm', rlimit: 300000, timeoutMs: 600000 });
    const sarif: unknown = JSON.parse((await cliResult(['verify', file('drf.bcu'), '--sarif', '--portfolio', 'z3-wasm,z3-wasm:bv'])).stdout);
    expect(sarif).toMatchObject({ runs: [{ properties: { solver: 'portfolio (z3-wasm, z3-wasm:bv)', rlimit: 20000000, timeoutMs: 600000 } }] });
  });

  it.runIf(hasPrograms('z3'))('says that a --solver-cmd solver is bounded by time only', async () => {
    const text = await cliResult(['verify', file('drf.bcu'), '--solver-cmd', 'z3 -in', '--timeout', '5000']);
    expect(text.stdout).toContain("budget: 5000 ms per query, bounded by time only (this solver takes no resource limit, so its verdicts may depend on the machine's load); solver z3 -in");
    expect(decoded((await cliResult(['verify', file('drf.bcu'), '--solver-cmd', 'z3 -in', '--json'])).stdout).solver).toEqual({ name: 'z3 -in', rlimit: null, timeoutMs: 600000 });
  });

  it('makes a query that runs out of units unknown, whatever the safety net, and says which option may help', async () => {
    for (const solver of [[], ['--solver', 'z3-wasm']]) {
      const r = await cliResult(['verify', file('squares.bcu'), '--rlimit', '1', ...solver]);
      expect(r.exitCode, solver.join(' ')).toBe(3);
      expect(r.stdout).toContain('resource limit reached (1 units)');
      expect(r.stdout).toContain('hint: a larger --rlimit may help');
    }
  });

  it('rejects a budget out of range and members that are not', async () => {
    for (const [args, said] of [
      [['--rlimit', '0'], '--rlimit 0: expected a number of at least 1'],
      [['--rlimit', '4294967296'], '--rlimit 4294967296: expected a number of at most 4294967295'],
      [['--portfolio', 'z3-wasm,yices'], "--portfolio z3-wasm,yices: 'yices' is not a member"],
      [['--portfolio', 'z3-wasm,z3-wasm'], "--portfolio z3-wasm,z3-wasm: 'z3-wasm' is named twice"],
      [['--portfolio', 'z3-wasm', '--solver', 'z3-wasm'], '--portfolio names the members of --solver portfolio, not of another solver'],
    ] as const) {
      const r = await cliResult(['verify', file('drf.bcu'), ...args]);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(said);
    }
  });
});

describe('verify --jobs', () => {
  const inputs = (): string[] => [file('two.bcu'), file('racy.bcu'), file('syntax.bcu'), file('tree'), 'examples/paper', file('diverge.bcu'), file('drf.bcu')];

  it.runIf(hasPrograms('z3'))('gives the JSON of --jobs 1 with --jobs 2, files in input order', async () => {
    // a solver process per query answers the same whatever was asked before, so even the witnesses match
    const one = await cliResult(['verify', ...inputs(), '--json', '--solver', 'z3']);
    const two = await cliResult(['verify', ...inputs(), '--json', '--solver', 'z3', '--jobs', '2']);
    expect(two.exitCode).toBe(one.exitCode);
    expect(two.stderr).toBe('');
    expect(timeless(two.stdout)).toEqual(timeless(one.stdout));
    expect(decoded(two.stdout).kernels.map((k) => k.kernel)).toEqual(['first', 'second', 'racy', null, 'a', 'b', 'eq2', 'fig3', 'fig4', 'diverge', 'drf']);
  });

  it.each([['the default portfolio', []], ['z3-wasm', ['--solver', 'z3-wasm']]])('gives the JSON of --jobs 1 with --jobs 2 with %s, witnesses included', async (_name, solver) => {
    // each check has a Z3 context of its own and a budget in resource units: nothing asked before, and no timing, changes an answer
    const one = await cliResult(['verify', ...inputs(), '--json', ...solver]);
    const two = await cliResult(['verify', ...inputs(), '--json', '--jobs', '2', ...solver]);
    expect(two.exitCode).toBe(one.exitCode);
    expect(timeless(two.stdout)).toEqual(timeless(one.stdout));
  });

  it('ends the text report with a table of every kernel, then the summary line', async () => {
    const r = await cliResult(['verify', file('drf.bcu'), file('racy.bcu'), file('syntax.bcu'), '--jobs', '3']);
    expect(r.exitCode).toBe(2);
    const tail = r.stdout.trimEnd().split('\n').slice(-5);
    expect(tail[0]).toMatch(/^status\s+kernel\s+file\s+alarms\s+unknown\s+queries\s+time$/);
    expect(tail[1]).toMatch(new RegExp(`^DRF\\s+drf\\s+${file('drf.bcu')}\\s+0\\s+0\\s+1\\s+\\d+ ms$`));
    expect(tail[2]).toMatch(new RegExp(`^racy\\s+racy\\s+${file('racy.bcu')}\\s+1\\s+0\\s+\\d+\\s+\\d+ ms$`));
    expect(tail[3]).toMatch(new RegExp(`^error\\s+—\\s+${file('syntax.bcu')}\\s+—\\s+—\\s+—\\s+—$`));
    expect(tail[4]).toBe('3 kernels: 1 DRF, 1 racy, 1 error');
    // one kernel: no table
    expect((await cliResult(['verify', file('drf.bcu')])).stdout).not.toMatch(/^status\s+kernel/m);
  });

  it('says how far it is on a terminal, on one line rewritten in place and erased at the end', async () => {
    let err = '';
    const io = { out: () => undefined, err: (t: string) => void (err += t), colour: false, env: {}, progress: true };
    expect(await runCli(['verify', file('drf.bcu'), file('racy.bcu'), '--jobs', '2'], io)).toBe(1);
    expect(err).toMatch(new RegExp(`^\\r\\u001b\\[K1/2 files verified \\(last: .*(drf|racy)\\.bcu\\)\\r\\u001b\\[K$`));
  });

  it('rejects --jobs 0', async () => {
    const r = await cliResult(['verify', file('drf.bcu'), '--jobs', '0']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--jobs 0: expected a number of at least 1');
  });
});

describe('one kernel failing does not stop the run', () => {
  it('an internal error (a solver model that is wrong) is that kernel’s error entry, with --jobs 1 and 2', async () => {
    for (const jobs of ['1', '2']) {
      const r = await cliResult(['verify', file('squares.bcu'), file('two.bcu'), file('drf.bcu'), '--json', '--jobs', jobs, '--solver-cmd', `node ${file('ones.mjs')}`]);
      expect(r.exitCode, jobs).toBe(2);
      const report = decoded(r.stdout);
      // no solver is asked for two.bcu and drf.bcu: the simplifier decides B[tid] and A[tid] of two threads, and evaluation finds first's race on A[M]
      expect(report.kernels.map((k) => [k.kernel, k.status])).toEqual([
        ['squares', 'error'],
        ['first', 'racy'],
        ['second', 'drf'],
        ['drf', 'drf'],
      ]);
      expect(report.kernels[0]!.errors[0]!).toMatchObject({ code: 'E0900', message: expect.stringMatching(/^internal error: the solver's witness for squares\/\S+ does not satisfy the query/) });
    }
  });

  it('a worker that dies costs only its file: its kernels are in error, the other files are verified', async () => {
    // a solver that kills the worker running it on the queries of kernel squares (parameter M), and is Z3 otherwise;
    // it stops there too, or a Z3 left without its worker would go on with squares's hard query for hours
    const killer = `sh -c 'f=$(mktemp); cat > $f; if grep -q p.M $f; then rm -f $f; kill -9 $PPID; exit 1; fi; z3 -in < $f; rm -f $f'`;
    const r = await cliResult(['verify', file('drf.bcu'), file('squares.bcu'), file('racy.bcu'), file('diverge.bcu'), '--json', '--jobs', '2', '--solver-cmd', killer]);
    expect(r.exitCode).toBe(2);
    const report = decoded(r.stdout);
    expect(report.kernels.map((k) => [k.kernel, k.status])).toEqual([
      ['drf', 'drf'],
      ['squares', 'error'],
      ['racy', 'racy'],
      ['diverge', 'divergent'],
    ]);
    expect(report.kernels[1]!.errors[0]!.message).toBe('internal error: verification stopped: the worker process died (signal SIGKILL)');
  });
});

describe('faial-ts smt --out', () => {
  it.runIf(hasPrograms('z3', 'cvc5'))('writes one standalone file per query, named after kernel, phase and array, that the z3 and cvc5 binaries run', async () => {
    const out = join(dir, 'smt');
    const r = await cliResult(['smt', 'examples/paper/figure3.bcu', '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${join(out, 'fig3.phase0.A.11.13-12.5.smt2')}\n${join(out, 'fig3.phase0.A.12.5-12.5.smt2')}\n`);
    const more = await cliResult(['smt', file('global.bcu'), '--out', out]);
    const div = await cliResult(['smt', file('diverge.bcu'), '--out', out]);
    expect(more.stdout.split('\n').filter(Boolean).map((p) => p.slice(out.length + 1))).toEqual(['blocks.phase0.G.3.3-3.3.smt2', 'blocks.grid.G.3.3-3.3.smt2']);
    expect(div.stdout).toBe(`${join(out, 'diverge.sync0.smt2')}\n`);
    const names = (await readdir(out)).sort();
    expect(names).toEqual(['blocks.grid.G.3.3-3.3.smt2', 'blocks.phase0.G.3.3-3.3.smt2', 'diverge.sync0.smt2', 'fig3.phase0.A.11.13-12.5.smt2', 'fig3.phase0.A.12.5-12.5.smt2']);
    const expected: Record<string, string> = {
      'fig3.phase0.A.11.13-12.5.smt2': 'sat',
      'fig3.phase0.A.12.5-12.5.smt2': 'sat',
      'blocks.phase0.G.3.3-3.3.smt2': 'unsat',
      'blocks.grid.G.3.3-3.3.smt2': 'sat',
      'diverge.sync0.smt2': 'sat',
    };
    for (const name of names) {
      const text = await readFile(join(out, name), 'utf8');
      expect(text).toMatch(/^; query \S+\n(; decided (unsat by the simplifier|sat by evaluation): no solver is asked.*\n)?; fragment: QF_\w+.*\n\(set-option :produce-models true\)\n\(set-logic ALL\)\n/);
      // a query the simplifier decided has no constant left to ask the value of
      expect(text.trimEnd()).toMatch(text.includes('; decided unsat') ? /\(assert false\)\n\(check-sat\)$/ : /\(check-sat\)\n\(get-value \([^)]+\)\)$/);
      const z3 = await run('z3', ['-T:20', join(out, name)]).catch((e: { stdout: string }) => e);
      expect(z3.stdout.split('\n')[0], `z3 ${name}`).toBe(expected[name]);
      const cvc5 = await run('cvc5', ['--tlimit=20000', join(out, name)]).catch((e: { stdout: string }) => e);
      expect(cvc5.stdout.split('\n')[0], `cvc5 ${name}`).toBe(expected[name]);
    }
  });

  it('numbers the loop checks of the phase split', async () => {
    const out = join(dir, 'smt-loops');
    const r = await cliResult(['smt', 'examples/sorting/bitonic.bcu', '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).map((p) => p.slice(out.length + 1))).toContain('bitonic_sort.completes0.smt2');
  });
});
