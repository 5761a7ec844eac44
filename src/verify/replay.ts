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
import { located, positionAt, type Span } from '../core/source.js';
import type { KernelMap } from '../map/map.js';
import { runKernel, type Finished, type RunOptions } from '../semantics/interpret.js';
import { vec3 } from '../semantics/values.js';
import type { Query } from '../encode/query.js';
import type { Valuation } from '../encode/evaluate.js';
import type { Solver } from '../solve/solver.js';
import { assertNever } from '../util/assert.js';
import type { Divergence, KernelResult, Race, ReplayRecord, Witness } from './result.js';
import { divergenceQueries, phasesOf, raceQueries } from './verify.js';
import { selectedPoints, witnessOf } from './witness.js';
import { ask } from './ask.js';
import { isSmallWitness, smallModel, type ModelOf } from './shrink.js';

export type ReplayVerdict =
  /** the interpreter saw the alarm */
  | { readonly kind: 'replayed' }
  /** the interpreter ran the witness and did not see the alarm: a bug */
  | { readonly kind: 'mismatch'; readonly message: string }
  /** the witness could not be run (too large, a limit of the interpreter) */
  | { readonly kind: 'unrunnable'; readonly message: string };

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
  if (isSmallWitness(race.witness)) return { verdict: reported(), minimised: null };
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

/** What running a witness showed; an infeasible or undefined launch is a mismatch only for a witness the verifier proved in scope. */
type Seen = ReplayVerdict | { readonly kind: 'infeasible'; readonly message: string } | { readonly kind: 'undefined'; readonly message: string };

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

function launchText(w: Witness): string {
  const params = [...w.parameters].map(([k, v]) => `${k} = ${v}, `).join('');
  return `${params}blockDim = (${w.blockDim.join(', ')}), gridDim = (${w.gridDim.join(', ')})`;
}

/**
 * Launches a replay runs: a grid of 64 blocks of 1024 threads, which a kernel
 * whose launch is fixed (a GPUVerify test header) may need when no smaller
 * witness exists, and the statements such a grid executes. The run keeps
 * every access in its history, and what each element accessed in a phase
 * held (some 500 bytes per access in all): the accesses are
 * bounded too, well inside Node's heap, or a witness whose loop runs 2^30
 * times (a parameter an assumption fixes) fills the heap before its steps
 * run out.
 */
const REPLAY_MAX_THREADS = 1 << 16;
const REPLAY_MAX_STEPS = 20_000_000;
const REPLAY_MAX_ACCESSES = 2_000_000;

/** The interpreter's run of a witness's launch; parameters the witness leaves free are 0. */
function runWitness(map: KernelMap, w: Witness, warpSize: number | undefined, racesOn?: RunOptions['racesOn']): Finished | Seen {
  const params = Object.fromEntries(map.params.map((p) => [p, w.parameters.get(p) ?? 0n]));
  const result = runKernel(
    map.source,
    { params, blockDim: vec3(w.blockDim), gridDim: vec3(w.gridDim) },
    { maxThreads: REPLAY_MAX_THREADS, maxSteps: REPLAY_MAX_STEPS, maxAccesses: REPLAY_MAX_ACCESSES, ...(warpSize === undefined ? {} : { warpSize }), ...(racesOn === undefined ? {} : { racesOn }) },
  );
  switch (result.kind) {
    case 'finished':
      return result;
    case 'limit':
      return { kind: 'unrunnable', message: `the interpreter stopped: ${result.message}` };
    case 'infeasible':
      return { kind: 'infeasible', message: `with ${launchText(w)}, ${result.message} (${place(map, result.span)})` };
    case 'undefined':
      return { kind: 'undefined', message: `with ${launchText(w)}, undefined behaviour (${result.message}) at ${place(map, result.span)}` };
    case 'error':
      return { kind: 'mismatch', message: `the interpreter cannot run the witness: ${result.message}` };
    default:
      return assertNever(result);
  }
}

function place(map: KernelMap, span: Span): string {
  const where = located(map.file, span);
  const at = positionAt(where.file, where.span.start);
  return `${at.line}:${at.column}`;
}

/** Whether the run shows the race: both threads at the reported sites on the element, in one phase of their block or in two blocks. */
function raceSeen(map: KernelMap, w: Witness, index: readonly bigint[], race: Race, warpSize: number | undefined): Seen {
  const run = runWitness(map, w, warpSize, { array: race.array, index });
  if (!('blocks' in run)) return run;
  const phasesOf = (t: 0 | 1): Set<number> => {
    const thread = w.threads[t];
    const site = race.accesses[t];
    const block = run.blocks.find((b) => sameVec(b.block, thread.blockIdx));
    const phases = new Set<number>();
    for (const p of block?.phases ?? []) {
      const own = p.threads.find((x) => sameVec(x.thread, thread.threadIdx));
      const hit = own?.accesses.some(
        (a) => a.kind === site.mode && a.array === race.array && a.span.start === site.span.start && a.span.end === site.span.end && sameVec(a.index, index),
      );
      if (hit === true) phases.add(p.index);
    }
    return phases;
  };
  const first = phasesOf(0);
  const second = phasesOf(1);
  const element = `${race.array}[${index.join('][')}]`;
  if (first.size === 0 || second.size === 0) {
    const who = first.size === 0 ? 'thread 1' : 'thread 2';
    return { kind: 'mismatch', message: `with ${launchText(w)}, ${who} of the witness never makes its reported access to ${element}` };
  }
  if (race.level !== 'grid' && ![...first].some((p) => second.has(p))) {
    return { kind: 'mismatch', message: `with ${launchText(w)}, the two threads access ${element} in different barrier phases (${[...first].join(', ')} and ${[...second].join(', ')})` };
  }
  // lockstep, or one warp's syncwarps: one phase is not enough, the run must find the two sites racing there
  const ordered = race.level === 'warp' ? 'each warp ordered by its syncwarps' : race.level === 'block' && warpSize !== undefined ? `warps of ${warpSize} threads in lockstep` : null;
  if (ordered !== null && !run.races.some((r) => r.array === race.array && sameVec(r.index, index) && sameSites([r.first.span, r.second.span], race))) {
    return { kind: 'mismatch', message: `with ${launchText(w)} and ${ordered}, the interpreter finds no race between these accesses to ${element}` };
  }
  return { kind: 'replayed' };
}

function sameSites(spans: readonly [Span, Span], race: Race): boolean {
  const at = (s: Span, i: 0 | 1): boolean => s.start === race.accesses[i].span.start && s.end === race.accesses[i].span.end;
  return (at(spans[0], 0) && at(spans[1], 1)) || (at(spans[0], 1) && at(spans[1], 0));
}

function divergenceSeen(map: KernelMap, w: Witness, warpSize: number | undefined): Seen {
  const run = runWitness(map, w, warpSize);
  if (!('blocks' in run)) return run;
  const block = w.threads[0].blockIdx;
  return run.divergences.some((d) => sameVec(d.block, block))
    ? { kind: 'replayed' }
    : { kind: 'mismatch', message: `with ${launchText(w)}, block (${block.join(', ')}) of the witness meets its barriers without divergence` };
}

/** Equal as vectors, where missing trailing components are 0 (ids) — both sides have the same length in practice. */
function sameVec(a: readonly bigint[], b: readonly bigint[]): boolean {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) if ((a[i] ?? 0n) !== (b[i] ?? 0n)) return false;
  return true;
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
