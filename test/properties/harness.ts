/**
 * The differential properties, as functions of one generated kernel that
 * throw with the kernel's source when they fail. The property tests run them
 * on a fixed seed set; scripts/fuzz.ts runs them on long campaigns.
 *
 * Every launch of the small enumeration is run by the interpreter; the
 * verifier is asked only with the launch fixed (parameters, blockDim and
 * gridDim), which keeps its queries small.
 *
 * A subject may come with a warp size (the generators draw one for some
 * kernels): then every launch runs the interpreter's lockstep scheduler with
 * it and gives it to the verifier (`--warp-size N`), so each property holds
 * of the lockstep semantics as well as of independent threads.
 */
import type { Launch } from '../../src/core/launch.js';
import type { Kernel } from '../../src/core/ast.js';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { inferMap } from '../../src/map/infer.js';
import type { KernelMap } from '../../src/map/map.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { runKernel, type Finished, type RunResult } from '../../src/semantics/interpret.js';
import { evalMap, interpreterReads, interpreterUnknowns, type MapPhase } from '../../src/semantics/map-eval.js';
import { typeMin } from '../../src/core/arith.js';
import type { Vec3 } from '../../src/semantics/values.js';
import { verifyKernel } from '../../src/verify/verify.js';
import type { KernelResult } from '../../src/verify/result.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { z3Wasm } from '../../src/solve/z3.js';

export const SOLVER_TIMEOUT_MS = 4000;

export interface Loaded {
  readonly kernel: Kernel;
  readonly map: KernelMap;
  /** the subject's warp size: its launches run warps of this many threads in lockstep; null: independent threads */
  readonly warpSize: number | null;
}

/** What a property reports about a kernel that fails it: its source, and the warp size it was checked with. */
export interface Subject {
  readonly source: string;
  readonly warpSize?: number | null;
}

export function load(g: Subject): Loaded {
  const program = parseProgram('generated.bcu', g.source);
  const errors = wellFormednessErrors(program);
  if (errors.length > 0) fail(g, `the generator made an ill-formed kernel: ${errors.map((e) => e.message).join('; ')}`);
  const kernel = program.kernels[0]!;
  return { kernel, map: inferMap(program.file, kernel), warpSize: g.warpSize ?? null };
}

export function fail(g: Subject, message: string): never {
  const mode = g.warpSize === undefined || g.warpSize === null ? '' : ` (checked with --warp-size ${g.warpSize})`;
  throw new Error(`${message}\n--- kernel${mode} ---\n${g.source}`);
}

export interface ConcreteLaunch {
  readonly params: Readonly<Record<string, bigint>>;
  readonly blockDim: Vec3;
  readonly gridDim: Vec3;
  /** warps of this many threads in lockstep; absent: independent threads */
  readonly warpSize?: number;
}

const BLOCK_DIMS: readonly Vec3[] = [[1n, 1n, 1n], [2n, 1n, 1n], [3n, 1n, 1n], [4n, 1n, 1n], [2n, 2n, 1n]];
const GRID_DIMS: readonly Vec3[] = [[1n, 1n, 1n], [2n, 1n, 1n]];
const PARAM_VALUES: readonly bigint[] = [0n, 1n, 2n, 3n];

/** A typed parameter's values: small ones, and negative ones where the type has them (its edges come from constants). */
export function paramValues(p: Kernel['params'][number]): readonly bigint[] {
  if (p.type === undefined) return PARAM_VALUES;
  return [-2n, -1n, 0n, 1n, 3n].filter((v) => v >= typeMin(p.type!));
}

/**
 * Every launch of the enumeration: blockDim.x 1–4 (and 2×2), gridDim 1–2,
 * parameters 0–3 (signed ones: also −2 and −1); with the warp size, if any.
 */
export function launches(kernel: Kernel, warpSize: number | null = null): ConcreteLaunch[] {
  let params: Record<string, bigint>[] = [{}];
  for (const p of kernel.params) params = params.flatMap((ps) => paramValues(p).map((v) => ({ ...ps, [p.text]: v })));
  const warp = warpSize === null ? {} : { warpSize };
  return params.flatMap((ps) => GRID_DIMS.flatMap((gridDim) => BLOCK_DIMS.map((blockDim) => ({ params: ps, blockDim, gridDim, ...warp }))));
}

export function interpret(kernel: Kernel, launch: ConcreteLaunch): RunResult {
  return runKernel(kernel, launch, { maxSteps: 200_000, maxReports: 50, ...(launch.warpSize === undefined ? {} : { warpSize: launch.warpSize }) });
}

export function fixed(launch: ConcreteLaunch): Launch {
  return { params: new Map(Object.entries(launch.params)), blockDim: [...launch.blockDim], gridDim: [...launch.gridDim], ...(launch.warpSize === undefined ? {} : { warpSize: launch.warpSize }) };
}

