import { describe, expect, it } from 'vitest';
import { and, cmp, eq, mop, not, num, op, or, tvar, type Formula, type Term } from '../../src/encode/term.js';
import { machineValue } from '../../src/core/arith.js';
import { evalFormula, evalTerm } from '../../src/encode/evaluate.js';
import { applyArith } from '../../src/semantics/values.js';
import { bitVectorEncoding, chooseEncoding, printFormula, printScript, printTerm, type Declaration, type Encoding } from '../../src/encode/smtlib.js';
import { check } from '../../src/solve/z3.js';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { inferMap } from '../../src/map/infer.js';
import { verifyKernel } from '../../src/verify/verify.js';
import type { KernelResult } from '../../src/verify/result.js';
import { loopValues, type LoopShape } from '../../src/semantics/loops.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { encodingWith } from '../../src/encode/query.js';
import type { KernelMap } from '../../src/map/map.js';
import * as c from '../support/core.js';

const x = tvar('x');
const y = tvar('y');
const decls = (bits = 8): Declaration[] => [
  { name: 'x', bits },
  { name: 'y', bits },
];
const logicOf = (...fs: Formula[]): string => chooseEncoding(decls(), fs).logic;
const INT: Encoding = { logic: 'QF_NIA', width: null };
const BV: Encoding = { logic: 'QF_BV', width: 20 };

async function solve(fs: readonly Formula[], enc: Encoding = chooseEncoding(decls(), fs)): Promise<string> {
  const verdict = await check(printScript(decls(), fs, enc), 10_000);
  if (verdict.status === 'sat') {
    // the model satisfies the formulas under the language's semantics
    const value = (n: string): bigint => verdict.model.get(n) ?? 0n;
    for (const f of fs) expect(evalFormula(f, value), printFormula(f, enc)).toBe(true);
  }
  return verdict.status;
}

describe('chooseEncoding', () => {
  it('picks QF_LIA for linear arithmetic', () => {
    expect(logicOf(eq(op('*', x, num(2)), y))).toBe('QF_LIA');
    expect(logicOf(cmp('<', op('+', x, y), num(3)), eq(op('-', x, y), num(0)))).toBe('QF_LIA');
    expect(logicOf(eq(op('/', x, num(4)), op('%', y, num(3))))).toBe('QF_LIA');
    expect(chooseEncoding(decls(), [eq(x, y)]).width).toBeNull();
  });

  it('picks QF_NIA for a product, quotient or remainder of variables', () => {
    expect(logicOf(eq(op('*', x, y), num(6)))).toBe('QF_NIA');
    expect(logicOf(eq(op('/', x, y), num(6)))).toBe('QF_NIA');
    expect(logicOf(eq(op('%', x, y), num(6)))).toBe('QF_NIA');
    expect(logicOf(eq(x, num(1)), not(eq(op('*', x, y), num(6))))).toBe('QF_NIA');
  });

  it('picks QF_BV for xor, or, and a mask that is not 2^k - 1', () => {
    expect(logicOf(eq(op('^', x, y), num(0)))).toBe('QF_BV');
    expect(logicOf(eq(op('|', x, num(1)), y))).toBe('QF_BV');
    expect(logicOf(eq(op('&', x, num(6)), y))).toBe('QF_BV');
    expect(logicOf(eq(op('&', x, y), num(0)))).toBe('QF_BV');
    expect(logicOf(eq(op('<<', x, y), num(8)))).toBe('QF_BV');
  });

  it('keeps x & 7 and x << 3, x >> 3 over the integers', () => {
    expect(logicOf(eq(op('&', x, num(7)), y))).toBe('QF_LIA');
    expect(logicOf(eq(op('&', num(15), x), y))).toBe('QF_LIA');
    expect(logicOf(eq(op('<<', x, num(3)), y))).toBe('QF_LIA');
    expect(logicOf(eq(op('>>', x, num(3)), y))).toBe('QF_LIA');
    expect(printTerm(op('&', x, num(7)), INT)).toBe('(mod x 8)');
    expect(printTerm(op('<<', x, num(3)), INT)).toBe('(* x 8)');
    expect(printTerm(op('>>', x, num(3)), INT)).toBe('(div x 8)');
  });

  it('sizes bit-vectors from the variables and operations so nothing wraps', () => {
    const enc = chooseEncoding(decls(8), [eq(op('^', op('*', x, y), num(1)), num(0))]);
    expect(enc.logic).toBe('QF_BV');
    // x * y needs 16 bits, plus a spare one
    expect(enc.width).toBeGreaterThanOrEqual(17);
  });
});

