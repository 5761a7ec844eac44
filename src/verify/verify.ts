/**
 * The verify pipeline for one kernel: MAP inference, the divergence check of
 * every barrier, the phase split, one race query per phase and array (per
 * global array across blocks; with `syncwarp`, per warp phase and array too)
 * and, where it is not unsat, one per pair of accesses, and classification
 * of every alarm.
 */
import type { Launch } from '../core/launch.js';
import { AXES, type Expr } from '../core/ast.js';
import { bexprBuiltins, bexprVars, exprVars } from '../core/exprs.js';
import { hasSyncwarp, isDataDependent, protoSome, type Access, type KernelMap } from '../map/map.js';
import { assertNever } from '../util/assert.js';
import { codeOf, splitPhases, warpLevel, type PhaseSplit } from '../phases/split.js';
import type { Code } from '../phases/code.js';
import { containsErased, pointVars } from '../encode/paths.js';
import {
  assumptionsQuery,
  completionQuery,
  decidedUnsat,
  divergenceQueriesOf,
  evaluationsOf,
  scopeQuery,
  valuesDifferQuery,
  type Query,
  type RaceLevel,
  type RaceQuerySpec,
  type ThreadAt,
} from '../encode/query.js';
import { EncodingLimit } from '../encode/smtlib.js';
import { raceGroup, type RaceGroup, type RacePair } from '../encode/grouped.js';
import type { Formula } from '../encode/term.js';
import type { Solver, Verdict } from '../solve/solver.js';
import { dataDoubts, selectedPoints, shiftDoubts, valuation, witnessOf } from './witness.js';
import { raceKind, statusOf, VERIFY_STAGES, type AccessSite, type Divergence, type Doubt, type KernelResult, type Race, type UndefinedOperations, type Unknown, type VerifyStage, type Witness } from './result.js';
import { isSmallWitness, smallModel, type ModelOf } from './shrink.js';
import { ask as askBackEnd } from './ask.js';
import { raceShownByRun, type LaunchRuns } from './witness-run.js';
import { StageClock } from '../util/clock.js';
import { threadsNamed, vacuityUndecided } from './vacuity.js';
import { inputOperation } from './inputs.js';
import { undefinedOperations } from './undefined.js';
import { launchAssumptions, unusedDimensionsAssumption } from '../core/scope.js';

export interface VerifyOptions {
  readonly launch: Launch;
  readonly timeoutMs: number;
  /** the search stops once this many races are listed, one of them not benign; benign races past it are not listed */
  readonly maxRaces: number;
  /** the caller picks it: the CLI, a worker process or the browser each start their own */
  readonly solver: Solver;
}

export { DEFAULT_TIMEOUT_MS } from '../solve/solver.js';

/** Rounds of the vacuity check, each adding the thread found leaving the scope at the launch the round before found. */
const VACUITY_ROUNDS = 4;

/** The race groups of a kernel (src/encode/grouped.ts): per phase and array, per warp phase and array, per global array across blocks. */
export function raceGroups(map: KernelMap, split: PhaseSplit, launch: Launch): { group: RaceGroup; erased: Doubt[] }[] {
  const out: { group: RaceGroup; erased: Doubt[] }[] = [];
  const phased = (s: Pick<PhaseSplit, 'phases' | 'vars'>, level: 'block' | 'warp'): void => {
    for (const phase of s.phases) {
      const erased: Doubt[] = containsErased(phase.code).map((e) => ({ kind: 'approximated-loop', span: e.span }));
      for (const array of map.arrays) out.push({ group: raceGroup({ map, vars: s.vars, launch, code: phase.code, array: array.name, level, phase: phase.id }), erased });
    }
  };
  phased(split, 'block');
  if (split.warp !== undefined) phased(split.warp, 'warp');
  if (!hasManyBlocks(map, launch)) return out;
  const whole = codeOf(map.body, 'erase');
  for (const array of map.arrays.filter((a) => a.scope === 'global')) {
    out.push({ group: raceGroup({ map, vars: map.vars, launch, code: whole, array: array.name, level: 'grid', phase: null }), erased: [] });
  }
  return out;
}

