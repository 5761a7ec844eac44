import { describe, it, expect } from 'vitest';
import { applyArith, applyCmp, evalBExpr, evalExpr, EvalError, type ValueEnv } from '../../src/semantics/values.js';
import { kernelOf } from './helpers.js';
import type { Expr, BExpr } from '../../src/core/ast.js';

/** Parses `e` as the value written by `A[0] := e` in a tiny kernel. */
function expr(e: string, params: string[] = []): Expr {
  const s = kernelOf(`kernel k(${params.join(', ')}) { shared A; A[0] := ${e} }`).body[0]!;
  if (s.kind !== 'write') throw new Error('not a write');
  return s.value;
}

function cond(b: string, params: string[] = []): BExpr {
  const s = kernelOf(`kernel k(${params.join(', ')}) { if ${b} { skip } }`).body[0]!;
  if (s.kind !== 'if') throw new Error('not an if');
  return s.cond;
}

const empty: ValueEnv = { vars: new Map(), builtins: {} };

describe('arithmetic on naturals', () => {
  it('truncates subtraction at 0', () => {
    expect(applyArith('-', 3n, 5n)).toBe(0n);
    expect(applyArith('-', 5n, 3n)).toBe(2n);
    expect(evalExpr(expr('2 - 7 + 1'), empty)).toBe(1n);
  });

  it('gives a / 0 = 0 and a % 0 = a', () => {
    expect(applyArith('/', 7n, 0n)).toBe(0n);
    expect(applyArith('%', 7n, 0n)).toBe(7n);
    expect(evalExpr(expr('9 / (3 - 3)'), empty)).toBe(0n);
    expect(evalExpr(expr('9 % (3 - 5)'), empty)).toBe(9n);
  });

  it("uses C's / and % otherwise", () => {
    expect(applyArith('/', 7n, 2n)).toBe(3n);
    expect(applyArith('%', 7n, 2n)).toBe(1n);
    expect(evalExpr(expr('17 / 5 * 5 + 17 % 5'), empty)).toBe(17n);
  });

  it('shifts without overflow', () => {
    expect(applyArith('<<', 1n, 70n)).toBe(1n << 70n);
    expect(applyArith('>>', 1n << 70n, 69n)).toBe(2n);
    expect(applyArith('>>', 5n, 100000000000n)).toBe(0n);
    expect(applyArith('<<', 0n, 100000000000n)).toBe(0n);
    expect(evalExpr(expr('4294967295 + 1'), empty)).toBe(4294967296n);
  });

  it('computes & | ^ on the binary representation', () => {
    expect(applyArith('&', 12n, 10n)).toBe(8n);
    expect(applyArith('|', 12n, 10n)).toBe(14n);
    expect(applyArith('^', 12n, 10n)).toBe(6n);
  });

  it('follows C precedence as parsed', () => {
    expect(evalExpr(expr('1 + 2 * 3'), empty)).toBe(7n);
    expect(evalExpr(expr('1 << 2 + 1'), empty)).toBe(8n);
    expect(evalExpr(expr('6 & 3 | 8'), empty)).toBe(10n);
  });

  it('refuses values too large to hold instead of crashing', () => {
    expect(() => evalExpr(expr('1 << 100000000000'), empty)).toThrow(EvalError);
    try {
      evalExpr(expr('1 << 100000000000'), empty);
    } catch (err) {
      expect(err instanceof EvalError && err.reason).toBe('too-large');
    }
  });
});

describe('variables and builtins', () => {
  it('reads variables and builtins from the environment', () => {
    const env: ValueEnv = {
      vars: new Map([['N', 10n]]),
      builtins: { threadIdx: [3n, 1n, 0n], blockIdx: [2n, 0n, 0n], blockDim: [4n, 2n, 1n] },
    };
    expect(evalExpr(expr('blockIdx.x * blockDim.x + tid', ['N']), env)).toBe(11n);
    expect(evalExpr(expr('threadIdx.y + N', ['N']), env)).toBe(11n);
  });

  it('reports an unbound name with its span', () => {
    const e = expr('N + 1', ['N']);
    try {
      evalExpr(e, empty);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(EvalError);
      expect(err instanceof EvalError && err.reason).toBe('unbound');
      expect(err instanceof EvalError && err.message).toContain("'N'");
    }
    expect(() => evalExpr(expr('gridDim.x'), empty)).toThrow(/gridDim\.x/);
  });
});

describe('conditions', () => {
  it('compares naturals; = and == agree', () => {
    expect(applyCmp('<', 1n, 2n)).toBe(true);
    expect(applyCmp('>=', 1n, 2n)).toBe(false);
    expect(evalBExpr(cond('1 = 1'), empty)).toBe(true);
    expect(evalBExpr(cond('1 == 2'), empty)).toBe(false);
    expect(evalBExpr(cond('0 - 1 == 0'), empty)).toBe(true);
  });

  it('combines with && || !', () => {
    expect(evalBExpr(cond('1 < 2 && !(2 < 1)'), empty)).toBe(true);
    expect(evalBExpr(cond('1 > 2 || 3 != 3'), empty)).toBe(false);
    expect(evalBExpr(cond('true && !false'), empty)).toBe(true);
  });
});
