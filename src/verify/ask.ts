/**
 * One question to the back end: is this query, with some extra facts over
 * the variables the simplifier left, satisfiable? Every caller (race and
 * divergence queries, the loop checks of the phase split, the vacuity and
 * scope checks, the search for a small witness) asks it the same way: the
 * simplifier's answer, then a model found by evaluation
 * (src/encode/search.ts), then a solver's. A model is completed and checked
 * against the query as built, whoever found it, so a wrong model is an
 * internal error, never a witness. A solver's model is then made canonical
 * (src/verify/canonical.ts), the same whichever solver of a portfolio gave
 * it, unless the caller reads only the verdict.
 */
import { decidedUnsat, encodingWith, type Query } from '../encode/query.js';
import { searchedModel } from '../encode/search.js';
import { bitVectorEncoding, decodeModel, EncodingLimit, printScript, type Declaration, type Encoding } from '../encode/smtlib.js';
import type { Formula } from '../encode/term.js';
import type { Solver, Verdict } from '../solve/solver.js';
import { StageClock } from '../util/clock.js';
import type { VerifyStage } from './result.js';
import { completedModel, modelSatisfies } from './witness.js';
import { canonicalModel, narrowed } from './canonical.js';

export interface AskOptions {
  readonly solver: Solver;
  readonly timeoutMs: number;
  readonly clock?: StageClock<VerifyStage>;
  /**
   * What of a solver's model the caller reads, and so makes canonical:
   * `model`, all of it (a witness); `verdict`, none; or only these variables.
   */
  readonly reads?: 'model' | 'verdict' | readonly string[];
}

export interface Answer {
  readonly verdict: Verdict;
  /** whether a solver had to be asked (the simplifier or the search decided otherwise) */
  readonly bySolver: boolean;
  /** the questions asked to make a solver's model canonical, and how many of them a solver decided */
  readonly canonical: { readonly asked: number; readonly bySolver: number };
}

export async function ask(q: Query, extra: readonly Formula[], options: AskOptions): Promise<Answer> {
  const clock = options.clock ?? new StageClock();
  const { verdict, bySolver } = await decide(q, extra, { ...options, clock });
  const reads = options.reads ?? 'model';
  const canonical = { asked: 0, bySolver: 0 };
  if (verdict.status !== 'sat' || !bySolver || reads === 'verdict') return { verdict, bySolver, canonical };
  const model = await canonicalModel(
    q,
    extra,
    verdict.model,
    async (base, more) => {
      canonical.asked++;
      const bounded = clock.timed('encoding', () => narrowed(base, more));
      const answer = await decide(bounded, [], { ...options, clock });
      if (answer.bySolver) canonical.bySolver++;
      return answer.verdict.status === 'sat' ? answer.verdict.model : null;
    },
    reads === 'model' ? undefined : reads,
  );
  if (!modelSatisfies({ ...q, assertions: [...q.assertions, ...extra] }, model)) throw new Error(`internal error: the canonical model of ${q.id} does not satisfy the query`);
  return { verdict: { status: 'sat', model }, bySolver, canonical };
}

/** The verdict of the simplifier, the search or the solver, and a model as found. */
async function decide(q: Query, extra: readonly Formula[], { solver, timeoutMs, clock = new StageClock() }: AskOptions): Promise<Omit<Answer, 'canonical'>> {
  if (decidedUnsat(q)) return { verdict: { status: 'unsat' }, bySolver: false };
  const assertions = [...q.assertions, ...extra];
  const asBuilt: Query = { ...q, assertions };
  const searched = clock.timed('solving', () => searchedModel(q.declarations, assertions));
  if (searched !== null) {
    const model = completedModel(q, searched);
    if (!modelSatisfies(asBuilt, model)) throw new Error(`internal error: the model found by evaluation for ${q.id} does not satisfy the query as built (simplifier bug)`);
    return { verdict: { status: 'sat', model }, bySolver: false };
  }
  const encoding = encodingWith(q, extra);
  const script = clock.timed('encoding', () => printScript(q.declarations, assertions, encoding));
  const bitVectors = bitVectorsOf(q.declarations, assertions, encoding);
  const answer = await clock.timedAsync('solving', () => solver.check(script, timeoutMs, { bitVectors, nonlinear: encoding.logic === 'QF_NIA' }));
  if (answer.status !== 'sat') return { verdict: answer, bySolver: true };
  const model = completedModel(q, decodeModel(encoding, answer.model));
  if (!modelSatisfies(asBuilt, model)) throw new Error(`internal error: the solver's witness for ${q.id} does not satisfy the query (encoding bug)`);
  return { verdict: { ...answer, model }, bySolver: true };
}

/**
 * The question's bit-vector encoding, for an integer one (null for a
 * bit-vector query, or when the bit-vectors would be too wide): a portfolio
 * races it against the integer encoding.
 */
function bitVectorsOf(declarations: readonly Declaration[], assertions: readonly Formula[], encoding: Encoding): () => string | null {
  return () => {
    if (encoding.width !== null) return null;
    try {
      const alternative = bitVectorEncoding(declarations, assertions);
      // a signed encoding's model is read back by decodeModel, which knows only the query's own encoding
      return alternative.signed === true ? null : printScript(declarations, assertions, alternative);
    } catch (e) {
      if (e instanceof EncodingLimit) return null;
      throw e;
    }
  };
}