/** The race queries of a kernel, one per pair of accesses, in the order `verify` asks them where its groups' questions are sat. */
export function raceQueries(map: KernelMap, split: PhaseSplit, launch: Launch): { query: Query; erased: Doubt[]; spec: RaceQuerySpec }[] {
  return raceGroups(map, split, launch).flatMap(({ group, erased }) => group.pairs.map((p) => ({ query: group.pairQuery(p), erased, spec: group.spec })));
}

function accessSite(a: Access): AccessSite {
  return { id: a.id, mode: a.mode, span: a.span, ...(a.op === undefined ? {} : { op: a.op }) };
}

/** Threads of different blocks exist only when some grid dimension may exceed 1. */
function hasManyBlocks(map: KernelMap, launch: Launch): boolean {
  if (launch.gridDim) return launch.gridDim.some((d) => d > 1n);
  return ['x', 'y', 'z'].some((a) => map.symbolicDims.has(`gridDim.${a as 'x'}`));
}

export function divergenceQueries(map: KernelMap, launch: Launch): Query[] {
  return divergenceQueriesOf(map, launch, codeOf(map.body, 'mark'), map.syncs);
}

/**
 * The phase split, with the solver deciding which loops meet a barrier in
 * every iteration (those are aligned exactly; the others approximated); with
 * `syncwarp` and independent threads, the warp-level split too (in
 * lockstep a warp is ordered already, and `syncwarp` only checked for
 * divergence).
 */
export async function phasesOf(
  map: KernelMap,
  launch: Launch,
  timeoutMs: number,
  solver: Solver,
  clock: StageClock<VerifyStage> = new StageClock(),
  /** told each loop check, in the order asked (`smt` prints them) */
  onCheck: (q: Query) => void = () => undefined,
): Promise<PhaseSplit> {
  const split = (m: KernelMap): Promise<PhaseSplit> => {
    const vars = new Map(m.vars);
    return clock.timedAsync('phases', () =>
      splitPhases(m, async (loop, noSync, around) => {
        const code: Code = around({ kind: 'bind', var: loop.var, relation: { kind: 'member' }, range: loop.range, body: noSync });
        const q = clock.timed('encoding', () => completionQuery(m, vars, launch, code));
        onCheck(q);
        const { verdict } = await askBackEnd(q, [], { solver, timeoutMs, clock, reads: 'verdict' });
        return verdict.status === 'unsat';
      }),
    );
  };
  const block = await split(map);
  if (!hasSyncwarp(map.body) || launch.warpSize !== undefined) return block;
  return { ...block, warp: await split(warpLevel(map)) };
}

/** Whether the kernel has an assumption, or a precondition (requires, launch clause) that could contradict the command line. */
function hasAssumptions(map: KernelMap): boolean {
  return map.preconditions.length > 0 || protoSome(map.body, (p) => p.kind === 'assume');
}

/** Whether the kernel has an operation that may be undefined (a machine integer's). */
function mayBeUndefined(map: KernelMap): boolean {
  return evaluationsOf(codeOf(map.body, 'erase')).length > 0;
}

/**
 * Whether some launch may be outside the scope: the kernel has an
 * assumption, a precondition, or an operation that may be undefined. Only
 * then is the vacuity check asked (its script is printed by `smt`).
 */
export function hasScopeConditions(map: KernelMap): boolean {
  return hasAssumptions(map) || mayBeUndefined(map);
}

/**
 * Whether every assumption holds alike for every thread that a race query
 * does not name: each is a statement of the kernel body's top level, which
 * every thread reaches (no loop before it that might not end), over
 * parameters and sizes only. Then the two threads of a query satisfying
 * them is every thread satisfying them.
 */
