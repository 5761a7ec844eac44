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
 *
 * The verifier is given the generated kernel itself, or (the CUDA path,
 * cuda-path.ts) the kernel the CUDA front end lowers from its text printed as
 * CUDA C: {@link Verified}. Either way the interpreter runs the generated
 * kernel, the reference, and each property compares the verified kernel's
 * accesses, alarms and witnesses to it by site (a span's start, or a line
 * of the CUDA C text).
 */
import type { Launch } from '../../src/core/launch.js';
import type { Kernel, Stmt } from '../../src/core/ast.js';
import type { Span } from '../../src/core/source.js';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { inferMap } from '../../src/map/infer.js';
import type { KernelMap } from '../../src/map/map.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { runKernel, type Finished, type RunResult } from '../../src/semantics/interpret.js';
import { evalMap, interpreterReads, interpreterUnknowns, type MapEvalOptions, type MapPhase } from '../../src/semantics/map-eval.js';
import { vec3 } from '../../src/semantics/values.js';
import { typeMin } from '../../src/core/arith.js';
import type { Vec3 } from '../../src/semantics/values.js';
import { verifyKernel } from '../../src/verify/verify.js';
import type { KernelResult, Witness } from '../../src/verify/result.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { assertNever } from '../../src/util/assert.js';

export const SOLVER_TIMEOUT_MS = 4000;

export interface Loaded {
  readonly kernel: Kernel;
  readonly map: KernelMap;
  /** the subject's warp size: its launches run warps of this many threads in lockstep; null: independent threads */
  readonly warpSize: number | null;
  /** the kernel the verifier is given instead of `kernel` (the CUDA path); absent: `kernel` itself */
  readonly verified?: Verified;
}

type HavocStmt = Extract<Stmt, { kind: 'havoc' }>;

/**
 * The kernel the verifier is given, and how its sites compare with the
 * generated kernel's, which the interpreter runs as the reference.
 */
export interface Verified {
  readonly map: KernelMap;
  /** the verified kernel's launch for a launch of the generated kernel */
  launch(l: ConcreteLaunch): ConcreteLaunch;
  /** a site of the generated kernel (an access, a barrier), named as {@link verifiedSite} names the same site of the verified kernel */
  referenceSite(span: Span): string;
  verifiedSite(span: Span): string;
  /** how the reference run names each `havoc`, so that the verified kernel's run can draw the same unknown values (absent: by span) */
  readonly unknownSite?: (h: HavocStmt) => string;
  /**
   * What the MAP evaluator is given for an ill-typed verified kernel at a
   * launch the reference run finished: the values its threads read and
   * drew; null when the verified kernel draws a value of one of the front
   * end's approximations there, which the reference cannot be compared with.
   */
  dataAt(reference: Finished, launch: ConcreteLaunch): MapEvalOptions | null;
}

/** The generated kernel itself, its sites named by span. */
function itself(loaded: Loaded): Verified {
  const site = (span: Span): string => `${span.start}`;
  return {
    map: loaded.map,
    launch: (l) => l,
    referenceSite: site,
    verifiedSite: site,
    dataAt: (run) => ({ reads: interpreterReads(run), unknowns: interpreterUnknowns(run) }),
  };
}

