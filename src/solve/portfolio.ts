/**
 * A portfolio: several solvers (its members) race on one query, each with
 * the whole budget; the first decisive answer wins and the others are
 * stopped. Members are independent strategies (z3-wasm configurations, the
 * query's bit-vector encoding, other solvers), whose run times on hard
 * nonlinear queries differ by orders of magnitude.
 *
 * The answer does not depend on which member is fastest. A member's verdict
 * depends only on the query and its resource limit, and the rule reads
 * verdicts, not times:
 * - unsat as soon as any member says unsat;
 * - sat from the first member, in the members' fixed order, that says sat,
 *   once every member before it has answered: the witness is always the
 *   same member's model, whichever finished first;
 * - unknown when every member said unknown. A member's unknown never
 *   overrides another's answer.
 * Members that can no longer change the answer are stopped: all of them at
 * the end, and after a sat the members behind it.
 *
 * The first member starts at once and the others when it has not answered
 * within a head start (or has said unknown), so that an easy query costs one
 * solver; a nonlinear query gets a shorter one, as its hard cases are where
 * the members differ most. This changes how long a check takes, never its
 * verdict or witness: the first member always runs, and the others, once
 * started, run until the answer is known. Sat from one member and unsat from another would be a
 * solver bug: the check is then unknown, naming both.
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

/** The answer once it is known from the members' answers so far (undefined: not yet), and the members that can no longer change it. */
function decision(answers: readonly (Answer | undefined)[], names: readonly string[]): { readonly verdict: Verdict | undefined; readonly hopeless: readonly number[] } {
  const unsat = answers.findIndex((a) => a?.status === 'unsat');
  const sat = answers.findIndex((a) => a?.status === 'sat');
  if (unsat >= 0 && sat >= 0) {
    return { verdict: { status: 'unknown', reason: `the solvers disagree: ${names[sat]} says sat, ${names[unsat]} says unsat` }, hopeless: [] };
  }
  if (unsat >= 0) return { verdict: answers[unsat]!, hopeless: [] };
  if (sat >= 0) {
    const behind = answers.map((_, i) => i).filter((i) => i > sat);
    return { verdict: answers.slice(0, sat).every((a) => a !== undefined) ? answers[sat]! : undefined, hopeless: behind };
  }
  if (answers.some((a) => a === undefined)) return { verdict: undefined, hopeless: [] };
  const said = answers.flatMap((a, i) => (a?.status === 'unknown' ? [{ name: names[i]!, reason: a.reason }] : []));
  const reasons = [...new Set(said.map((s) => s.reason))];
  // the same reason from every member (the usual: each ran out of the same units) is said once
  return { verdict: { status: 'unknown', reason: reasons.length === 1 ? reasons[0]! : said.map((s) => `${s.name}: ${s.reason}`).join('; ') }, hopeless: [] };
}

/** A portfolio of the members, in order, named after them; the others start after the head start (on a nonlinear query, its own). */
export function portfolio(members: readonly Member[], headStartMs: number, nonlinearHeadStartMs = headStartMs): Solver {
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
          const { verdict, hopeless } = decision(answers, names);
          for (const i of hopeless) stops[i]!.abort();
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
      });
    },
  };
}
