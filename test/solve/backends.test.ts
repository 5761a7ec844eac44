/** The solver binaries as backends, on real processes (CI installs z3 and cvc5 with apt). */
import { describe, expect, it } from 'vitest';
import { SolverUnavailable, installed } from '../../src/solve/process.js';
import { solverOf } from '../../src/solve/backends.js';
import type { SolverChoice } from '../../src/solve/solver.js';
import { hasPrograms } from '../support/binaries.js';
import { RESEEDED, STANDARD } from '../../src/solve/z3-script.js';
import { z3WasmProcess } from '../../src/solve/wasm-process.js';
import { racingPortfolio } from '../../src/solve/members.js';
import { init, type Z3_context } from 'z3-solver';
import { runtimeOf, z3Engine, z3WasmStrategy, type Z3Api, type Z3Engine, type Z3Module } from '../../src/solve/z3.js';

const INT = '; fragment: QF_LIA\n(set-logic ALL)\n(declare-const x Int)\n(declare-const y Int)\n(assert (and (<= 0 x) (< x 200) (<= 0 y) (< y 200)))\n';
const BV = '; fragment: QF_BV, width 8\n(set-logic ALL)\n(declare-const a (_ BitVec 8))\n(declare-const b (_ BitVec 8))\n';
/** Factoring a 62-bit semiprime: far beyond a few hundred milliseconds for any solver. */
const HARD =
  '(set-logic ALL)\n(declare-const p Int)\n(declare-const q Int)\n(assert (and (< 1 p) (< 1 q) (< p 4294967296) (< q 4294967296)))\n(assert (= (* p q) 4611686014132420609))\n';

const RLIMIT = 10_000_000;

const backends: [string, SolverChoice][] = [
  ['z3', { kind: 'z3' }],
  ['cvc5', { kind: 'cvc5' }],
  ['--solver-cmd with stdin', { kind: 'command', command: 'z3 -in' }],
  ['--solver-cmd with {file}', { kind: 'command', command: 'cvc5 --lang smt2 {file}' }],
];

describe.runIf(hasPrograms('z3', 'cvc5')).each(backends)('%s', (_name, choice) => {
  const solver = solverOf(choice, RLIMIT);

  it('answers sat with a model of every constant, and unsat', async () => {
    const sat = await solver.check(`${INT}(assert (= (+ x y) 150))\n(assert (= (* 2 x) y))`, 10_000);
    expect(sat).toEqual({ status: 'sat', model: new Map([['x', 50n], ['y', 100n]]) });
    expect(await solver.check(`${INT}(assert (= (+ x y) 450))`, 10_000)).toEqual({ status: 'unsat' });
  });

  it('reads bit-vector values', async () => {
    const v = await solver.check(`${BV}(assert (= (bvxor a b) #xff))\n(assert (= a #x0f))`, 10_000);
    expect(v).toEqual({ status: 'sat', model: new Map([['a', 15n], ['b', 240n]]) });
  });

  it('gives unknown, not unsat, when the time is up', async () => {
    const started = performance.now();
    const v = await solver.check(HARD, 300);
    expect(v.status).toBe('unknown');
    // its own limit, or the kill half a second after it
    expect(performance.now() - started).toBeLessThan(3_000);
  });
});

describe.runIf(hasPrograms('z3', 'cvc5')).each(['z3', 'cvc5'] as const)('the %s binary', (kind) => {
  it('gives unknown when its resource units are spent, however long the safety net', async () => {
    const v = await solverOf({ kind }, 20_000).check(HARD, 600_000);
    expect(v).toEqual({ status: 'unknown', reason: 'resource limit reached (20000 units)' });
  });
});

