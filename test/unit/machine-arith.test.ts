/**
 * One meaning for machine integers: for every operation and type, over small
 * and boundary operands (MIN, MIN+1, −1, 0, 1, MAX, the square-root edge of
 * multiplication, every shift count 0..width and beyond), the interpreter
 * (src/semantics/values.ts), the model re-checker (src/encode/evaluate.ts)
 * and the SMT-LIB the encoder prints, asked to Z3 in the integer and in the
 * bit-vector encoding, agree with src/core/arith.ts on the result and on
 * whether the operation is defined.
 */
import { describe, expect, it } from 'vitest';
import type { ArithOp, Expr, MachineType } from '../../src/core/ast.js';
import { loopStepUndefined, machineApply, machineUndefined, machineValue, typeMax, typeMin, WIDTH, wrap, wrapsAround } from '../../src/core/arith.js';
import { evalFormula, evalTerm } from '../../src/encode/evaluate.js';
import { machineTerm, operationDefined } from '../../src/encode/query.js';
import { bitVectorEncoding, chooseEncoding, printScript, type Declaration, type Encoding } from '../../src/encode/smtlib.js';
import { and, castTerm, eq, mop, not, num, or, tvar, type Formula, type Term } from '../../src/encode/term.js';
import { check } from '../../src/solve/z3.js';
import { EvalError, evalExpr } from '../../src/semantics/values.js';

const TYPES: readonly MachineType[] = ['i32', 'u32', 'i64', 'u64'];
const OPS: readonly ArithOp[] = ['+', '-', '*', '/', '%', '<<', '>>', '&', '|', '^'];

/** Small and boundary values of the type. */
function boundary(t: MachineType): bigint[] {
  const min = typeMin(t);
  const max = typeMax(t);
  const root = 1n << BigInt(WIDTH[t] / 2);
  const all = [min, min + 1n, min / 2n, -root, -7n, -3n, -2n, -1n, 0n, 1n, 2n, 3n, 7n, root - 1n, root, max / 2n, max - 1n, max];
  return [...new Set(all)].filter((v) => v >= min && v <= max).sort((a, b) => (a < b ? -1 : 1));
}

/** Shift counts: every one from 0 to the width, and beyond on both sides. */
function counts(t: MachineType): bigint[] {
  const all = [...Array.from({ length: WIDTH[t] + 2 }, (_, i) => BigInt(i)), -1n, typeMin(t), typeMax(t)];
  return [...new Set(all)].filter((v) => v >= typeMin(t) && v <= typeMax(t));
}

function pairsOf(op: ArithOp, t: MachineType): [bigint, bigint][] {
  const rights = op === '<<' || op === '>>' ? counts(t) : boundary(t);
  return boundary(t).flatMap((a) => rights.map((b): [bigint, bigint] => [a, b]));
}

/**
 * Fewer pairs for the solver's shifts by a variable count, each a case split
 * over the width whose branches are the shifts by a constant (tested on every
 * value and count below): the extremes and small values, counts at the edges.
 */
function solverPairsOf(op: ArithOp, t: MachineType): [bigint, bigint][] {
  if (op !== '<<' && op !== '>>') return pairsOf(op, t);
  const w = BigInt(WIDTH[t]);
  const lefts = [...new Set([typeMin(t), -3n, -1n, 0n, 1n, 3n, typeMax(t)])].filter((a) => a >= typeMin(t));
  const rights = [...new Set([0n, 1n, 2n, w / 2n, w - 2n, w - 1n, w, w + 1n, -1n, typeMax(t)])].filter((b) => b >= typeMin(t));
  return lefts.flatMap((a) => rights.map((b): [bigint, bigint] => [a, b]));
}

/** The interpreter's value of `a op b`, or 'undefined'. */
function interpreted(op: ArithOp, t: MachineType, a: bigint, b: bigint): bigint | 'undefined' {
  const span = { start: 0, end: 0 };
  const e: Expr = { kind: 'binary', op, type: t, left: { kind: 'var', name: 'a', type: t, span }, right: { kind: 'var', name: 'b', type: t, span }, span };
  try {
    return evalExpr(e, { vars: new Map([['a', a], ['b', b]]), builtins: {} });
  } catch (err) {
    if (err instanceof EvalError && err.reason === 'undefined') return 'undefined';
    throw err;
  }
}

/**
 * One query over every pair: x_i = a_i, y_i = b_i, and some pair whose
 * encoded result (machineTerm) or definedness (operationDefined) differs from
 * arith.ts. Unsat means the encoding agrees on all of them.
 */
