/**
 * The racing rule of a portfolio, on fake members whose answers the test
 * gives in every order: whether the answer is decisive depends on the
 * members' verdicts, never on which came first; a sat answer's model is the
 * first sat member's (callers make it canonical: test/unit/canonical.test.ts).
 * No test here depends on how fast anything runs.
 */
import { describe, expect, it } from 'vitest';
import { portfolio, type Member } from '../../src/solve/portfolio.js';
import type { Solver, Verdict } from '../../src/solve/solver.js';

interface Fake {
  readonly solver: Solver;
  /** the scripts it was given */
  readonly given: string[];
  aborted: boolean;
  answer(v: Verdict): void;
}

const CANCELED: Verdict = { status: 'unknown', reason: 'canceled: another solver answered first' };

/** A member that answers when the test says so, and at once (canceled) when it is stopped, as real members do. */
function fake(name: string): Fake {
  let resolve: ((v: Verdict) => void) | null = null;
  const f: Fake = {
    given: [],
    aborted: false,
    answer: (v) => resolve?.(v),
    solver: {
      name,
      check(script, _timeoutMs, options) {
        f.given.push(script);
        return new Promise((r) => {
          resolve = r;
          options?.signal?.addEventListener('abort', () => {
            f.aborted = true;
            r(CANCELED);
          });
        });
      },
    },
  };
  return f;
}

const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 5));

const sat = (x: bigint): Verdict => ({ status: 'sat', model: new Map([['x', x]]) });
const unknown = (reason: string): Verdict => ({ status: 'unknown', reason });
const UNSAT: Verdict = { status: 'unsat' };

const INT = '(declare-const x Int)\n(assert (< x 3))';
const BV = '(declare-const x (_ BitVec 8))\n(assert (bvult x #x03))';

function race(verdicts: readonly Verdict[], order: readonly number[], headStartMs = 0, answering?: number): Promise<{ answer: Verdict; fakes: Fake[] }> {
  const fakes = verdicts.map((_, i) => fake(`m${i}`));
  const members: Member[] = fakes.map((f) => ({ name: f.solver.name, solver: f.solver, encoding: 'own' }));
  const answer = portfolio(members, headStartMs, headStartMs, answering).check(INT, 1_000);
  return (async () => {
    await settle();
    for (const i of order) {
      fakes[i]!.answer(verdicts[i]!);
      await settle();
    }
    return { answer: await answer, fakes };
  })();
}

function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) => Array.from({ length: n }, (_, at) => [...p.slice(0, at), n - 1, ...p.slice(at)]));
}