describe('process solvers', () => {
  it('kill a solver that does not stop by itself: unknown (timeout)', async () => {
    const v = await solverOf({ kind: 'command', command: 'sleep 20' }, RLIMIT).check(INT, 200);
    expect(v).toEqual({ status: 'unknown', reason: 'wall-clock safety net reached (200 ms): the solver process was killed' });
  });

  it('report a binary that cannot be started as unavailable, not as a verdict', async () => {
    await expect(solverOf({ kind: 'command', command: 'no-such-solver-faial --x' }, RLIMIT).check(INT, 1_000)).rejects.toBeInstanceOf(SolverUnavailable);
  });

  it('are found on the PATH when installed', () => {
    expect(installed('sh')).toBe(true);
    expect(installed('no-such-solver-faial')).toBe(false);
    expect(installed('sh', '')).toBe(false);
  });

  it('stop a solver whose answer is no longer wanted: unknown at once, the process killed', async () => {
    const stop = new AbortController();
    const started = performance.now();
    const pending = solverOf({ kind: 'command', command: 'sleep 20' }, RLIMIT).check(INT, 60_000, { signal: stop.signal });
    setTimeout(() => stop.abort(), 100);
    expect(await pending).toEqual({ status: 'unknown', reason: 'canceled: another solver answered first' });
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('z3-wasm', () => {
  it('answers unknown with Z3’s message, not a verdict or a crash, when Z3 rejects a script', async () => {
    const v = await solverOf({ kind: 'z3-wasm' }, RLIMIT).check(`${INT}(assert (undeclared x))`, 5_000);
    expect(v.status).toBe('unknown');
    expect(v.status === 'unknown' ? v.reason : '').toMatch(/the solver rejected the query: .*unknown constant undeclared/);
  });

  it('gives unknown when its resource units are spent, each strategy having had its share', async () => {
    expect(await solverOf({ kind: 'z3-wasm' }, 20_000).check(HARD, 600_000)).toEqual({ status: 'unknown', reason: 'resource limit reached (20000 units)' });
  });

  it('gives the same answer to the same query whatever was asked before: each check has a Z3 context of its own', async () => {
    const strategy = z3WasmStrategy(STANDARD, 200_000);
    const query = `${INT}(assert (> (* x y) 1000))\n(assert (< x y))`;
    const first = await strategy.check(query, 60_000);
    for (const other of [`${INT}(assert (= (* x x) y))`, `${BV}(assert (= (bvmul a b) #x0f))`]) await strategy.check(other, 60_000);
    expect(await strategy.check(query, 60_000)).toEqual(first);
    expect(first.status).toBe('sat');
  });

  it('stops a check that is no longer wanted', async () => {
    const stop = new AbortController();
    const pending = z3WasmStrategy(STANDARD, 2_000_000_000).check(HARD, 600_000, { signal: stop.signal });
    setTimeout(() => stop.abort(), 200);
    expect(await pending).toEqual({ status: 'unknown', reason: 'canceled: another solver answered first' });
  });
});

describe('z3-wasm, handing Z3 its script', () => {
  /** Z3 started as a check starts it, with a hook run right after each evaluation is handed to Z3's thread. */
  const hooked = (after: (Z3: Z3Api) => void): Z3Engine =>
    z3Engine(async () => {
      const { Z3, em } = runtimeOf(await init());
      const hookedEm: Z3Module = {
        get HEAPU8() {
          return em.HEAPU8;
        },
        _malloc: (bytes) => em._malloc(bytes),
        _free: (address) => em._free(address),
        _async_Z3_eval_smtlib2_string: (context, script) => em._async_Z3_eval_smtlib2_string(context, script),
        async_call: (f, context, script) => {
          const answer = em.async_call(f, context, script);
          after(Z3);
          return answer;
        },
      };
      return { Z3, em: hookedEm };
    });
  const sat = `${INT}(assert (= (+ x y) 150))\n(assert (= (* 2 x) y))`;

  it('gives Z3 a copy of its own: the caller reusing its stack at once, as the next call does, changes nothing', async () => {
    const scratch = { context: null as Z3_context | null };
    const engine = hooked((Z3) => {
      scratch.context ??= Z3.mk_context_rc(Z3.mk_config());
      // a string argument is written on the stack, where a script passed the same way would lie
      for (let i = 0; i < 20; i++) Z3.mk_string_symbol(scratch.context, ')'.repeat(sat.length + 200));
    });
    for (let i = 0; i < 5; i++) {
      expect(await z3WasmStrategy(STANDARD, 200_000, engine).check(sat, 60_000)).toEqual({ status: 'sat', model: new Map([['x', 50n], ['y', 100n]]) });
    }
  });

  it('stops a check that is aborted before Z3 has begun it (Z3 clears an interrupt when its check begins)', async () => {
    const stop = new AbortController();
    const engine = hooked(() => stop.abort());
    // were the interrupt lost, the check would spend its 2·10⁹ units: many minutes
    expect(await z3WasmStrategy(STANDARD, 2_000_000_000, engine).check(HARD, 600_000, { signal: stop.signal })).toEqual({
      status: 'unknown',
      reason: 'canceled: another solver answered first',
    });
  });
});

describe('z3-wasm in a process of its own (a portfolio member)', () => {
  const member = z3WasmProcess(RESEEDED, 20_000);

  it('answers as z3-wasm does here, within its units', async () => {
    const here = z3WasmStrategy(RESEEDED, 20_000);
    const sat = `${INT}(assert (= (+ x y) 150))\n(assert (= (* 2 x) y))`;
    expect(await member.check(sat, 600_000)).toEqual(await here.check(sat, 600_000));
    expect(await member.check(HARD, 600_000)).toEqual({ status: 'unknown', reason: 'resource limit reached (20000 units)' });
  });

  it('gives up a check that is no longer wanted, and serves the next one', async () => {
    const big = z3WasmProcess(STANDARD, 2_000_000_000);
    const stop = new AbortController();
    const pending = big.check(HARD, 600_000, { signal: stop.signal });
    setTimeout(() => stop.abort(), 500);
    expect(await pending).toEqual({ status: 'unknown', reason: 'canceled: another solver answered first' });
    expect(await big.check(`${INT}(assert (= (+ x y) 450))`, 600_000)).toEqual({ status: 'unsat' });
  });
});

describe('the portfolio of real members', () => {
  it('decides with the first member alone, and with the others when it cannot', async () => {
    const p = racingPortfolio(['z3-wasm', 'z3-wasm:seed7', 'z3-wasm:bv'], 1_000_000);
    expect(p.name).toBe('portfolio (z3-wasm, z3-wasm:seed7, z3-wasm:bv)');
    expect(await p.check(`${INT}(assert (= (+ x y) 450))`, 600_000, { bitVectors: () => `${BV}(assert false)` })).toEqual({ status: 'unsat' });
    // every member runs out of its units on the factoring
    expect(await p.check(HARD, 600_000, { bitVectors: () => null })).toEqual({ status: 'unknown', reason: 'resource limit reached (1000000 units)' });
  });
});