function agreementQuery(op: ArithOp, t: MachineType, pairs: readonly [bigint, bigint][]): { declarations: Declaration[]; assertions: Formula[] } {
  const declarations: Declaration[] = [];
  const assertions: Formula[] = [];
  const mismatches: Formula[] = [];
  pairs.forEach(([a, b], i) => {
    declarations.push({ name: `x${i}`, bits: WIDTH[t], type: t }, { name: `y${i}`, bits: WIDTH[t], type: t });
    const x = tvar(`x${i}`);
    const y = tvar(`y${i}`);
    assertions.push(eq(x, num(a)), eq(y, num(b)));
    const d = operationDefined(op, t, x, y);
    mismatches.push(not(and([eq(machineTerm(op, t, x, y), num(machineValue(op, t, a, b))), machineUndefined(op, t, a, b) === null ? d : not(d)])));
  });
  assertions.push(or(mismatches));
  return { declarations, assertions };
}

async function unsat(declarations: readonly Declaration[], assertions: readonly Formula[], enc: Encoding): Promise<void> {
  const verdict = await check(printScript(declarations, assertions, enc), 60_000);
  if (verdict.status === 'sat') {
    const wrong = [...verdict.model].filter(([n]) => n.startsWith('x')).slice(0, 3);
    throw new Error(`the encoding disagrees with arith.ts (${enc.width === null ? 'integers' : `bit-vectors of ${enc.width}`}), e.g. near ${wrong.map(([n, v]) => `${n}=${v}`).join(' ')}`);
  }
  expect(verdict.status).toBe('unsat');
}

describe('machine arithmetic: interpreter, re-checker and arith.ts', () => {
  for (const t of TYPES) {
    it(`${t}: every operation on boundary values, result and definedness`, () => {
      for (const op of OPS) {
        for (const [a, b] of pairsOf(op, t)) {
          const why = machineUndefined(op, t, a, b);
          const value = machineValue(op, t, a, b);
          // C's result: an unsigned + − * << is reduced modulo 2^width, the others are exact where defined
          const result = wrapsAround(op, t) ? wrap(t, value) : value;
          // the interpreter stops exactly where arith.ts says undefined, else computes its value
          expect(interpreted(op, t, a, b), `${a} ${op} ${b} (${t})`).toBe(why === null ? result : 'undefined');
          // a defined result is in range, and an unsigned + − is always defined
          if (why === null) expect(result >= typeMin(t) && result <= typeMax(t), `${a} ${op} ${b} (${t}) in range`).toBe(true);
          if (wrapsAround(op, t) && op !== '<<') expect(why, `${a} ${op} ${b} (${t}) defined`).toBeNull();
          // a loop counter's step is out of scope where C's operation is undefined, and also where an unsigned one wraps
          expect(loopStepUndefined(op, t, a, b) === null, `step ${a} ${op} ${b} (${t})`).toBe(why === null && result === value);
          // the re-checker evaluates the encoder's term and definedness formula the same way
          const valuation = (n: string): bigint => (n === 'x' ? a : b);
          expect(evalTerm(machineTerm(op, t, tvar('x'), tvar('y')), valuation), `term ${a} ${op} ${b} (${t})`).toBe(value);
          expect(evalFormula(operationDefined(op, t, tvar('x'), tvar('y')), valuation), `defined ${a} ${op} ${b} (${t})`).toBe(why === null);
        }
      }
    });
  }

  it("follows C: truncating division, the remainder's sign, arithmetic shift, two's complement", () => {
    expect(machineValue('/', 'i32', -7n, 2n)).toBe(-3n);
    expect(machineValue('%', 'i32', -7n, 2n)).toBe(-1n);
    expect(machineValue('%', 'i32', 7n, -2n)).toBe(1n);
    expect(machineValue('>>', 'i32', -7n, 1n)).toBe(-4n);
    expect(machineValue('&', 'i32', -1n, 255n)).toBe(255n);
    expect(machineValue('^', 'u32', 5n, 0xffffffffn)).toBe(0xfffffffan);
    expect(machineValue('|', 'i32', -8n, 3n)).toBe(-5n);
    expect(machineUndefined('+', 'i32', 2147483647n, 1n)).toMatch(/overflow/);
    expect(machineUndefined('-', 'u32', 0n, 1n)).toBeNull();
    expect(machineApply('-', 'u32', 0n, 1n)).toBe(4294967295n);
    expect(machineApply('+', 'u32', 2n, 4294967294n)).toBe(0n);
    expect(machineApply('<<', 'u64', 2n ** 63n, 1n)).toBe(0n);
    // C defines an unsigned product modulo 2^w, however many times it wraps
    expect(machineUndefined('*', 'u32', 2n, 2n ** 31n)).toBeNull();
    expect(machineApply('*', 'u32', 2n, 2n ** 31n)).toBe(0n);
    expect(machineApply('*', 'u32', 7n, 2654435761n)).toBe((7n * 2654435761n) % 2n ** 32n);
    expect(loopStepUndefined('*', 'u32', 2n, 2n ** 31n)).toMatch(/wrap-around of a loop counter/);
    expect(machineApply('<<', 'u32', 33n, 27n)).toBe(1n << 27n);
    expect(machineUndefined('<<', 'u32', 1n, 32n)).toMatch(/shift count 32/);
    expect(loopStepUndefined('-', 'u32', 0n, 1n)).toMatch(/wrap-around of a loop counter/);
    expect(machineUndefined('/', 'i32', -2147483648n, -1n)).toMatch(/overflow/);
    expect(machineUndefined('%', 'i32', -2147483648n, -1n)).toMatch(/overflow/);
    expect(machineUndefined('/', 'u32', 5n, 0n)).toMatch(/division by zero/);
    expect(machineUndefined('<<', 'i32', 1n, 31n)).toMatch(/outside/);
    expect(machineUndefined('<<', 'u32', 1n, 31n)).toBeNull();
    expect(machineUndefined('>>', 'u32', 1n, 32n)).toMatch(/shift count 32/);
    expect(machineUndefined('>>', 'i64', 1n, -1n)).toMatch(/shift count -1/);
    expect(machineUndefined('^', 'i32', -1n, -2147483648n)).toBeNull();
  });

  it('casts are exact modular reductions into the type, the identity in range', () => {
    expect(wrap('u32', -1n)).toBe(4294967295n);
    expect(wrap('i32', 4294967295n)).toBe(-1n);
    expect(wrap('i32', 2147483648n)).toBe(-2147483648n);
    expect(wrap('u64', -2n)).toBe(18446744073709551614n);
    expect(wrap('i64', 18446744073709551615n)).toBe(-1n);
    for (const from of TYPES) for (const to of TYPES) for (const v of boundary(from)) {
      const expected = wrap(to, v);
      expect(expected >= typeMin(to) && expected <= typeMax(to)).toBe(true);
      if (v >= typeMin(to) && v <= typeMax(to)) expect(expected).toBe(v);
      expect(evalTerm(castTerm(to, tvar('x')), () => v)).toBe(expected);
    }
  });
});