export function verifiedOf(loaded: Loaded): Verified {
  return loaded.verified ?? itself(loaded);
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

export function interpret(kernel: Kernel, launch: ConcreteLaunch, unknownSite?: (h: HavocStmt) => string): RunResult {
  return runKernel(kernel, launch, {
    maxSteps: 200_000,
    maxReports: 50,
    ...(launch.warpSize === undefined ? {} : { warpSize: launch.warpSize }),
    ...(unknownSite === undefined ? {} : { unknownSite }),
  });
}

export function fixed(launch: ConcreteLaunch): Launch {
  return { params: new Map(Object.entries(launch.params)), blockDim: [...launch.blockDim], gridDim: [...launch.gridDim], ...(launch.warpSize === undefined ? {} : { warpSize: launch.warpSize }) };
}

/** The launch as options of `faial-ts verify` and `run`, so that a failure can be reproduced from its message. */
export function launchText(l: ConcreteLaunch): string {
  const ps = Object.entries(l.params).map(([k, v]) => `-p ${k}=${v} `);
  return `\`${ps.join('')}--block-dim ${l.blockDim.join(',')} --grid-dim ${l.gridDim.join(',')}${l.warpSize === undefined ? '' : ` --warp-size ${l.warpSize}`}\``;
}

// ---------------------------------------------------------------------------
// P1: Theorem 1, executable

function phaseKeys(p: MapPhase, v: Verified): string[] {
  return p.accesses.map((a) => `t${a.thread.join(',')} ${a.mode} ${a.array}[${a.index?.join('][') ?? '?'}] @${v.verifiedSite(a.span)}`).sort();
}

function interpreterKeys(run: Finished, block: number, phase: number, v: Verified): string[] {
  const p = run.blocks[block]!.phases[phase]!;
  return p.threads.flatMap((t) => t.accesses.map((a) => `t${t.thread.join(',')} ${a.kind} ${a.array}[${a.index.join('][')}] @${v.referenceSite(a.span)}`)).sort();
}

/** What P1 compared: launches, and (the CUDA path) launches not compared as the verified kernel drew a value of an approximation there. */
export interface Theorem1Counts {
  compared: number;
  approximated: number;
}

/**
 * For every launch the interpreter completes without divergence, the MAP
 * evaluator (on the verified kernel's MAP) gives the same accesses in every
 * phase of every block: without help for a well-typed kernel, with the
 * values the interpreter read (and the unknown values it drew) for an
 * ill-typed one. Returns how many launches were compared.
 */
export function checkTheorem1(g: Subject, loaded: Loaded = load(g), counts: Theorem1Counts = { compared: 0, approximated: 0 }): number {
  const { kernel } = loaded;
  const v = verifiedOf(loaded);
  const wellTyped = v.map.violations.length === 0;
  let compared = 0;
  for (const launch of launches(kernel, loaded.warpSize)) {
    const run = interpret(kernel, launch, v.unknownSite);
    if (run.kind !== 'finished' || run.divergences.length > 0) continue;
    const data = v.dataAt(run, launch);
    if (data === null) {
      counts.approximated++;
      continue;
    }
    const evaluated = evalMap(v.map, v.launch(launch), wellTyped ? {} : data);
    if (evaluated.kind !== 'evaluated') fail(g, `at ${launchText(v.launch(launch))} the interpreter finishes but the MAP evaluator stops: ${evaluated.kind}`);
    for (const [b, block] of evaluated.blocks.entries()) {
      if (block.misaligned) fail(g, `at ${launchText(v.launch(launch))} block ${b}: the MAP's barriers are misaligned, the interpreter saw no divergence`);
      const runPhases = run.blocks[b]!.phases.length;
      if (block.phases.length !== runPhases) fail(g, `at ${launchText(v.launch(launch))} block ${b}: ${block.phases.length} MAP phases, ${runPhases} interpreter phases`);
      for (const phase of block.phases) {
        if (phase.dependsOnData) fail(g, `at ${launchText(v.launch(launch))} block ${b} phase ${phase.index} depends on data although the reads were given`);
        const want = interpreterKeys(run, b, phase.index, v);
        const got = phaseKeys(phase, v);
        if (want.join('\n') !== got.join('\n')) {
          fail(g, `at ${launchText(v.launch(launch))} block ${b} phase ${phase.index}:\ninterpreter:\n  ${want.join('\n  ')}\nMAP:\n  ${got.join('\n  ')}`);
        }
      }
    }
    compared++;
  }
  counts.compared += compared;
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
  const v = verifiedOf(loaded);
  return verifyKernel(v.map, { launch: fixed(v.launch(launch)), timeoutMs, maxRaces: 8, solver: z3Wasm });
}

function raceSummary(run: Finished, v: Verified): string {
  const r = run.races[0];
  if (r !== undefined) return `race on ${r.array}[${r.index.join('][')}] (${r.between}) at sites ${v.referenceSite(r.first.span)} and ${v.referenceSite(r.second.span)}`;
  const d = run.divergences[0]!;
  return `divergence in block ${d.block.join(',')} at the barrier at ${v.referenceSite(d.sync)}`;
}

/**
 * P2: where the interpreter finds a race or divergence (a feasible launch),
 * `verify` with that launch fixed does not say DRF, nor that no launch is
 * feasible. Returns what it says.
 */
export async function checkSoundness(g: Subject, loaded: Loaded, bad: Finding, timeoutMs = SOLVER_TIMEOUT_MS): Promise<KernelResult['status']> {
  const result = await verifyAt(loaded, bad.launch, timeoutMs);
  if (result.status === 'drf' || result.status === 'vacuous') {
    fail(g, `verify says ${result.status === 'drf' ? 'DRF' : 'vacuous'} at ${launchText(bad.launch)}, but the interpreter finds a ${raceSummary(bad.run, verifiedOf(loaded))}`);
  }
  // `benign` promises that every race writes one value twice: a race with a read, two different values or a divergence denies it
  const unequal = bad.run.races.find((r) => r.first.kind !== 'write' || r.second.kind !== 'write' || r.first.value !== r.second.value);
  if (result.status === 'benign' && (unequal !== undefined || bad.run.divergences.length > 0)) {
    const what = unequal === undefined ? `divergence` : `race on ${unequal.array}[${unequal.index.join('][')}] (${unequal.first.kind} of ${unequal.first.value}, ${unequal.second.kind} of ${unequal.second.value})`;
    fail(g, `verify says benign at ${launchText(bad.launch)}, but the interpreter finds a ${what}`);
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
  const v = verifiedOf(loaded);
  let compared = 0;
  for (const race of result.races) {
    if (race.confidence !== 'confirmed') continue;
    compared++;
    const sites = race.accesses.map((a) => `${a.mode}@${v.verifiedSite(a.span)}`).sort().join(' ');
    const seen = at.run.races.some(
      (r) =>
        r.array === race.array &&
        r.index.join(',') === race.index.join(',') &&
        [r.first, r.second].map((a) => `${a.kind}@${v.referenceSite(a.span)}`).sort().join(' ') === sites,
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
      fail(g, `verify confirms a divergence at the barrier at ${v.verifiedSite(d.sync.span)} at ${launchText(at.launch)}, the interpreter sees none`);
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

/**
 * P3: `verify` for all launches; every confirmed alarm's witness (made small
 * if needed) replays in the interpreter. On the CUDA path it replays in the
 * lowered kernel, and the generated kernel, the reference, must show the
 * same alarm at the witness's launch: a race on the element between the same
 * sites, or a divergence in the witness's block. Returns how many replayed.
 */
export async function checkReplay(g: Subject, loaded: Loaded, timeoutMs = SOLVER_TIMEOUT_MS): Promise<number> {
  const v = verifiedOf(loaded);
  const none: Launch = { params: new Map(), blockDim: null, gridDim: null, ...(loaded.warpSize === null ? {} : { warpSize: loaded.warpSize }) };
  const result = await verifyKernel(v.map, { launch: none, timeoutMs, maxRaces: 4, solver: z3Wasm });
  const { failures, result: replayed } = await replayAlarms(v.map, result, { launch: none, timeoutMs, solver: z3Wasm });
  if (failures.length > 0) fail(g, failures.join('\n'));
  if (loaded.verified !== undefined) {
    for (const race of replayed.races) {
      if (race.replay?.replayed !== true) continue;
      const w = race.replay.minimised ?? { witness: race.witness, index: race.index };
      const sites = race.accesses.map((a) => `${a.mode}@${v.verifiedSite(a.span)}`).sort().join(' ');
      const run = referenceRun(g, loaded, w.witness, `race on ${race.array}[${w.index.join('][')}] (${sites})`, { array: race.array, index: w.index });
      const seen = run?.races.some((r) => r.array === race.array && r.index.join(',') === w.index.join(',') && [r.first, r.second].map((a) => `${a.kind}@${v.referenceSite(a.span)}`).sort().join(' ') === sites);
      if (seen === false) fail(g, `the confirmed race on ${race.array}[${w.index.join('][')}] (${sites}) replays in the verified kernel at ${witnessText(w.witness)}, but the generated kernel's run there does not have it`);
    }
    for (const d of replayed.divergences) {
      if (d.replay?.replayed !== true) continue;
      const w = d.replay.minimised?.witness ?? d.witness;
      const block = w.threads[0].blockIdx;
      const run = referenceRun(g, loaded, w, `divergence at the barrier at ${v.verifiedSite(d.sync.span)}`);
      if (run !== null && !run.divergences.some((x) => x.block.join(',') === block.join(','))) {
        fail(g, `the confirmed divergence at the barrier at ${v.verifiedSite(d.sync.span)} replays in the verified kernel at ${witnessText(w)}, but block (${block.join(',')}) of the generated kernel meets its barriers without divergence`);
      }
    }
  }
  return [...replayed.races, ...replayed.divergences].filter((a) => a.replay?.replayed === true).length;
}

function witnessText(w: Witness): string {
  const ps = [...w.parameters].map(([k, v]) => `-p ${k}=${v} `);
  return `\`${ps.join('')}--block-dim ${w.blockDim.join(',')} --grid-dim ${w.gridDim.join(',')}\``;
}

/**
 * The generated kernel's run at a witness's launch (parameters the witness
 * leaves free are 0); null where the interpreter stops at a limit. A witness
 * that replayed in the verified kernel is in scope, so a run of the
 * generated kernel that leaves the scope (or fails) disagrees with it.
 */
function referenceRun(g: Subject, loaded: Loaded, w: Witness, alarm: string, racesOn?: { readonly array: string; readonly index: readonly bigint[] }): Finished | null {
  const params = Object.fromEntries(loaded.kernel.params.map((p) => [p.text, w.parameters.get(p.text) ?? 0n]));
  const run = runKernel(
    loaded.kernel,
    { params, blockDim: vec3(w.blockDim), gridDim: vec3(w.gridDim) },
    { maxThreads: 1 << 16, maxSteps: 2_000_000, maxAccesses: 200_000, ...(loaded.warpSize === null ? {} : { warpSize: loaded.warpSize }), ...(racesOn === undefined ? {} : { racesOn }) },
  );
  switch (run.kind) {
    case 'finished':
      return run;
    case 'limit':
      return null;
    case 'infeasible':
    case 'undefined':
    case 'error':
      return fail(g, `the confirmed ${alarm} replays in the verified kernel at ${witnessText(w)}, where the generated kernel's run ends ${run.kind}: ${run.message}`);
    default:
      return assertNever(run);
  }
}
