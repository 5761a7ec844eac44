/**
 * Witness replay: a confirmed alarm claims that a concrete launch makes two
 * threads race (or diverge). The reference interpreter runs that launch and
 * must see the same thing: both threads at the reported access sites, on the
 * reported element, in one barrier phase of one block (block level; within
 * one warp phase too, warp level) or in two blocks (grid level); or, for a
 * divergence, the block disagreeing at a barrier. An alarm that does not replay is a bug of the verifier.
 *
 * Solver witnesses often pick huge sizes (blockDim.x = 2^31) that no
 * interpreter can run, although the race needs only a few threads; such a
 * witness is first made small by asking the solver again under tightening
 * bounds on the launch, and the small one is replayed; when there is none
 * (a launch clause that fixes 1,024 threads, say), the original is.
 */
import type { Launch } from '../core/launch.js';
import type { KernelMap } from '../map/map.js';
import type { Query } from '../encode/query.js';
import type { Valuation } from '../encode/evaluate.js';
import type { Solver } from '../solve/solver.js';
import type { Divergence, KernelResult, Race, ReplayRecord, Witness } from './result.js';
import { divergenceQueries, phasesOf, raceQueries } from './verify.js';
import { selectedPoints, witnessOf } from './witness.js';
import { ask } from './ask.js';
import { isSmallWitness, smallModel, type ModelOf } from './shrink.js';
import { divergenceSeen, raceSeen, type ReplayVerdict, type Seen } from './witness-run.js';

export type { ReplayVerdict } from './witness-run.js';

export interface Replay {
  readonly verdict: ReplayVerdict;
  /** the small witness that was replayed instead of the reported one, with its element */
  readonly minimised: { readonly witness: Witness; readonly index: readonly bigint[] } | null;
}

export interface ReplayOptions {
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly solver: Solver;
}

export async function replayRace(map: KernelMap, race: Race, options: ReplayOptions): Promise<Replay> {
  const reported = (): ReplayVerdict => asReported(raceSeen(map, race.witness, race.index, race, options.launch.warpSize));
  // a race confirmed by a run is its witness's run: a smaller launch need not show it with the values that one reads
  if (isSmallWitness(race.witness) || race.confirmedBy === 'run') return { verdict: reported(), minimised: null };
  const queries = raceQueries(map, await phasesOf(map, options.launch, options.timeoutMs, options.solver), options.launch).map((r) => r.query);
  const ids = new Set(race.accesses.map((a) => a.id));
  // the alarm's own pair query
  const q = queries.find((x) => x.level === race.level && x.phase === race.phase && x.array === race.array && x.accesses?.every((a) => ids.has(a)) && new Set(x.accesses).size === ids.size);
  if (q === undefined) return { verdict: { kind: 'mismatch', message: 'no race query matches the alarm' }, minimised: null };
  const model = await smallModel(q, modelsOf(q, options), sizesOf(q, race.witness));
  if (model === null) return { verdict: unshrunk(reported(), NOT_FOUND), minimised: null };
  const points = selectedPoints(q, model);
  const witness = witnessOf(q, model, points);
  const index = race.index.map((_, d) => model.get(`t1.index.${d}`) ?? 0n);
  const selected = points.map((p) => (p.point.target.kind === 'access' ? p.point.target.access.id : -1));
  // the query may name the two threads the other way round
  const accesses: Race['accesses'] = selected[0] === race.accesses[0].id ? race.accesses : [race.accesses[1], race.accesses[0]];
  const seen = raceSeen(map, witness, index, { ...race, accesses }, options.launch.warpSize);
  if (seen.kind === 'infeasible' || seen.kind === 'undefined') return { verdict: unshrunk(reported(), `${INFEASIBLE}: ${seen.message}`), minimised: null };
  return { verdict: seen, minimised: { witness, index } };
}

