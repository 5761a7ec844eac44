/** The solver binaries as backends, on real processes (CI installs z3 and cvc5 with apt). */
import { describe, expect, it } from 'vitest';
import { SolverUnavailable } from '../../src/solve/process.js';
import { solverOf } from '../../src/solve/backends.js';
import type { SolverChoice } from '../../src/solve/solver.js';
import { hasPrograms } from '../support/binaries.js';

const INT = '; fragment: QF_LIA\n(set-logic ALL)\n(declare-const x Int)\n(declare-const y Int)\n(assert (and (<= 0 x) (< x 200) (<= 0 y) (< y 200)))\n';
const BV = '; fragment: QF_BV, width 8\n(set-logic ALL)\n(declare-const a (_ BitVec 8))\n(declare-const b (_ BitVec 8))\n';
/** Factoring a 62-bit semiprime: far beyond a few hundred milliseconds for any solver. */
const HARD =
  '(set-logic ALL)\n(declare-const p Int)\n(declare-const q Int)\n(assert (and (< 1 p) (< 1 q) (< p 4294967296) (< q 4294967296)))\n(assert (= (* p q) 4611686014132420609))\n';

const backends: [string, SolverChoice][] = [
  ['z3', { kind: 'z3' }],
  ['cvc5', { kind: 'cvc5' }],
  ['--solver-cmd with stdin', { kind: 'command', command: 'z3 -in' }],
  ['--solver-cmd with {file}', { kind: 'command', command: 'cvc5 --lang smt2 {file}' }],
];

describe.runIf(hasPrograms('z3', 'cvc5')).each(backends)('%s', (_name, choice) => {
  const solver = solverOf(choice);

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

describe('process solvers', () => {
  it('kill a solver that does not stop by itself: unknown (timeout)', async () => {
    const v = await solverOf({ kind: 'command', command: 'sleep 20' }).check(INT, 200);
    expect(v).toEqual({ status: 'unknown', reason: 'timeout (the solver process was killed)' });
  });

  it('report a binary that cannot be started as unavailable, not as a verdict', async () => {
    await expect(solverOf({ kind: 'command', command: 'no-such-solver-faial --x' }).check(INT, 1_000)).rejects.toBeInstanceOf(SolverUnavailable);
  });
});

describe('z3-wasm', () => {
  it('answers unknown with Z3’s message, not a verdict or a crash, when Z3 rejects a script', async () => {
    const v = await solverOf({ kind: 'z3-wasm' }).check(`${INT}(assert (undeclared x))`, 5_000);
    expect(v.status).toBe('unknown');
    expect(v.status === 'unknown' ? v.reason : '').toMatch(/z3 rejected the query: .*unknown constant undeclared/);
  });
});