describe('encodingWith', () => {
  it('widens a bit-vector query for the facts added to it, so that a bound on a sum of sizes does not wrap (replay found a witness that way)', async () => {
    // five 32-bit sizes, each at least 2^31, made a bit-vector query by an xor; then a witness bound: their sum below 5
    const names = ['a', 'b', 'c', 'd', 'e'];
    const declarations: Declaration[] = names.map((name) => ({ name, bits: 32 }));
    const assertions = names.map((n) => cmp('>=', op('^', tvar(n), num(1)), num(2n ** 31n)));
    const q = { declarations, assertions, encoding: chooseEncoding(declarations, assertions) };
    const bound = cmp('<', names.map((n): Term => tvar(n)).reduce((s, t) => op('+', s, t)), num(5));
    // over the integers the sum is at least 5·2^31: no model
    const solved = async (enc: Encoding): Promise<string> => (await check(printScript(declarations, [...assertions, bound], enc), 10_000)).status;
    expect(q.encoding.width).toBe(33);
    // the query's own 33 bits let the sum wrap past 2^33 to a small value
    expect(await solved(q.encoding)).toBe('sat');
    expect(encodingWith(q, [bound]).width).toBeGreaterThanOrEqual(36);
    expect(await solved(encodingWith(q, [bound]))).toBe('unsat');
    expect(encodingWith(q, [])).toBe(q.encoding);
  });
});

describe('evaluate: the language semantics', () => {
  it('truncates subtraction, divides by 0 to 0, leaves x % 0 = x', () => {
    expect(applyArith('-', 3n, 5n)).toBe(0n);
    expect(applyArith('-', 5n, 3n)).toBe(2n);
    expect(applyArith('/', 7n, 0n)).toBe(0n);
    expect(applyArith('%', 7n, 0n)).toBe(7n);
    expect(applyArith('/', 7n, 2n)).toBe(3n);
    expect(applyArith('%', 7n, 3n)).toBe(1n);
    expect(applyArith('<<', 3n, 4n)).toBe(48n);
    expect(applyArith('>>', 49n, 4n)).toBe(3n);
    expect(applyArith('&', 12n, 10n)).toBe(8n);
    expect(applyArith('|', 12n, 10n)).toBe(14n);
    expect(applyArith('^', 12n, 10n)).toBe(6n);
  });

  it('divides by two numbers in a row as by their product: x / c / d = x / (c·d), for x of either sign', () => {
    const v = (n: string): bigint => values.get(n)!;
    const values = new Map<string, bigint>();
    for (let xv = -40n; xv <= 40n; xv++) {
      for (let c = 1n; c <= 5n; c++) {
        for (let d = 1n; d <= 5n; d++) {
          values.set('x', xv);
          expect(evalTerm(op('/', op('/', x, num(c)), num(d)), v)).toBe(applyArith('/', applyArith('/', xv, c), d));
        }
      }
    }
  });

  it("divides a machine integer by two numbers in a row as by their product, as C truncates, while the product is a value of the type", () => {
    const values = new Map<string, bigint>();
    const v = (n: string): bigint => values.get(n)!;
    const xs = [-2147483648n, -2147483647n, -40n, -13n, -1n, 0n, 1n, 13n, 40n, 2147483647n];
    for (const xv of xs) {
      for (const [c, d] of [[2n, 2n], [3n, 5n], [2n, 65536n], [65536n, 65536n]] as const) {
        values.set('x', xv);
        const folded = mop('/', 'i32', mop('/', 'i32', x, num(c)), num(d));
        expect(evalTerm(folded, v)).toBe(machineValue('/', 'i32', machineValue('/', 'i32', xv, c), d));
      }
    }
    expect(mop('/', 'i32', mop('/', 'i32', x, num(3)), num(4))).toEqual(mop('/', 'i32', x, num(12)));
    // 2^32 is not an i32: the two divisions stay
    const wide = mop('/', 'i32', mop('/', 'i32', x, num(65536)), num(65536));
    expect(wide.k === 'mop' && wide.a.k === 'mop').toBe(true);
  });

  it('evaluates terms and formulas on a valuation', () => {
    const v = (n: string): bigint => (n === 'x' ? 3n : 5n);
    expect(evalTerm(op('-', x, y), v)).toBe(0n);
    expect(evalTerm(op('/', y, op('-', x, y)), v)).toBe(0n);
    expect(evalTerm(op('%', y, op('-', x, y)), v)).toBe(5n);
    expect(evalTerm({ k: 'ite', c: cmp('<', x, y), a: num(1), b: num(2) }, v)).toBe(1n);
    expect(evalFormula(and([cmp('<', x, y), not(eq(x, y)), or([eq(x, num(0)), cmp('>=', y, num(5))])]), v)).toBe(true);
    expect(evalFormula(cmp('!=', op('-', x, y), num(0)), v)).toBe(false);
  });

  it('computes constant operations when building terms', () => {
    expect(op('-', num(2), num(5))).toEqual(num(0));
    expect(op('/', num(2), num(0))).toEqual(num(0));
    expect(op('%', num(9), num(0))).toEqual(num(9));
    expect(op('+', x, num(0))).toEqual(x);
    expect(op('*', x, num(0))).toEqual(num(0));
    expect(op('/', op('/', x, num(3)), num(4))).toEqual(op('/', x, num(12)));
    expect(cmp('<=', x, x)).toEqual({ k: 'const', v: true });
    expect(and([eq(x, y), { k: 'const', v: false }])).toEqual({ k: 'const', v: false });
  });
});