function assumptionsAlike(map: KernelMap): boolean {
  const items = map.body.kind === 'seq' ? map.body.items : [map.body];
  let loopBefore = false;
  for (const item of items) {
    if (item.kind === 'assume') {
      const builtins = bexprBuiltins(item.cond);
      const threadFree = [...builtins].every((b) => b.startsWith('blockDim.') || b.startsWith('gridDim.'));
      if (loopBefore || !threadFree || [...bexprVars(item.cond)].some((v) => map.vars.get(v)?.kind !== 'param')) return false;
    } else if (protoSome(item, (p) => p.kind === 'assume')) {
      return false;
    }
    loopBefore ||= protoSome(item, (p) => p.kind === 'loop');
  }
  return true;
}

/** The launch of a witness, every parameter fixed (those it leaves free are 0, as replay runs them). */
/** The struct field an element's last index component picks, where the array's elements are structs. */
function fieldAt(map: KernelMap, array: string, index: readonly bigint[]): { field?: string } {
  const fields = map.source.arrays.find((a) => a.name.text === array)?.fields;
  const leaf = index.at(-1);
  const field = fields === undefined || leaf === undefined || index.length < 2 ? undefined : fields[Number(leaf)];
  return field === undefined ? {} : { field };
}

function witnessLaunch(map: KernelMap, w: Witness): Launch {
  return { params: new Map(map.params.map((p) => [p, w.parameters.get(p) ?? 0n])), blockDim: [...w.blockDim], gridDim: [...w.gridDim] };
}