describe('machine arithmetic: the SMT encoding asked to Z3', () => {
  for (const t of TYPES) {
    for (const op of OPS) {
      it(`${t} ${op}: the printed SMT-LIB agrees with arith.ts on every boundary pair`, async () => {
        const q = agreementQuery(op, t, solverPairsOf(op, t));
        // the encoding the verifier would choose (integers where the operator allows), then bit-vectors
        const chosen = chooseEncoding(q.declarations, q.assertions);
        await unsat(q.declarations, q.assertions, chosen);
        if (chosen.width === null) await unsat(q.declarations, q.assertions, bitVectorEncoding(q.declarations, q.assertions));
      });
    }
    it(`${t} &: a mask 2^k - 1 stays over the integers and agrees`, async () => {
      const masks = Array.from({ length: WIDTH[t] + 1 }, (_, k) => (1n << BigInt(k)) - 1n).filter((m) => m <= typeMax(t));
      await agreesOnIntegersAndBitVectors(
        boundary(t).map((a) => ({ type: t, value: a })),
        (x, a) => masks.map((m) => not(eq(mop('&', t, x, num(m)), num(machineValue('&', t, a, m))))),
      );
    });
  }

  it('shifts by a constant count agree on every boundary value and count, over the integers and bit-vectors', async () => {
    await agreesOnIntegersAndBitVectors(
      TYPES.flatMap((t) => boundary(t).map((a) => ({ type: t, value: a }))),
      (x, a, t) =>
        (['<<', '>>'] as const).flatMap((op) =>
          counts(t).map((b) => {
            const d = operationDefined(op, t, x, num(b));
            return not(and([eq(machineTerm(op, t, x, num(b)), num(machineValue(op, t, a, b))), machineUndefined(op, t, a, b) === null ? d : not(d)]));
          }),
        ),
    );
  });

  it('casts between every pair of types agree, over the integers and bit-vectors', async () => {
    await agreesOnIntegersAndBitVectors(
      TYPES.flatMap((from) => boundary(from).map((v) => ({ type: from, value: v }))),
      (x, v) => TYPES.map((to) => not(eq(castTerm(to, x), num(wrap(to, v))))),
    );
  });
});

/**
 * Variables x_i of the types fixed to the values, and some mismatch of the
 * encoding on one of them: the query stays over the integers, and is unsat
 * there and over bit-vectors.
 */
async function agreesOnIntegersAndBitVectors(vars: readonly { type: MachineType; value: bigint }[], mismatches: (x: Term, value: bigint, type: MachineType) => Formula[]): Promise<void> {
  const declarations: Declaration[] = vars.map((v, i) => ({ name: `x${i}`, bits: WIDTH[v.type], type: v.type }));
  const assertions: Formula[] = vars.map((v, i) => eq(tvar(`x${i}`), num(v.value)));
  assertions.push(or(vars.flatMap((v, i) => mismatches(tvar(`x${i}`), v.value, v.type))));
  const chosen = chooseEncoding(declarations, assertions);
  expect(chosen.width).toBeNull();
  await unsat(declarations, assertions, chosen);
  await unsat(declarations, assertions, bitVectorEncoding(declarations, assertions));
}