describe('portfolio', () => {
  // member verdicts without contradiction (sat and unsat together would be a solver bug), and the one answer each must give
  const cases: [string, Verdict[], Verdict][] = [
    ['unsat from any member', [unknown('r'), unknown('r'), UNSAT, unknown('r')], UNSAT],
    ['unknown from every member, the same reason once', [unknown('r'), unknown('r'), unknown('r'), unknown('r')], unknown('r')],
    ['unknown from every member, each reason named', [unknown('a'), unknown('b'), unknown('a'), unknown('c')], unknown('m0: a; m1: b; m2: a; m3: c')],
  ];

  it.each(cases)('gives the same answer in every order of arrival: %s', async (_name, verdicts, expected) => {
    for (const order of permutations(verdicts.length)) {
      const { answer } = await race(verdicts, order);
      expect(answer, `members answering in the order ${order.join(',')}`).toEqual(expected);
    }
  });

  it('says sat in every order of arrival, with the model of the first member to say it', async () => {
    const verdicts = [unknown('r'), sat(1n), sat(2n), unknown('r')];
    for (const order of permutations(verdicts.length)) {
      const { answer } = await race(verdicts, order);
      const first = order.find((i) => verdicts[i]!.status === 'sat')!;
      expect(answer, `members answering in the order ${order.join(',')}`).toEqual(verdicts[first]);
    }
  });

  it('takes the first sat at once, from any member, and stops the others', async () => {
    const fakes = [fake('a'), fake('b'), fake('c'), fake('d')];
    let answer: Verdict | null = null;
    void portfolio(fakes.map((f) => ({ name: f.solver.name, solver: f.solver, encoding: 'own' as const })), 0)
      .check(INT, 1_000)
      .then((v) => void (answer = v));
    await settle();
    fakes[2]!.answer(sat(3n));
    await settle();
    expect(answer).toEqual(sat(3n));
    expect(fakes.map((f) => f.aborted)).toEqual([true, true, false, true]);
  });

  it('takes the answer of the member a test names, whichever answers first, and the others\' once it says unknown', async () => {
    const verdicts = [sat(1n), sat(2n), sat(3n)];
    for (const answering of [0, 1, 2]) {
      for (const order of permutations(verdicts.length)) {
        const { answer } = await race(verdicts, order, 1e9, answering);
        expect(answer, `member ${answering} answering, in the order ${order.join(',')}`).toEqual(verdicts[answering]);
      }
    }
    const { answer, fakes } = await race([sat(1n), unknown('r'), sat(3n)], [1, 0], 1e9, 1);
    // started at once, though not first (the third waits for the head start); its unknown leaves the answer to the others
    expect(fakes.map((f) => f.given.length)).toEqual([1, 1, 0]);
    expect(answer).toEqual(sat(1n));
  });

  it('stops every other member once the answer is known', async () => {
    const { answer, fakes } = await race([unknown('r'), UNSAT, unknown('r')], [1]);
    expect(answer).toEqual(UNSAT);
    expect(fakes.map((f) => f.aborted)).toEqual([true, false, true]);
  });

  it('gives the first member a head start: the others start when it has not answered in time, or has said unknown', async () => {
    const fakes = [fake('a'), fake('b'), fake('c')];
    const p = portfolio(fakes.map((f) => ({ name: f.solver.name, solver: f.solver, encoding: 'own' as const })), 1e9);
    const decided = p.check(INT, 1_000);
    await settle();
    expect(fakes.map((f) => f.given.length)).toEqual([1, 0, 0]);
    fakes[0]!.answer(UNSAT);
    expect(await decided).toEqual(UNSAT);
    expect(fakes.map((f) => f.given.length)).toEqual([1, 0, 0]);

    const undecided = p.check(INT, 1_000);
    await settle();
    fakes[0]!.answer(unknown('r'));
    await settle();
    expect(fakes.map((f) => f.given.length)).toEqual([2, 1, 1]);
    fakes[2]!.answer(sat(4n));
    fakes[1]!.answer(unknown('r'));
    expect(await undecided).toEqual(sat(4n));
  });

  it('gives the first member a head start of its own on a nonlinear query', async () => {
    const fakes = [fake('a'), fake('b')];
    const p = portfolio(fakes.map((f) => ({ name: f.solver.name, solver: f.solver, encoding: 'own' as const })), 1e9, 0);
    const linear = p.check(INT, 1_000);
    await settle();
    expect(fakes.map((f) => f.given.length)).toEqual([1, 0]);
    fakes[0]!.answer(UNSAT);
    expect(await linear).toEqual(UNSAT);
    const nonlinear = p.check(INT, 1_000, { nonlinear: true });
    await settle();
    expect(fakes.map((f) => f.given.length)).toEqual([2, 1]);
    // the first sat decides, the second member's here
    fakes[1]!.answer(sat(2n));
    await settle();
    fakes[0]!.answer(sat(1n));
    expect(await nonlinear).toEqual(sat(2n));
  });

  it('gives each member its encoding, the bit-vector one printed only when such a member runs', async () => {
    const [own, bits] = [fake('own'), fake('bits')];
    const members: Member[] = [
      { name: 'own', solver: own.solver, encoding: 'own' },
      { name: 'bits', solver: bits.solver, encoding: 'bit-vectors' },
    ];
    const p = portfolio(members, 1e9);
    let printed = 0;
    const bitVectors = (): string => {
      printed++;
      return BV;
    };
    const decided = p.check(INT, 1_000, { bitVectors });
    await settle();
    own.answer(UNSAT);
    expect(await decided).toEqual(UNSAT);
    expect(printed).toBe(0);

    const raced = p.check(INT, 1_000, { bitVectors });
    await settle();
    own.answer(unknown('r'));
    await settle();
    expect([own.given, bits.given]).toEqual([[INT, INT], [BV]]);
    expect(printed).toBe(1);
    bits.answer(sat(2n));
    expect(await raced).toEqual(sat(2n));

    // a query without a bit-vector encoding (one already): the member sits it out
    const alone = p.check(BV, 1_000, { bitVectors: () => null });
    await settle();
    own.answer(unknown('r'));
    expect(await alone).toEqual(unknown('r'));
    expect(bits.given).toHaveLength(1);
  });

  it('counts a member that fails as unknown, and stops everything when the caller does', async () => {
    const broken: Solver = { name: 'broken', check: () => Promise.reject(new Error('cannot start')) };
    const other = fake('other');
    const p = portfolio([{ name: 'broken', solver: broken, encoding: 'own' }, { name: 'other', solver: other.solver, encoding: 'own' }], 1e9);
    const failed = p.check(INT, 1_000);
    await settle();
    other.answer(unknown('r'));
    expect(await failed).toEqual(unknown('broken: failed: cannot start; other: r'));

    const stop = new AbortController();
    const slow = fake('slow');
    const canceled = portfolio([{ name: 'slow', solver: slow.solver, encoding: 'own' }], 0).check(INT, 1_000, { signal: stop.signal });
    stop.abort();
    expect(await canceled).toEqual(CANCELED);
    expect(slow.aborted).toBe(true);
  });
});
