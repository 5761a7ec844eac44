/**
 * The verify pipeline for one kernel: MAP inference, the divergence check of
 * every barrier, the phase split, one race query per phase, array and pair of
 * accesses (and per global array and pair across blocks), and classification
 * of every alarm.
 */
import type { Launch } from '../core/launch.js';
import { AXES } from '../core/ast.js';
import { bexprBuiltins, bexprVars } from '../core/exprs.js';
import { protoSome, type KernelMap, type SyncSite } from '../map/map.js';
import { assertNever } from '../util/assert.js';
import { codeOf, splitPhases, type PhaseSplit } from '../phases/split.js';
import type { Code } from '../phases/code.js';
import { containsErased, pointVars } from '../encode/paths.js';
import { assumptionsQuery, completionQuery, divergenceQuery, raceQueries as pairQueries, undefinednessQuery, violationQuery, decidedUnsat, type Query, type ThreadIds } from '../encode/query.js';
import { bitVectorEncoding, decodeModel, printScript, EncodingLimit, type Declaration, type Encoding } from '../encode/smtlib.js';
import type { Formula } from '../encode/term.js';
import type { Solver, Verdict } from '../solve/solver.js';
import { completedModel, dataDoubts, modelSatisfies, selectedPoints, shiftDoubts, valuation, witnessOf } from './witness.js';
import { statusOf, VERIFY_STAGES, type Divergence, type Doubt, type KernelResult, type Race, type Unknown, type VerifyStage, type Witness } from './result.js';
import { StageClock } from '../util/clock.js';

export interface VerifyOptions {
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly maxRaces: number;
  /** the caller picks it: the CLI, a worker process or the browser each start their own */
  readonly solver: Solver;
}

export { DEFAULT_TIMEOUT_MS } from '../solve/solver.js';

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

/** Rounds of the vacuity check, each naming one more thread that may fail an assumption. */
const VACUITY_ROUNDS = 3;

/** The race queries of a kernel, as `faial-ts smt` prints them and `verify` asks them. */
export function raceQueries(map: KernelMap, split: PhaseSplit, launch: Launch): { query: Query; erased: Doubt[] }[] {
  const out: { query: Query; erased: Doubt[] }[] = [];
  for (const phase of split.phases) {
    const erased: Doubt[] = containsErased(phase.code).map((e) => ({ kind: 'approximated-loop', span: e.span }));
    for (const array of map.arrays) {
      const queries = pairQueries({ map, vars: split.vars, launch, code: phase.code, array: array.name, level: 'block', phase: phase.id });
      out.push(...queries.map((query) => ({ query, erased })));
    }
  }
  if (!hasManyBlocks(map, launch)) return out;
  const whole = codeOf(map.body, 'erase');
  for (const array of map.arrays.filter((a) => a.scope === 'global')) {
    out.push(...pairQueries({ map, vars: map.vars, launch, code: whole, array: array.name, level: 'grid', phase: null }).map((query) => ({ query, erased: [] })));
  }
  return out;
}

/** Threads of different blocks exist only when some grid dimension may exceed 1. */
function hasManyBlocks(map: KernelMap, launch: Launch): boolean {
  if (launch.gridDim) return launch.gridDim.some((d) => d > 1n);
  return ['x', 'y', 'z'].some((a) => map.symbolicDims.has(`gridDim.${a as 'x'}`));
}

export function divergenceQueries(map: KernelMap, launch: Launch): Query[] {
  const code = codeOf(map.body, 'mark');
  return map.syncs.flatMap((sync: SyncSite) => {
    const q = divergenceQuery({ map, launch, code, sync });
    return q ? [q] : [];
  });
}

/**
 * The phase split, with the solver deciding which loops meet a barrier in
 * every iteration (those are aligned exactly; the others approximated).
 */
export async function phasesOf(
  map: KernelMap,
  launch: Launch,
  timeoutMs: number,
  solver: Solver,
  clock: StageClock<VerifyStage> = new StageClock(),
): Promise<PhaseSplit> {
  const vars = new Map(map.vars);
  return clock.timedAsync('phases', () =>
    splitPhases(map, async (loop, noSync, around) => {
      const code: Code = around({ kind: 'bind', var: loop.var, relation: { kind: 'member' }, range: loop.range, body: noSync });
      const q = clock.timed('encoding', () => completionQuery(map, vars, launch, code));
      const script = clock.timed('encoding', () => printScript(q.declarations, q.assertions, q.encoding));
      const bitVectors = bitVectorsOf(q.declarations, q.assertions, q.encoding);
      const verdict = await clock.timedAsync('solving', () => solver.check(script, timeoutMs, { bitVectors }));
      return verdict.status === 'unsat';
    }),
  );
}