describe('SMT-LIB scripts in Z3', () => {
  it('prints the integer encoding of truncated subtraction and division by a variable', () => {
    expect(printTerm(op('-', x, y), INT)).toBe('(ite (<= y x) (- x y) 0)');
    expect(printTerm(op('/', x, y), INT)).toBe('(ite (= y 0) 0 (div x y))');
    expect(printTerm(op('%', x, y), INT)).toBe('(ite (= y 0) x (mod x y))');
  });

  it('declares every variable as a natural below its bound', async () => {
    const script = printScript(decls(4), [cmp('>=', x, num(16))], { logic: 'QF_LIA', width: null });
    expect(script).toContain('(declare-const x Int)');
    expect(script).toContain('(assert (and (<= 0 x) (< x 16)))');
    expect((await check(script, 10_000)).status).toBe('unsat');
  });

  it('answers sat and unsat for tiny formulas, with a model that satisfies them', async () => {
    expect(await solve([eq(op('+', x, y), num(7)), cmp('<', x, y)])).toBe('sat');
    expect(await solve([eq(op('*', x, num(2)), num(7))])).toBe('unsat');
    expect(await solve([eq(op('*', x, y), num(12)), cmp('>', x, y), cmp('>', y, num(1))])).toBe('sat');
    expect(await solve([eq(op('^', x, y), num(0)), not(eq(x, y))])).toBe('unsat');
    expect(await solve([eq(op('^', x, y), num(5)), cmp('>', x, num(8))])).toBe('sat');
    expect(await solve([eq(op('&', x, num(7)), num(5)), cmp('<', x, num(8)), not(eq(x, num(5)))])).toBe('unsat');
  });

  const agree: [string, Formula[], 'sat' | 'unsat'][] = [
    ['x - y = 0 with x < y (truncated)', [eq(op('-', x, y), num(0)), cmp('<', x, y)], 'sat'],
    ['(x - y) + y = x with x < y', [eq(op('+', op('-', x, y), y), x), cmp('<', x, y)], 'unsat'],
    ['x / 0 != 0', [not(eq(op('/', x, num(0)), num(0)))], 'unsat'],
    ['x / 3 = 5 with x outside 15..17', [eq(op('/', x, num(3)), num(5)), or([cmp('<', x, num(15)), cmp('>', x, num(17))])], 'unsat'],
    ['x / 3 = 5 with x = 17', [eq(op('/', x, num(3)), num(5)), eq(x, num(17))], 'sat'],
    ['x / y != 0 with y = 0', [not(eq(op('/', x, y), num(0))), eq(y, num(0))], 'unsat'],
    ['x % y != x with y = 0', [not(eq(op('%', x, y), x)), eq(y, num(0))], 'unsat'],
    ['x % y = 3 with y = 5, x > 10', [eq(op('%', x, y), num(3)), eq(y, num(5)), cmp('>', x, num(10))], 'sat'],
    ['x << 3 = 24 with x != 3', [eq(op('<<', x, num(3)), num(24)), not(eq(x, num(3)))], 'unsat'],
    ['x >> 1 = 3 with x not 6 or 7', [eq(op('>>', x, num(1)), num(3)), not(eq(x, num(6))), not(eq(x, num(7)))], 'unsat'],
    ['x & 7 = x % 8', [not(eq(op('&', x, num(7)), op('%', x, num(8))))], 'unsat'],
    ['x * y = 12, x > y > 1', [eq(op('*', x, y), num(12)), cmp('>', x, y), cmp('>', y, num(1))], 'sat'],
  ];
  it.each(agree)('integer and bit-vector encodings agree: %s', async (_name, fs, expected) => {
    expect(await solve(fs, INT)).toBe(expected);
    expect(await solve(fs, BV)).toBe(expected);
    // the second encoding a portfolio races, at its computed width
    expect(await solve(fs, bitVectorEncoding(decls(), fs))).toBe(expected);
  });
});