export async function verifyKernel(map: KernelMap, options: VerifyOptions): Promise<KernelResult> {
  const clock = new StageClock<VerifyStage>();
  let queries = 0;
  let withoutSolver = 0;
  const races: Race[] = [];
  const divergences: Divergence[] = [];
  const unknowns: Unknown[] = [];

  /**
   * A query's verdict, with `extra` assertions over the variables the
   * simplifier left: the simplifier's, a model found by evaluation
   * (src/encode/search.ts), or a solver's; a model is completed and
   * re-checked against the query as built, whoever found it, and a
   * solver's made canonical unless only the verdict is read (the questions
   * that takes are counted with the others).
   */
  const ask = async (q: Query, extra: readonly Formula[], reads: 'model' | 'verdict' = 'model'): Promise<Verdict> => {
    const { verdict, bySolver, canonical } = await askBackEnd(q, extra, { solver: options.solver, timeoutMs: options.timeoutMs, clock, reads });
    queries += 1 + canonical.asked;
    withoutSolver += (bySolver ? 0 : 1) + canonical.asked - canonical.bySolver;
    return verdict;
  };

  let vacuous = false;
  /** an operation on the input alone: its thread's data-dependent behaviour, which decides neither an alarm nor the scope (src/verify/inputs.ts) */
  const onInput = inputOperation(map);
  const onData = (e: Expr): boolean => [...exprVars(e)].some((v) => isDataDependent(map.vars.get(v)));
  const decides = (exprs: readonly Expr[]): boolean => exprs.some((e) => onData(e) && !onInput(e));
  /** every thread of a launch satisfying the race queries' assumptions is in scope (a race query's two threads speak for all) */
  const inScopeAlike = assumptionsAlike(map) && !mayBeUndefined(map);
  /**
   * Why the witness's launch may be outside the scope (docs/machine-integers.md, "The scope of
   * a proof"): a thread of it may fail an assumption or evaluate an undefined
   * operation. None when the launch is proved in scope.
   */
  const scopeDoubts = async (launch: Launch, assumptionsOnData: 'may-fail' | 'hold' = 'may-fail'): Promise<Doubt[]> => {
    // the vacuity check takes what a thread does with values read as possible for some contents of memory
    const s = clock.timed('encoding', () => scopeQuery(map, launch, assumptionsOnData, assumptionsOnData === 'hold' ? onData : onInput));
    if (s === null) return [];
    const q = s.query;
    const verdict = await ask(q, []);
    switch (verdict.status) {
      case 'unsat':
        return [];
      case 'unknown':
        return [{ kind: 'scope-unknown', query: q.id }];
      case 'sat': {
        const value = valuation(verdict.model);
        const id = (kind: 'threadIdx' | 'blockIdx'): bigint[] => AXES.map((a) => value(`t1.${kind}.${a}`));
        const thread = { threadIdx: id('threadIdx'), blockIdx: id('blockIdx') };
        const exit = s.exitOf(value);
        return [exit?.kind === 'assumption' ? { kind: 'assumption', span: exit.span, thread, query: q.id } : { kind: 'undefined-operation', span: exit?.span ?? null, thread, query: q.id }];
      }
      default:
        return assertNever(verdict);
    }
  };
  /** Models of a query with more assertions, as `ask` checks them. */
  const modelsOf =
    (q: Query): ModelOf =>
    async (more) => {
      const verdict = await ask(q, more);
      return verdict.status === 'sat' ? verdict.model : null;
    };

  /**
   * An alarm's doubts, and the witness it is reported with. With no other
   * doubt, it is confirmed only when its witness's launch is in scope; when
   * it may not be and the launch is large, the solver may have picked sizes
   * where some other thread overflows, so the same alarm is asked for again
   * at small sizes, and confirmed at such a launch if that one is in scope.
   */
  const classify = async <A extends { readonly doubts: readonly Doubt[]; readonly witness: Witness }>(alarm: A, alike: boolean, smaller: () => Promise<A | null>): Promise<A> => {
    if (alarm.doubts.length > 0 || alike) return alarm;
    const doubts = await scopeDoubts(witnessLaunch(map, alarm.witness));
    if (doubts.length === 0) return alarm;
    if (!isSmallWitness(alarm.witness)) {
      const small = await smaller();
      if (small !== null && small.doubts.length === 0 && (await scopeDoubts(witnessLaunch(map, small.witness))).length === 0) return small;
    }
    return { ...alarm, doubts };
  };

  /**
   * A possible race, confirmed where a run of its (small) witness shows it
   * (src/verify/witness-run.ts): when every doubt is one a concrete run
   * decides (values read from memory, the scope at the witness's launch)
   * and the kernel uses no value it does not determine.
   */
  const runs: LaunchRuns = new Map();
  const confirmedByRun = async (race: Race, smaller: () => Promise<Race | null>): Promise<Race> => {
    if (race.doubts.length === 0 || !race.doubts.every(runDecides)) return race;
    // the solver's launch first (a smaller one may not reach the race with the values the run reads), if the interpreter can run it
    const shown = raceShownByRun(map, race, options.launch.warpSize, runs);
    if (shown !== null) return { ...race, ...shown, confirmedBy: 'run' };
    if (isSmallWitness(race.witness)) return race;
    const small = await smaller();
    const shownSmall = small === null ? null : raceShownByRun(map, small, options.launch.warpSize, runs);
    return small === null || shownSmall === null ? race : { ...small, ...shownSmall, confirmedBy: 'run' };
  };

  /**
   * Whether no launch is in scope: the vacuity check asks for a launch whose
   * first and last thread satisfy what they surely must (and the threads
   * found so far, if the launch has them); none is a proof that no launch is
   * in scope. A launch found is in scope when the scope check finds no
   * thread of it leaving the scope; otherwise that thread is added to the
   * question, named by numbers and by the parameters and sizes it is near
   * (src/verify/vacuity.ts), for a few rounds. Undecided after them, or at a
   * solver's unknown, the kernel is not proved: an unknown, never DRF.
   */
  const vacuity = async (barriers: 'pass' | 'may-stop'): Promise<'vacuous' | 'in-scope' | 'undecided'> => {
    const others: ThreadAt[] = [];
    let last: Doubt | undefined;
    for (let round = 0; round < VACUITY_ROUNDS; round++) {
      const q = clock.timed('encoding', () => assumptionsQuery(map, options.launch, barriers, others));
      const verdict = await ask(q, []);
      if (verdict.status === 'unsat') return 'vacuous';
      if (verdict.status === 'unknown') {
        unknowns.push({ query: q.id, reason: verdict.reason });
        return 'undecided';
      }
      if (inScopeAlike) return 'in-scope';
      let launch = witnessLaunch(map, witnessOf(q, verdict.model, [null, null]));
      let [doubt] = await scopeDoubts(launch, 'hold');
      // as for an alarm's witness: a huge launch may overflow where a small one of the same question does not
      const small = doubt === undefined || isSmallWitness(witnessOf(q, verdict.model, [null, null])) ? null : await smallModel(q, modelsOf(q), valuation(verdict.model));
      if (small !== null) {
        launch = witnessLaunch(map, witnessOf(q, small, [null, null]));
        [doubt] = await scopeDoubts(launch, 'hold');
      }
      if (doubt === undefined) return 'in-scope';
      last = doubt;
      if (doubt.kind !== 'assumption' && doubt.kind !== 'undefined-operation') break;
      others.push(...threadsNamed(doubt.thread, { params: launch.params, blockDim: launch.blockDim!, gridDim: launch.gridDim! }));
    }
    unknowns.push({ query: `${map.name}/assumptions`, reason: vacuityUndecided(VACUITY_ROUNDS, last) });
    return 'undecided';
  };

  const run = async (): Promise<{ phases: number; arrays: number }> => {
    // a race is real only at a launch where the block meets its barriers
    // together: a barrier that may split the block leaves every race in doubt
    const undecided: Doubt[] = [];
    for (const q of clock.timed('encoding', () => divergenceQueries(map, options.launch))) {
      const verdict = await ask(q, []);
      if (verdict.status === 'unknown') {
        unknowns.push({ query: q.id, reason: verdict.reason });
        undecided.push({ kind: 'divergence-unknown', sync: q.sync!, query: q.id });
      }
      if (verdict.status !== 'sat') continue;
      const point = q.points.find((p) => p.point.target.kind === 'mark') ?? null;
      const divergenceAt = (model: ReadonlyMap<string, bigint>): { doubts: Doubt[]; witness: Witness } => ({
        doubts: [...(point ? dataDoubts(map.vars, pointVars(point.point, decides)) : []), ...shiftDoubts(q, model)],
        witness: witnessOf(q, model, [point, point]),
      });
      // the block stops at the barrier, but other blocks run on: any assumption may exclude the launch, alike or not
      const { doubts, witness } = await classify(divergenceAt(verdict.model), false, async () => {
        const small = await smallModel(q, modelsOf(q), valuation(verdict.model));
        return small === null ? null : divergenceAt(small);
      });
      divergences.push({ sync: q.sync!, confidence: doubts.length === 0 ? 'confirmed' : 'possible', doubts, witness });
    }
    if (divergences.length > 0) return { phases: 0, arrays: 0 };
    // with no launch allowed, every race query would be unsat: a proof of nothing
    if (hasScopeConditions(map) && (await vacuity(undecided.length === 0 ? 'pass' : 'may-stop')) === 'vacuous') {
      vacuous = true;
      return { phases: 0, arrays: 0 };
    }

    const split = await phasesOf(map, options.launch, options.timeoutMs, options.solver, clock);
    // a pair that races is reported once within blocks (threads of one warp or not) and once across them, in the first phase that
    // shows it, unless it was benign there: a later phase (another iteration of a loop with barriers) may race with different values
    const reported = new Map<string, { readonly benign: boolean; readonly race: Race | null }>();
    const groups = clock.timed('encoding', () => raceGroups(map, split, options.launch));
    /**
     * A write-write race is benign when the two writes' values are known (no
     * value read or unknown in them) and provably equal wherever the pair
     * races: the query for a race of the pair with different values is unsat.
     */
    const benign = async (spec: RaceQuerySpec, accesses: readonly [number, number]): Promise<boolean> => {
      const q = clock.timed('encoding', () => valuesDifferQuery(spec, accesses));
      return q !== null && (await ask(q, [], 'verdict')).status === 'unsat';
    };
    /** A pair's key in `reported`: within blocks (threads of one warp or not) or across them. */
    const pairKey = (level: RaceLevel, { first, second }: RacePair): string => {
      const [x, y] = [first.access.id, second.access.id];
      return `${level === 'grid' ? 'grid' : 'block'}:${Math.min(x, y)}:${Math.max(x, y)}`;
    };
    /** Asks a pair's race query, and reports its race; the verdict's status. */
    const askPair = async (group: RaceGroup, pair: RacePair, erased: readonly Doubt[]): Promise<Verdict['status']> => {
      const spec = group.spec;
      const q = clock.timed('encoding', () => group.pairQuery(pair));
      const verdict = await ask(q, []);
      if (verdict.status === 'unknown') unknowns.push({ query: q.id, reason: verdict.reason });
      if (verdict.status !== 'sat') return verdict.status;
      const raceAt = (model: ReadonlyMap<string, bigint>): Race => {
        const [m1, m2] = selectedPoints(q, model);
        if (m1.point.target.kind !== 'access' || m2.point.target.kind !== 'access') throw new Error('race witness without accesses');
        const b1 = m1.point.target.access;
        const b2 = m2.point.target.access;
        const doubts = [...dataDoubts(split.vars, [...pointVars(m1.point, decides), ...pointVars(m2.point, decides)]), ...erased, ...shiftDoubts(q, model), ...undecided];
        const index = Array.from({ length: m1.element[0].length }, (_, d) => model.get(`t1.index.${d}`) ?? 0n);
        return {
          array: q.array!,
          kind: raceKind(b1.mode, b2.mode),
          level: q.level,
          phase: q.phase,
          confidence: 'possible',
          doubts,
          accesses: [accessSite(b1), accessSite(b2)],
          index,
          ...fieldAt(map, q.array!, index),
          witness: witnessOf(q, model, [m1, m2]),
        };
      };
      const smaller = async (): Promise<Race | null> => {
        const small = await smallModel(q, modelsOf(q), valuation(verdict.model));
        return small === null ? null : raceAt(small);
      };
      // the query speaks of two threads; another may leave the scope (fail an assumption, overflow) and exclude the launch
      const race = await confirmedByRun(await classify(raceAt(verdict.model), inScopeAlike, smaller), smaller);
      const isBenign = await benign(spec, q.accesses!);
      const key = pairKey(spec.level, pair);
      const earlier = reported.get(key);
      if (earlier !== undefined && isBenign) return 'sat';
      // the pair's benign race of an earlier phase is not what the pair is: this race takes its place
      if (earlier?.race != null) races.splice(races.indexOf(earlier.race), 1);
      // a benign race past the cap is not listed (the verdict needs only the races that are not benign)
      const listed = !isBenign || races.length < options.maxRaces ? { ...race, confidence: race.doubts.length === 0 || race.confirmedBy === 'run' ? ('confirmed' as const) : ('possible' as const), ...(isBenign ? { benign: true as const } : {}) } : null;
      if (listed !== null) races.push(listed);
      reported.set(key, { benign: isBenign, race: listed });
      return 'sat';
    };
    // Benign races alone never end the search: a pair not yet asked may race with different values and make the kernel racy, not benign.
    const enoughRaces = (): boolean => races.length >= options.maxRaces && races.some((r) => r.benign !== true);
    /**
     * The group's question of every pair at once (src/encode/grouped.ts),
     * asked of the simplifier before its pairs: unsat, none of them races.
     * No solver is given it: a solver may take its whole budget on a
     * disjunction of many pairs (a grid-stride loop's products) where each
     * pair alone is quick, and a sat answer would still leave every pair to
     * ask. Not asked where the pairs left to ask (those not reported racy in
     * an earlier phase) are of fewer than two classes: the question would
     * then save no query.
     */
    const questionUnsat = (group: RaceGroup): boolean => {
      const left = new Set(group.pairs.flatMap((pair, i) => (reported.get(pairKey(group.spec.level, pair))?.benign === false ? [] : [group.classOf[i]!])));
      if (left.size < 2) return false;
      const q = clock.timed('encoding', group.question);
      if (q === null) return false;
      queries++;
      withoutSolver++;
      return decidedUnsat(q);
    };
    for (const { group, erased } of groups) {
      if (enoughRaces()) break;
      if (questionUnsat(group)) continue;
      // the pairs found unsat, by position: the other pairs of their classes are unsat too (src/encode/grouped.ts)
      const unsat = new Set<number>();
      for (const [i, pair] of group.pairs.entries()) {
        if (enoughRaces()) break;
        if (reported.get(pairKey(group.spec.level, pair))?.benign === false || unsat.has(group.classOf[i]!)) continue;
        if ((await askPair(group, pair, erased)) === 'unsat') unsat.add(i);
      }
    }
    return { phases: split.phases.length, arrays: new Set(groups.filter((g) => g.group.pairs.length > 0).map((g) => g.group.spec.array)).size };
  };

  let counts = { phases: 0, arrays: 0 };
  const errors: KernelResult['errors'] = [];
  let undefinedFound: UndefinedOperations | null = null;
  try {
    // what no inner stage claims is making witnesses and classifying alarms
    counts = await clock.timedAsync('witnesses', run);
    // the verdict's scope leaves them out; the report names those some launch may reach (a kernel without any asks nothing),
    // from a canonical model, so that the report is the same whichever solver answers; an operation on values read is
    // undefined for some contents of memory at every launch (a sum's overflow): the contents decide it, not the launch
    undefinedFound = await clock.timedAsync('witnesses', () =>
      undefinedOperations(map, options.launch, onData, async (q) => ask(q, []), (build) => clock.timed('encoding', build)),
    );
  } catch (e) {
    if (!(e instanceof EncodingLimit)) throw e;
    unknowns.push({ query: map.name, reason: e.message });
  }
  const base = { divergences, races, unknowns, errors, vacuous };
  const unused = map.source.hostLaunched === true ? unusedDimensionsAssumption(map.symbolicDims, options.launch) : null;
  const assumed = [...launchAssumptions(map.preconditions), ...(unused === null ? [] : [unused])];
  const stages: Record<VerifyStage, number> = {
    phases: clock.milliseconds('phases'),
    encoding: clock.milliseconds('encoding'),
    solving: clock.milliseconds('solving'),
    witnesses: clock.milliseconds('witnesses'),
  };
  return {
    file: map.file,
    kernel: map.name,
    span: map.span,
    status: statusOf(base),
    wellTyped: map.violations.length === 0,
    violations: map.violations,
    ...base,
    ...(map.machineIntegers ? { machineIntegers: true } : {}),
    ...(undefinedFound === null ? {} : { undefinedOperations: undefinedFound }),
    ...(assumed.length > 0 ? { launchAssumptions: assumed } : {}),
    ...(map.source.stated === undefined ? {} : { assumptions: map.source.stated }),
    ...(options.launch.warpSize === undefined ? {} : { warpSize: options.launch.warpSize }),
    ...(map.approximations.length > 0 ? { approximations: map.approximations } : {}),
    stats: {
      ...counts,
      accesses: map.accesses.length,
      queries,
      withoutSolver,
      milliseconds: VERIFY_STAGES.reduce((sum, s) => sum + stages[s], 0),
      stages,
    },
  };
}

/** Whether a concrete run decides the doubt: a value read from memory (the run reads zero), or whether the witness's launch is in scope (the run checks every thread). */
function runDecides(d: Doubt): boolean {
  switch (d.kind) {
    case 'data':
    case 'assumption':
    case 'undefined-operation':
    case 'scope-unknown':
      return true;
    case 'unknown':
    case 'approximated-loop':
    case 'large-shift':
    case 'divergence-unknown':
      return false;
    default:
      return assertNever(d);
  }
}