/** The launch as options of `faial-ts verify` and `run`, so that a failure can be reproduced from its message. */
function launchText(l: ConcreteLaunch): string {
  const ps = Object.entries(l.params).map(([k, v]) => `-p ${k}=${v} `);
  return `\`${ps.join('')}--block-dim ${l.blockDim.join(',')} --grid-dim ${l.gridDim.join(',')}${l.warpSize === undefined ? '' : ` --warp-size ${l.warpSize}`}\``;
}

// ---------------------------------------------------------------------------
// P1: Theorem 1, executable

function phaseKeys(p: MapPhase): string[] {
  return p.accesses.map((a) => `t${a.thread.join(',')} ${a.mode} ${a.array}[${a.index?.join('][') ?? '?'}] @${a.span.start}`).sort();
}

function interpreterKeys(run: Finished, block: number, phase: number): string[] {
  const p = run.blocks[block]!.phases[phase]!;
  return p.threads.flatMap((t) => t.accesses.map((a) => `t${t.thread.join(',')} ${a.kind} ${a.array}[${a.index.join('][')}] @${a.span.start}`)).sort();
}

/**
 * For every launch the interpreter completes without divergence, the MAP
 * evaluator gives the same accesses in every phase of every block: without
 * help for a well-typed kernel, with the values the interpreter read (and
 * the unknown values it drew) for an ill-typed one. Returns how many
 * launches were compared.
 */
export function checkTheorem1(g: Subject, loaded: Loaded = load(g)): number {
  const { kernel, map } = loaded;
  const wellTyped = map.violations.length === 0;
  let compared = 0;
  for (const launch of launches(kernel, loaded.warpSize)) {
    const run = interpret(kernel, launch);
    if (run.kind !== 'finished' || run.divergences.length > 0) continue;
    const evaluated = evalMap(map, launch, wellTyped ? {} : { reads: interpreterReads(run), unknowns: interpreterUnknowns(run) });
    if (evaluated.kind !== 'evaluated') fail(g, `at ${launchText(launch)} the interpreter finishes but the MAP evaluator stops: ${evaluated.kind}`);
    for (const [b, block] of evaluated.blocks.entries()) {
      if (block.misaligned) fail(g, `at ${launchText(launch)} block ${b}: the MAP's barriers are misaligned, the interpreter saw no divergence`);
      const runPhases = run.blocks[b]!.phases.length;
      if (block.phases.length !== runPhases) fail(g, `at ${launchText(launch)} block ${b}: ${block.phases.length} MAP phases, ${runPhases} interpreter phases`);
      for (const phase of block.phases) {
        if (phase.dependsOnData) fail(g, `at ${launchText(launch)} block ${b} phase ${phase.index} depends on data although the reads were given`);
        const want = interpreterKeys(run, b, phase.index);
        const got = phaseKeys(phase);
        if (want.join('\n') !== got.join('\n')) {
          fail(g, `at ${launchText(launch)} block ${b} phase ${phase.index}:\ninterpreter:\n  ${want.join('\n  ')}\nMAP:\n  ${got.join('\n  ')}`);
        }
      }
    }
    compared++;
  }
  return compared;
}

// ---------------------------------------------------------------------------
// P2 and P4: the verifier against the interpreter, launch by launch

export interface Finding {
  readonly launch: ConcreteLaunch;
  readonly run: Finished;
}

export interface Interesting {
  /** the first launch where the interpreter sees a race or a divergence */
  readonly bad: Finding | null;
  /** the first launch of several threads where it sees neither */
  readonly good: Finding | null;
  /** the first launch outside the scope: some thread fails an assumption or evaluates an undefined operation */
  readonly outOfScope: ConcreteLaunch | null;
}

/** The enumerated launches the differential checks ask the verifier about. */
export function interestingLaunches(loaded: Loaded): Interesting {
  let bad: Finding | null = null;
  let good: Finding | null = null;
  let outOfScope: ConcreteLaunch | null = null;
  for (const launch of launches(loaded.kernel, loaded.warpSize)) {
    const run = interpret(loaded.kernel, launch);
    if ((run.kind === 'infeasible' || run.kind === 'undefined') && outOfScope === null) outOfScope = launch;
    if (run.kind !== 'finished') continue;
    const alarm = run.races.length > 0 || run.divergences.length > 0;
    if (alarm && bad === null) bad = { launch, run };
    if (!alarm && good === null && launch.blockDim[0] > 1n) good = { launch, run };
    if (bad !== null && good !== null && outOfScope !== null) break;
  }
  return { bad, good, outOfScope };
}

export async function verifyAt(loaded: Loaded, launch: ConcreteLaunch, timeoutMs = SOLVER_TIMEOUT_MS): Promise<KernelResult> {
  return verifyKernel(loaded.map, { launch: fixed(launch), timeoutMs, maxRaces: 8, solver: z3Wasm });
}