/** Whether the kernel has an assumption, or a precondition (requires, launch clause) that could contradict the command line. */
export function hasAssumptions(map: KernelMap): boolean {
  return map.preconditions.length > 0 || protoSome(map.body, (p) => p.kind === 'assume');
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
function witnessLaunch(map: KernelMap, w: Witness): Launch {
  return { params: new Map(map.params.map((p) => [p, w.parameters.get(p) ?? 0n])), blockDim: [...w.blockDim], gridDim: [...w.gridDim] };
}

export async function verifyKernel(map: KernelMap, options: VerifyOptions): Promise<KernelResult> {
  const clock = new StageClock<VerifyStage>();
  let queries = 0;
  const races: Race[] = [];
  const divergences: Divergence[] = [];
  const unknowns: Unknown[] = [];

  /** A query's verdict: the simplifier's, or a solver's with its model completed and re-checked. */
  const ask = async (q: Query): Promise<Verdict> => {
    queries++;
    if (decidedUnsat(q)) return { status: 'unsat' };
    const script = clock.timed('encoding', () => printScript(q.declarations, q.assertions, q.encoding));
    const bitVectors = bitVectorsOf(q.declarations, q.assertions, q.encoding);
    const answer = await clock.timedAsync('solving', () => options.solver.check(script, options.timeoutMs, { bitVectors }));
    const verdict = answer.status === 'sat' ? { ...answer, model: completedModel(q, decodeModel(q.encoding, answer.model)) } : answer;
    if (verdict.status === 'sat' && !modelSatisfies(q, verdict.model)) {
      throw new Error(`internal error: the solver's witness for ${q.id} does not satisfy the query (encoding bug)`);
    }
    return verdict;
  };

  let vacuous = false;
  const assumedAlike = assumptionsAlike(map);
  /** Why the witness's launch may be infeasible: none when no thread there can fail an assumption. */
  const feasibilityDoubts = async (witness: Witness): Promise<Doubt[]> => {
    const v = clock.timed('encoding', () => violationQuery(map, witnessLaunch(map, witness)));
    if (v === null) return [];
    const q = v.query;
    const verdict = await ask(q);
    switch (verdict.status) {
      case 'unsat':
        return [];
      case 'unknown':
        return [{ kind: 'assumption', span: null, thread: null, query: q.id }];
      case 'sat': {
        const value = valuation(verdict.model);
        const id = (kind: 'threadIdx' | 'blockIdx'): bigint[] => AXES.map((a) => value(`t1.${kind}.${a}`));
        return [{ kind: 'assumption', span: v.failedAt(value), thread: { threadIdx: id('threadIdx'), blockIdx: id('blockIdx') }, query: q.id }];
      }
      default:
        return assertNever(verdict);
    }
  };

  /**
   * Whether no launch satisfies the kernel's assumptions. The first and the
   * last thread of a launch satisfying them is necessary; when the launch
   * found has another thread that may fail one, that thread is added to the
   * question, for a few rounds.
   */
  const contradictory = async (barriers: 'pass' | 'may-stop'): Promise<boolean> => {
    const others: ThreadIds[] = [];
    for (let round = 0; round < VACUITY_ROUNDS; round++) {
      const q = clock.timed('encoding', () => assumptionsQuery(map, options.launch, barriers, others));
      const verdict = await ask(q);
      if (verdict.status === 'unsat') return true;
      if (verdict.status === 'unknown') {
        unknowns.push({ query: q.id, reason: verdict.reason });
        return false;
      }
      if (assumedAlike) return false;
      const [doubt] = await feasibilityDoubts(witnessOf(q, verdict.model, [null, null]));
      if (doubt?.kind !== 'assumption' || doubt.thread === null) return false;
      others.push(doubt.thread);
    }
    return false;
  };

  /**
   * An alarm with no other doubt is confirmed only if its threads cannot
   * evaluate an undefined operation where its query does not look (earlier
   * phases, earlier loop iterations, loops before it).
   */
  const definedness = async (witness: Witness): Promise<Doubt[]> => {
    const u = clock.timed('encoding', () => undefinednessQuery(map, options.launch, codeOf(map.body, 'erase'), witness));
    if (u === null) return [];
    const verdict = await ask(u.query);
    if (verdict.status === 'unsat') return [];
    const site = verdict.status === 'sat' ? u.siteOf(valuation(verdict.model)) : null;
    return [{ kind: 'undefined-elsewhere', span: site?.span ?? null }];
  };

  const run = async (): Promise<{ phases: number; arrays: number }> => {
    // a race is real only at a launch where the block meets its barriers
    // together: a barrier that may split the block leaves every race in doubt
    const undecided: Doubt[] = [];
    for (const q of clock.timed('encoding', () => divergenceQueries(map, options.launch))) {
      const verdict = await ask(q);
      if (verdict.status === 'unknown') {
        unknowns.push({ query: q.id, reason: verdict.reason });
        undecided.push({ kind: 'divergence-unknown', sync: q.sync!, query: q.id });
      }
      if (verdict.status !== 'sat') continue;
      const point = q.points.find((p) => p.point.target.kind === 'mark') ?? null;
      const witness = witnessOf(q, verdict.model, [point, point]);
      const found = [...(point ? dataDoubts(map.vars, pointVars(point.point)) : []), ...shiftDoubts(q, verdict.model)];
      const doubts = found.length === 0 ? await definedness(witness) : found;
      // the block stops at the barrier, but other blocks run on: any assumption may exclude the launch
      if (doubts.length === 0) doubts.push(...(await feasibilityDoubts(witness)));
      divergences.push({ sync: q.sync!, confidence: doubts.length === 0 ? 'confirmed' : 'possible', doubts, witness });
    }
    if (divergences.length > 0) return { phases: 0, arrays: 0 };
    // with no launch allowed, every race query would be unsat: a proof of nothing
    if (hasAssumptions(map) && (await contradictory(undecided.length === 0 ? 'pass' : 'may-stop'))) {
      vacuous = true;
      return { phases: 0, arrays: 0 };
    }

    const split = await phasesOf(map, options.launch, options.timeoutMs, options.solver, clock);
    // a pair that races is reported once per level, in the first phase that shows it
    const reported = new Set<string>();
    const all = clock.timed('encoding', () => raceQueries(map, split, options.launch));
    for (const { query: q, erased } of all) {
      if (races.length >= options.maxRaces) break;
      const [x, y] = q.accesses!;
      const pair = `${q.level}:${Math.min(x, y)}:${Math.max(x, y)}`;
      if (reported.has(pair)) continue;
      const verdict = await ask(q);
      if (verdict.status === 'unknown') unknowns.push({ query: q.id, reason: verdict.reason });
      if (verdict.status !== 'sat') continue;
      const [p1, p2] = selectedPoints(q, verdict.model);
      if (p1.point.target.kind !== 'access' || p2.point.target.kind !== 'access') throw new Error('race witness without accesses');
      const a1 = p1.point.target.access;
      const a2 = p2.point.target.access;
      const witness = witnessOf(q, verdict.model, [p1, p2]);
      const found = [...dataDoubts(split.vars, [...pointVars(p1.point), ...pointVars(p2.point)]), ...erased, ...shiftDoubts(q, verdict.model), ...undecided];
      const doubts = found.length === 0 ? await definedness(witness) : found;
      // the query speaks of two threads; a third may fail an assumption and exclude the launch
      if (doubts.length === 0 && !assumedAlike) doubts.push(...(await feasibilityDoubts(witness)));
      races.push({
        array: q.array!,
        kind: a1.mode === 'write' && a2.mode === 'write' ? 'write-write' : 'read-write',
        level: q.level,
        phase: q.phase,
        confidence: doubts.length === 0 ? 'confirmed' : 'possible',
        doubts,
        accesses: [
          { id: a1.id, mode: a1.mode, span: a1.span },
          { id: a2.id, mode: a2.mode, span: a2.span },
        ],
        index: Array.from({ length: p1.element[0].length }, (_, d) => verdict.model.get(`t1.index.${d}`) ?? 0n),
        witness,
      });
      reported.add(pair);
    }
    return { phases: split.phases.length, arrays: new Set(all.map((x) => x.query.array)).size };
  };

  let counts = { phases: 0, arrays: 0 };
  const errors: KernelResult['errors'] = [];
  try {
    // what no inner stage claims is making witnesses and classifying alarms
    counts = await clock.timedAsync('witnesses', run);
  } catch (e) {
    if (!(e instanceof EncodingLimit)) throw e;
    unknowns.push({ query: map.name, reason: e.message });
  }
  const base = { divergences, races, unknowns, errors, vacuous };
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
    ...(map.approximations.length > 0 ? { approximations: map.approximations } : {}),
    stats: {
      ...counts,
      accesses: map.accesses.length,
      queries,
      milliseconds: VERIFY_STAGES.reduce((sum, s) => sum + stages[s], 0),
      stages,
    },
  };
}