describe('bitVectorEncoding', () => {
  /** The largest value the term or any subterm takes, under the language's semantics. */
  function largest(t: Term, v: (n: string) => bigint): bigint {
    const own = evalTerm(t, v);
    if (t.k !== 'op') return own;
    const [a, b] = [largest(t.a, v), largest(t.b, v)];
    return [own, a, b].reduce((m, x) => (x > m ? x : m));
  }

  // an integer query's terms: no value of 3-bit inputs may reach the wrap point of the width it gets
  const terms: Term[] = [
    op('+', op('*', x, y), op('*', y, y)),
    op('<<', op('+', x, y), num(5)),
    op('*', op('*', x, y), op('+', x, num(7))),
    op('-', op('/', op('*', x, num(9)), op('+', y, num(1))), op('%', x, y)),
    op('>>', op('*', op('+', x, x), y), num(2)),
    op('&', op('*', x, y), num(15)),
  ];
  it.each(terms.map((t) => [printTerm(t, INT), t] as const))('leaves %s exact on every small input', (_text, t) => {
    const enc = bitVectorEncoding(decls(3), [eq(t, num(0))]);
    const wrap = 1n << BigInt(enc.width! - 1);
    for (let i = 0n; i < 8n; i++) {
      for (let j = 0n; j < 8n; j++) expect(largest(t, (n) => (n === 'x' ? i : j))).toBeLessThan(wrap);
    }
  });
});

// --- loop membership, end to end --------------------------------------------------

async function verify(text: string, params: Record<string, number> = {}): Promise<KernelResult> {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  return verifyMap(inferMap(program.file, program.kernels[0]!), params);
}

async function verifyMap(map: KernelMap, params: Record<string, number> = {}): Promise<KernelResult> {
  return verifyKernel(map, {
    launch: { params: new Map(Object.entries(params).map(([k, v]) => [k, BigInt(v)])), blockDim: null, gridDim: null },
    timeoutMs: 10_000,
    maxRaces: 4,
    solver: z3Wasm,
  });
}

/** Thread 0 writes A[i] for each i the loop visits; every other thread reads A[probe]. */
const probeKernel = (range: string, probe: number): string =>
  `kernel k(N, M, S) { shared A; for i in ${range} { if (tid = 0) { A[i] := 1 } else { let v = A[${probe}] in skip } } }`;

interface LoopCase {
  readonly name: string;
  readonly literal: string;
  readonly symbolic: string;
  readonly shape: LoopShape;
  /** values to probe: some visited, some not */
  readonly probes: readonly number[];
}

const LOOPS: readonly LoopCase[] = [
  { name: 'up', literal: '2..7', symbolic: 'N..M', shape: { direction: 'up', op: '+', amount: 1n, from: 2n, to: 7n }, probes: [1, 2, 6, 7] },
  { name: 'step + k', literal: '2..11 step + 3', symbolic: 'N..M step + S', shape: { direction: 'up', op: '+', amount: 3n, from: 2n, to: 11n }, probes: [8, 7, 11] },
  { name: 'step * k', literal: '1..10 step * 3', symbolic: 'N..M step * S', shape: { direction: 'up', op: '*', amount: 3n, from: 1n, to: 10n }, probes: [9, 8, 6] },
  { name: 'downto', literal: '7 downto 3', symbolic: 'N downto M', shape: { direction: 'down', op: '-', amount: 1n, from: 7n, to: 3n }, probes: [3, 2, 8] },
  { name: 'step - k', literal: '10 downto 2 step - 3', symbolic: 'N downto M step - S', shape: { direction: 'down', op: '-', amount: 3n, from: 10n, to: 2n }, probes: [4, 1, 5] },
  { name: 'step / k', literal: '20 downto 3 step / 2', symbolic: 'N downto M step / S', shape: { direction: 'down', op: '/', amount: 2n, from: 20n, to: 3n }, probes: [5, 4, 2] },
];