function raceSummary(run: Finished): string {
  const r = run.races[0];
  if (r !== undefined) return `race on ${r.array}[${r.index.join('][')}] (${r.between}) at spans ${r.first.span.start} and ${r.second.span.start}`;
  const d = run.divergences[0]!;
  return `divergence in block ${d.block.join(',')} at the barrier at ${d.sync.start}`;
}

/**
 * P2: where the interpreter finds a race or divergence (a feasible launch),
 * `verify` with that launch fixed does not say DRF, nor that no launch is
 * feasible. Returns what it says.
 */
export async function checkSoundness(g: Subject, loaded: Loaded, bad: Finding, timeoutMs = SOLVER_TIMEOUT_MS): Promise<KernelResult['status']> {
  const result = await verifyAt(loaded, bad.launch, timeoutMs);
  if (result.status === 'drf' || result.status === 'vacuous') {
    fail(g, `verify says ${result.status === 'drf' ? 'DRF' : 'vacuous'} at ${launchText(bad.launch)}, but the interpreter finds a ${raceSummary(bad.run)}`);
  }
  return result.status;
}

/**
 * P4: for a well-typed kernel, every confirmed alarm of `verify` at a fixed
 * launch is seen by the interpreter at that launch: the same two access
 * sites on the same element, or a divergence. Returns how many were compared.
 */
export async function checkCompleteness(g: Subject, loaded: Loaded, at: Finding, timeoutMs = SOLVER_TIMEOUT_MS): Promise<number> {
  const result = await verifyAt(loaded, at.launch, timeoutMs);
  // the interpreter ran this launch to its end: it is feasible
  if (result.status === 'vacuous') fail(g, `verify says no launch is feasible at ${launchText(at.launch)}, which the interpreter runs to its end`);
  let compared = 0;
  for (const race of result.races) {
    if (race.confidence !== 'confirmed') continue;
    compared++;
    const sites = race.accesses.map((a) => `${a.mode}@${a.span.start}`).sort().join(' ');
    const seen = at.run.races.some(
      (r) =>
        r.array === race.array &&
        r.index.join(',') === race.index.join(',') &&
        [r.first, r.second].map((a) => `${a.kind}@${a.span.start}`).sort().join(' ') === sites,
    );
    // the interpreter keeps one witness per pair of sites and element; a run that stopped early (divergence) may miss it
    if (!seen && !at.run.truncated && at.run.divergences.length === 0) {
      fail(g, `verify confirms a race on ${race.array}[${race.index.join('][')}] (${sites}) at ${launchText(at.launch)} that the interpreter does not see`);
    }
  }
  for (const d of result.divergences) {
    if (d.confidence !== 'confirmed') continue;
    compared++;
    if (at.run.divergences.length === 0) {
      fail(g, `verify confirms a divergence at the barrier at ${d.sync.span.start} at ${launchText(at.launch)}, the interpreter sees none`);
    }
  }
  return compared;
}

/**
 * P4 at a launch outside the scope, where some thread fails an assumption
 * or evaluates an undefined operation: the launch is excluded, so `verify`
 * with it fixed confirms nothing. Returns the status.
 */
export async function checkOutOfScope(g: Subject, loaded: Loaded, launch: ConcreteLaunch, timeoutMs = SOLVER_TIMEOUT_MS): Promise<KernelResult['status']> {
  const result = await verifyAt(loaded, launch, timeoutMs);
  const confirmed = [...result.races, ...result.divergences].filter((a) => a.confidence === 'confirmed');
  if (confirmed.length > 0) fail(g, `verify confirms ${confirmed.length} alarm(s) at ${launchText(launch)}, where the interpreter finds a thread leaving the scope`);
  return result.status;
}

// ---------------------------------------------------------------------------
// P3: every confirmed alarm replays

/** P3: `verify` for all launches; every confirmed alarm's witness (made small if needed) replays in the interpreter. Returns how many replayed. */
export async function checkReplay(g: Subject, loaded: Loaded, timeoutMs = SOLVER_TIMEOUT_MS): Promise<number> {
  const none: Launch = { params: new Map(), blockDim: null, gridDim: null, ...(loaded.warpSize === null ? {} : { warpSize: loaded.warpSize }) };
  const result = await verifyKernel(loaded.map, { launch: none, timeoutMs, maxRaces: 4, solver: z3Wasm });
  const { failures, result: replayed } = await replayAlarms(loaded.map, result, { launch: none, timeoutMs, solver: z3Wasm });
  if (failures.length > 0) fail(g, failures.join('\n'));
  return [...replayed.races, ...replayed.divergences].filter((a) => a.replay?.replayed === true).length;
}