export async function replayDivergence(map: KernelMap, d: Divergence, options: ReplayOptions): Promise<Replay> {
  const reported = (): ReplayVerdict => asReported(divergenceSeen(map, d.witness, options.launch.warpSize));
  if (isSmallWitness(d.witness)) return { verdict: reported(), minimised: null };
  const q = divergenceQueries(map, options.launch).find((x) => x.sync?.id === d.sync.id);
  if (q === undefined) return { verdict: { kind: 'mismatch', message: 'no divergence query matches the alarm' }, minimised: null };
  const model = await smallModel(q, modelsOf(q, options), sizesOf(q, d.witness));
  if (model === null) return { verdict: unshrunk(reported(), NOT_FOUND), minimised: null };
  const point = q.points.find((p) => p.point.target.kind === 'mark') ?? null;
  const witness = witnessOf(q, model, [point, point]);
  const seen = divergenceSeen(map, witness, options.launch.warpSize);
  if (seen.kind === 'infeasible' || seen.kind === 'undefined') return { verdict: unshrunk(reported(), `${INFEASIBLE}: ${seen.message}`), minimised: null };
  return { verdict: seen, minimised: { witness, index: [] } };
}

const NOT_FOUND = 'the solver found no smaller witness in time';
/** the solver's small launch satisfies the assumptions of the two threads it names, and is free of undefined operations in them, not necessarily in every thread: the verifier proved only the reported launch in scope */
const INFEASIBLE = 'the smaller witness found is not a feasible launch inside the scope';

/**
 * The verdict of the original witness, run because no smaller one could be
 * used (a launch clause may fix 1,024 threads, which the interpreter runs
 * easily); if the interpreter cannot run it either, both reasons are said.
 */
function unshrunk(verdict: ReplayVerdict, why: string): ReplayVerdict {
  return verdict.kind === 'unrunnable' ? { kind: 'unrunnable', message: `${why}, and ${verdict.message}` } : verdict;
}

/** The verdict on a witness that `verify` reported: its launch was proved in scope, so a run that leaves it contradicts the verifier. */
function asReported(seen: Seen): ReplayVerdict {
  if (seen.kind === 'infeasible') return { kind: 'mismatch', message: `the witness's launch is infeasible: ${seen.message}` };
  if (seen.kind === 'undefined') return { kind: 'mismatch', message: `the witness's launch is outside the scope: ${seen.message}` };
  return seen;
}

/** The witness's sizes and parameters, by the query's names for them. */
function sizesOf(q: Query, w: Witness): Valuation {
  return (name) => {
    const role = q.roles.get(name);
    if (role?.role === 'param') return w.parameters.get(role.source) ?? 0n;
    if (role?.role !== 'dim') return 0n;
    const [kind, axis] = role.source.split('.');
    const i = ['x', 'y', 'z'].indexOf(axis ?? '');
    return (kind === 'blockDim' ? w.blockDim : w.gridDim)[i] ?? 1n;
  };
}

/** Models of the query with `more` asserted, each checked against the query (src/verify/ask.ts). */
function modelsOf(q: Query, { solver, timeoutMs }: ReplayOptions): ModelOf {
  return async (more) => {
    const { verdict } = await ask(q, more, { solver, timeoutMs });
    return verdict.status === 'sat' ? verdict.model : null;
  };
}

/** The record of a replay: a witness that could not be run did not replay either, but is not a bug. */
export function replayRecord(r: Replay): ReplayRecord {
  const note = r.verdict.kind === 'replayed' ? null : r.verdict.message;
  return { replayed: r.verdict.kind === 'replayed', note, minimised: r.minimised };
}

/** The kernel's result with every confirmed alarm replayed, and the alarms that did not replay although they ran (bugs). */
export async function replayAlarms(map: KernelMap, result: KernelResult, options: ReplayOptions): Promise<{ result: KernelResult; failures: string[] }> {
  const failures: string[] = [];
  /** the alarms, each confirmed one with its replay; sequential, as the solver serves one check at a time */
  const replayed = async <A extends Race | Divergence>(alarms: readonly A[], what: (a: A) => string, replay: (a: A) => Promise<Replay>): Promise<A[]> => {
    const out: A[] = [];
    for (const alarm of alarms) {
      if (alarm.confidence !== 'confirmed') {
        out.push(alarm);
        continue;
      }
      const r = await replay(alarm);
      if (r.verdict.kind === 'mismatch') failures.push(`${map.name}: the confirmed ${what(alarm)} does not replay: ${r.verdict.message}`);
      out.push({ ...alarm, replay: replayRecord(r) });
    }
    return out;
  };
  const races = await replayed(result.races, (race) => `race on ${race.array}[${race.index.join('][')}]`, (race) => replayRace(map, race, options));
  const divergences = await replayed(result.divergences, () => 'barrier divergence', (d) => replayDivergence(map, d, options));
  return { result: { ...result, races, divergences }, failures };
}
