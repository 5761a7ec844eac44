/**
 * A portfolio: several solvers (its members) race on one query, each with
 * the whole budget; the first decisive answer wins and the others are
 * stopped. Members are independent strategies (z3-wasm configurations, the
 * query's bit-vector encoding, other solvers), whose run times on hard
 * nonlinear queries differ by orders of magnitude.
 *
 * The first decisive answer wins, whichever member gives it: unsat as soon
 * as any member says unsat, sat as soon as any says sat; unknown when every
 * member said unknown (a member's unknown never overrides another's
 * answer). A member's verdict depends only on the query and its resource
 * limit, so whether the answer is decisive does not depend on which member
 * is fastest; the model of a sat answer does, and callers that read one make
 * it canonical (src/verify/canonical.ts: the least model of the question,
 * found by asking it again with bounds), so that a witness is the same on
 * every machine. Members still running once the answer is known are stopped.
 *
 * The first member starts at once and the others when it has not answered
 * within a head start (or has said unknown), so that an easy query costs one
 * solver; a nonlinear query gets a shorter one, as its hard cases are where
 * the members differ most. This changes how long a check takes, never its
 * verdict: the first member always runs, and the others, once started, run
 * until the answer is known.
 */
import type { CheckOptions, Solver, Verdict } from './solver.js';
import { assertNever } from '../util/assert.js';
import { CANCELED } from './budget.js';

export interface Member {
  /** as reports name it */
  readonly name: string;
  readonly solver: Solver;
  /**
   * What the member is given: 'own', the query as it is; 'bit-vectors', the
   * bit-vector encoding of an integer query (the member sits out the
   * queries that are bit-vector queries already).
   */
  readonly encoding: 'own' | 'bit-vectors';
}

/** Answered: a verdict, or null for a member that sat out this query. */
type Answer = Verdict | null;

/** What a member is given for this query, or null when it sits the query out. */
function givenText(encoding: Member['encoding'], script: string, bitVectors: () => string | null): string | null {
  switch (encoding) {
    case 'own':
      return script;
    case 'bit-vectors':
      return bitVectors();
    default:
      return assertNever(encoding);
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * The answer once it is known from the members' answers so far (undefined:
 * not yet): the first decisive one, which `decide` sees alone as it is
 * called at every answer. With `answering` (a test's), only that member's
 * answer decides while it has not said unknown.
 */
function decision(answers: readonly (Answer | undefined)[], names: readonly string[], answering: number | undefined): Verdict | undefined {
  const decisive = (a: Answer | undefined): boolean => a?.status === 'sat' || a?.status === 'unsat';
  const forced = answering === undefined ? undefined : answers[answering];
  if (answering !== undefined && (forced === undefined || decisive(forced))) return forced ?? undefined;
  const first = answers.find(decisive);
  if (first) return first;
  if (answers.some((a) => a === undefined)) return undefined;
  const said = answers.flatMap((a, i) => (a?.status === 'unknown' ? [{ name: names[i]!, reason: a.reason }] : []));
  const reasons = [...new Set(said.map((s) => s.reason))];
  // the same reason from every member (the usual: each ran out of the same units) is said once
  return { status: 'unknown', reason: reasons.length === 1 ? reasons[0]! : said.map((s) => `${s.name}: ${s.reason}`).join('; ') };
}

/**
 * A portfolio of the members, in order, named after them; the others start
 * after the head start (on a nonlinear query, its own). `answering`, a test
 * seam: the index of the member whose answer is taken, whatever the others'
 * speed (it starts at once; the others' answers count only once it has said
 * unknown), so that a test can make each member in turn the one that answers.
 */
export function portfolio(members: readonly Member[], headStartMs: number, nonlinearHeadStartMs = headStartMs, answering?: number): Solver {
  const names = members.map((m) => m.name);
  const name = `portfolio (${names.join(', ')})`;
  return {
    name,
    check(script: string, timeoutMs: number, options?: CheckOptions): Promise<Verdict> {
      return new Promise((resolve) => {
        const answers: (Answer | undefined)[] = members.map(() => undefined);
        const stops = members.map(() => new AbortController());
        const started = members.map(() => false);
        let printed: string | null | undefined;
        const bitVectors = (): string | null => (printed ??= options?.bitVectors?.() ?? null);
        let settled = false;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const finish = (verdict: Verdict): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          options?.signal?.removeEventListener('abort', cancel);
          stops.forEach((s, i) => {
            if (answers[i] === undefined) s.abort();
          });
          resolve(verdict);
        };
        const cancel = (): void => finish(CANCELED);
        const decide = (): void => {
          if (settled) return;
          const verdict = decision(answers, names, answering);
          if (verdict !== undefined) finish(verdict);
        };
        const start = (i: number): void => {
          if (started[i] || settled) return;
          started[i] = true;
          const member = members[i]!;
          const text = givenText(member.encoding, script, bitVectors);
          if (text === null) {
            answers[i] = null;
            if (i === 0) startRest();
            return;
          }
          member.solver.check(text, timeoutMs, { signal: stops[i]!.signal }).then(
            (v) => {
              answers[i] = v;
              // the first member's unknown ends its head start at once
              if (i === 0 && v.status === 'unknown') startRest();
              decide();
            },
            (e: unknown) => {
              answers[i] = { status: 'unknown', reason: `failed: ${messageOf(e)}` };
              if (i === 0) startRest();
              decide();
            },
          );
        };
        const startRest = (): void => {
          clearTimeout(timer);
          for (let i = 1; i < members.length; i++) start(i);
          decide();
        };
        if (options?.signal?.aborted) return finish(CANCELED);
        options?.signal?.addEventListener('abort', cancel);
        if (members.length > 1) timer = setTimeout(startRest, options?.nonlinear === true ? nonlinearHeadStartMs : headStartMs);
        start(0);
        if (answering !== undefined) start(answering);
      });
    },
  };
}