describe('loop membership is exact', () => {
  it('agrees with the interpreter on the example values', () => {
    const visited = (c: LoopCase): bigint[] => [...loopValues(c.shape, 100).values];
    expect(LOOPS.map(visited)).toEqual([[2n, 3n, 4n, 5n, 6n], [2n, 5n, 8n], [1n, 3n, 9n], [7n, 6n, 5n, 4n, 3n], [10n, 7n, 4n], [20n, 10n, 5n]]);
  });

  it('races on A[9] for `for i in 1..10 step * 3` but not on A[8]', async () => {
    const racy = await verify(probeKernel('1..10 step * 3', 9));
    expect(racy.status).toBe('racy');
    const [race] = racy.races;
    expect(race!.index).toEqual([9n]);
    const writer = race!.witness.threads.find((t) => t.threadIdx[0] === 0n);
    expect(writer?.locals.get('i')).toBe(9n);
    expect((await verify(probeKernel('1..10 step * 3', 8))).status).toBe('drf');
  });

  for (const c of LOOPS) {
    const visited = new Set(loopValues(c.shape, 100).values.map(Number));
    for (const probe of c.probes) {
      const expected = visited.has(probe) ? 'racy' : 'drf';
      it(`${c.name}: probe ${probe} is ${expected} (literal bounds and fixed parameters)`, async () => {
        const literal = await verify(probeKernel(c.literal, probe));
        expect(literal.status).toBe(expected);
        expect(literal.unknowns).toEqual([]);
        const fixed = await verify(probeKernel(c.symbolic, probe), { N: Number(c.shape.from), M: Number(c.shape.to), S: Number(c.shape.amount) });
        expect(fixed.status).toBe(expected);
        if (expected === 'racy') {
          const race = fixed.races[0]!;
          expect(race.index).toEqual([BigInt(probe)]);
          expect(race.witness.parameters.get('N')).toBe(c.shape.from);
          expect(race.witness.parameters.get('S')).toBe(c.shape.amount);
        }
      });
    }
  }

  it('a downward loop to 0 stops where a step would go below 0 (spec: n downto m visits n, …, m)', async () => {
    expect((await verify(probeKernel('10 downto 0 step - 3', 0))).status).toBe('drf');
    expect((await verify(probeKernel('10 downto 0 step - 3', 1))).status).toBe('racy');
    expect((await verify(probeKernel('9 downto 0 step - 3', 0))).status).toBe('racy');
    expect((await verify(probeKernel('10 downto 0 step - 3', 2))).status).toBe('drf');
    expect((await verify(probeKernel('N downto 0 step - S', 0), { N: 10, S: 3 })).status).toBe('drf');
    expect((await verify(probeKernel('N downto 0 step - S', 1), { N: 10, S: 3 })).status).toBe('racy');
    // step / k reaches 0 and stays there: 0 is visited
    expect((await verify(probeKernel('20 downto 0 step / 2', 0))).status).toBe('racy');
  });

  it('a division loop from a symbolic start visits exactly from / cⁱ while in range, in a thread and as the iteration a barrier aligns', async () => {
    // the start is a parameter, so the values are terms, not numbers: from / c, from / c², …
    const aligned = (probe: number, step: number): string =>
      `kernel k(N, M) { shared A; for i in N downto M step / ${step} { if (tid = 0) { A[i] := 1 } else { let v = A[${probe}] in skip }; sync } }`;
    const cases: [number, number, number][] = [
      [20, 3, 2],
      [20, 0, 2],
      [1, 0, 2],
      [0, 0, 2],
      [31, 2, 3],
      [7, 8, 2],
    ];
    for (const [from, to, step] of cases) {
      const visited = new Set(loopValues({ direction: 'down', op: '/', amount: BigInt(step), from: BigInt(from), to: BigInt(to) }, 100).values.map(Number));
      for (const probe of [0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 20, 31]) {
        const expected = visited.has(probe) ? 'racy' : 'drf';
        const params = { N: from, M: to };
        expect([from, to, step, probe, (await verify(probeKernel(`N downto M step / ${step}`, probe), params)).status]).toEqual([from, to, step, probe, expected]);
        expect([from, to, step, probe, 'aligned', (await verify(aligned(probe, step), params)).status]).toEqual([from, to, step, probe, 'aligned', expected]);
      }
    }
  }, 120_000);

  it('so does one over a machine type, negative values included, and one going up, which runs only if its start is in range', async () => {
    // thread 0 writes A[i + 40] for each value i, so that negative values index the array too; the others read A[probe + 40]
    const divisionLoop = (down: boolean, isTyped: boolean, probe: number): KernelMap => {
      const [num, type] = isTyped ? [c.i32, 'i32' as const] : [c.nat, undefined];
      const i = c.v('i', type);
      const body = c.if_(c.cmp('==', isTyped ? c.tidAs('i32') : c.tid, num(0)), [c.write('A', [c.bin('+', i, num(40))], num(1))], [c.read('x', 'A', [num(probe + 40)])]);
      const spec = { from: c.v('N', type), to: c.v('M', type), down, step: { op: '/' as const, amount: num(2) }, ...(isTyped ? { type: 'i32' as const } : {}) };
      return c.mapOf(c.kernel('k', { params: [c.param('N', type), c.param('M', type)], arrays: [c.shared('A')] }, [c.forLoop('i', spec, [body])]));
    };
    const cases: [string, 'up' | 'down', number, number, boolean][] = [
      ['typed down, negative start in range', 'down', -20, -30, true],
      ['typed down, negative start out of range', 'down', -20, -5, true],
      ['typed down, positive', 'down', 37, 3, true],
      ['typed up, start in range', 'up', 20, 30, true],
      ['typed up, start out of range', 'up', 10, 3, true],
      ['natural up, start out of range', 'up', 10, 3, false],
      ['natural up, start in range', 'up', 12, 13, false],
    ];
    for (const [name, dir, from, to, isTyped] of cases) {
      const visited = new Set(loopValues({ direction: dir, op: '/', amount: 2n, from: BigInt(from), to: BigInt(to), ...(isTyped ? { type: 'i32' as const } : {}) }, 100).values.map(Number));
      const params = { N: from, M: to };
      for (const probe of [-20, -10, -5, -2, -1, 0, 1, 2, 3, 4, 5, 6, 9, 10, 12, 18, 20, 37]) {
        if (!isTyped && probe < 0) continue;
        const expected = visited.has(probe) ? 'racy' : 'drf';
        const result = await verifyMap(divisionLoop(dir === 'down', isTyped, probe), params);
        expect([name, probe, result.status]).toEqual([name, probe, expected]);
      }
    }
  }, 180_000);

  it('a doubling loop over a machine type from a number to a symbolic bound visits from · 2ⁱ while in range, and stops where the product leaves the type', async () => {
    const doubling = (from: number, probe: number): KernelMap => {
      const i = c.v('i', 'i32');
      const body = c.if_(c.cmp('==', c.tidAs('i32'), c.i32(0)), [c.write('A', [c.bin('+', i, c.i32(40))], c.i32(1))], [c.read('x', 'A', [c.i32(probe + 40)])]);
      const spec = { from: c.i32(from), to: c.v('M', 'i32'), step: { op: '*' as const, amount: c.i32(2) }, type: 'i32' as const };
      return c.mapOf(c.kernel('k', { params: [c.param('M', 'i32')], arrays: [c.shared('A')] }, [c.forLoop('i', spec, [body])]));
    };
    for (const [from, to] of [[1, 100], [3, 50], [3, 2], [-3, 10], [-3, -5], [0, 1]] as const) {
      const visited = new Set(loopValues({ direction: 'up', op: '*', amount: 2n, from: BigInt(from), to: BigInt(to), type: 'i32' }, 12).values.map(Number));
      // from −3 up to 10 the loop doubles away from its bound until it overflows, in every thread of every launch: no
      // launch is in scope, which the vacuity check, seeing the first iteration only, does not prove: unknown, never DRF
      const runsAway = from < 0 && from < to;
      for (const probe of [-24, -12, -6, -3, 0, 1, 2, 3, 4, 6, 12, 24, 32, 48, 64, 96, 128]) {
        const expected = visited.has(probe) ? 'racy' : runsAway ? 'unknown' : 'drf';
        // a loop that runs on to 2^31 is out of scope there; the alarm is still real at small values
        const result = await verifyMap(doubling(from, probe), { M: to });
        expect([from, to, probe, result.status]).toEqual([from, to, probe, expected]);
      }
    }
  }, 180_000);

  it('visits nothing for an empty range', async () => {
    expect((await verify(probeKernel('5..5', 5))).status).toBe('drf');
    expect((await verify(probeKernel('2 downto 5', 2))).status).toBe('drf');
  });
});
