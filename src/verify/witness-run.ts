/**
 * Running a witness: the reference interpreter (src/semantics/interpret.ts)
 * runs the launch an alarm's witness names, every array zero-filled, and
 * says whether it shows the alarm: both threads at the reported access
 * sites, on the reported element, in one barrier phase of one block (block
 * level; within one warp phase too, warp level) or in two blocks (grid
 * level); or, for a divergence, the block disagreeing at a barrier. Replay
 * (src/verify/replay.ts) checks confirmed alarms so; verify
 * (src/verify/verify.ts) confirms some possible ones so.
 */
import type { Stmt } from '../core/ast.js';
import { bexprVars, exprVars } from '../core/exprs.js';
import { located, positionAt, type Span } from '../core/source.js';
import type { KernelMap } from '../map/map.js';
import { runKernel, type Finished, type RaceAccess, type RunOptions } from '../semantics/interpret.js';
import { vec3 } from '../semantics/values.js';
import { assertNever } from '../util/assert.js';
import type { Race, ThreadWitness, Witness } from './result.js';

export type ReplayVerdict =
  /** the interpreter saw the alarm */
  | { readonly kind: 'replayed' }
  /** the interpreter ran the witness and did not see the alarm: a bug */
  | { readonly kind: 'mismatch'; readonly message: string }
  /** the witness could not be run (too large, a limit of the interpreter) */
  | { readonly kind: 'unrunnable'; readonly message: string };

/** What running a witness showed; an infeasible or undefined launch is a mismatch only for a witness the verifier proved in scope. */
export type Seen = ReplayVerdict | { readonly kind: 'infeasible'; readonly message: string } | { readonly kind: 'undefined'; readonly message: string };

export function launchText(w: Witness): string {
  const params = [...w.parameters].map(([k, v]) => `${k} = ${v}, `).join('');
  return `${params}blockDim = (${w.blockDim.join(', ')}), gridDim = (${w.gridDim.join(', ')})`;
}

/**
 * How a witness is run. `replay`: a grid of 64 blocks of 1024 threads, which
 * a kernel whose launch is fixed (a GPUVerify test header) may need when no
 * smaller witness exists, and the statements such a grid executes. The run
 * keeps every access in its history, and what each element accessed in a
 * phase held (some 500 bytes per access in all): the accesses are bounded
 * too, well inside Node's heap, or a witness whose loop runs 2^30 times (a
 * parameter an assumption fixes) fills the heap before its steps run out.
 * `confirm`: a possible alarm's witness, run inside verify (once per
 * launch), so a fifth of the steps; and the run must be concrete (bind no
 * unknown value).
 */
type RunMode = 'replay' | 'confirm';

const LIMITS: Record<RunMode, { readonly maxThreads: number; readonly maxSteps: number; readonly maxAccesses: number }> = {
  replay: { maxThreads: 1 << 16, maxSteps: 20_000_000, maxAccesses: 2_000_000 },
  confirm: { maxThreads: 1 << 16, maxSteps: 4_000_000, maxAccesses: 400_000 },
};

/** The interpreter's run of a witness's launch; parameters the witness leaves free are 0. */
function runWitness(map: KernelMap, w: Witness, warpSize: number | undefined, mode: RunMode, racesOn?: RunOptions['racesOn']): Finished | Seen {
  const params = Object.fromEntries(map.params.map((p) => [p, w.parameters.get(p) ?? 0n]));
  const result = runKernel(
    map.source,
    { params, blockDim: vec3(w.blockDim), gridDim: vec3(w.gridDim) },
    { ...LIMITS[mode], ...(warpSize === undefined ? {} : { warpSize }), ...(racesOn === undefined ? {} : { racesOn }) },
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
export function raceSeen(map: KernelMap, w: Witness, index: readonly bigint[], race: Race, warpSize: number | undefined): Seen {
  const run = runWitness(map, w, warpSize, 'replay', { array: race.array, index });
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

export function divergenceSeen(map: KernelMap, w: Witness, warpSize: number | undefined): Seen {
  const run = runWitness(map, w, warpSize, 'replay');
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

/** At most this many launches are run for one kernel (alarms at other launches stay possible): each run may take a second. */
const MAX_RUNS = 8;

/** The runs made so far for one kernel, by launch (a run does not depend on the alarm it is made for). */
export type LaunchRuns = Map<string, Finished | Seen>;

/** A race a run showed: its witness (the two threads, no locals) and element, the threads in the order of the alarm's accesses. */
export interface RunRace {
  readonly witness: Witness;
  readonly index: readonly bigint[];
}

/**
 * The race a run of a possible race's launch shows, every array
 * zero-filled, or null: the run stays in the scope (no assumption fails, no
 * operation is undefined, in any thread of the launch), binds no value the
 * kernel does not determine, and the interpreter finds two threads racing
 * at the alarm's two sites on one element of its array (within a block, or
 * across blocks for a grid-level alarm): the witness's own element if they
 * race there, else another (the witness may have chosen values read that the
 * run does not read). Such a race is real, whatever left the alarm only
 * possible to the verifier (values read from memory, an undecided scope
 * check): zero is one content every array can have at a launch (the host's
 * global memory, uninitialised shared memory). Not looked for: warp-level
 * alarms (ordered by syncwarps), and kernels where a value the kernel does
 * not determine (a `havoc`: a front end's unknown or approximation) is used,
 * as the run would choose it.
 */
export function raceShownByRun(map: KernelMap, race: Race, warpSize: number | undefined, runs: LaunchRuns): RunRace | null {
  if (race.level === 'warp' || usesUnknowns(map.source.body)) return null;
  const w = race.witness;
  const key = launchText(w);
  if (!runs.has(key) && runs.size >= MAX_RUNS) return null;
  const run = runs.get(key) ?? runWitness(map, w, warpSize, 'confirm');
  runs.set(key, run);
  if (!('blocks' in run)) return null;
  const between = race.level === 'grid' ? 'blocks' : 'threads';
  const [a1, a2] = race.accesses;
  const at = (x: RaceAccess, site: Race['accesses'][number]): boolean => x.kind === site.mode && x.span.start === site.span.start && x.span.end === site.span.end;
  const found = run.races.flatMap((r) => {
    if (r.array !== race.array || r.between !== between) return [];
    if (at(r.first, a1) && at(r.second, a2)) return [{ index: r.index, threads: [r.first, r.second] as const }];
    if (at(r.first, a2) && at(r.second, a1)) return [{ index: r.index, threads: [r.second, r.first] as const }];
    return [];
  });
  const chosen = found.find((f) => sameVec(f.index, race.index)) ?? found[0];
  if (chosen === undefined) return null;
  const thread = (x: RaceAccess): ThreadWitness => ({ threadIdx: [...x.thread], blockIdx: [...x.block], locals: new Map() });
  return { witness: { ...w, threads: [thread(chosen.threads[0]), thread(chosen.threads[1])] }, index: chosen.index };
}

/** Whether some `havoc`'s variable is used (by name, so a name bound twice counts as used): a run would choose its value. */
function usesUnknowns(body: readonly Stmt[]): boolean {
  const havocs = new Set<string>();
  const used = new Set<string>();
  const walk = (stmts: readonly Stmt[]): void => {
    for (const st of stmts) {
      switch (st.kind) {
        case 'skip':
        case 'sync':
        case 'syncwarp':
          break;
        case 'write':
          for (const e of [...st.index, st.value]) exprVars(e, used);
          break;
        case 'read':
          for (const e of st.index) exprVars(e, used);
          walk([st.body]);
          break;
        case 'let':
          exprVars(st.value, used);
          walk([st.body]);
          break;
        case 'atomic':
          for (const e of [...st.index, ...st.operands]) exprVars(e, used);
          walk([st.body]);
          break;
        case 'havoc':
          havocs.add(st.local.text);
          walk([st.body]);
          break;
        case 'if':
          bexprVars(st.cond, used);
          walk(st.then);
          walk(st.else ?? []);
          break;
        case 'for':
          for (const e of [st.from, st.to, ...(st.step === null ? [] : [st.step.amount])]) exprVars(e, used);
          walk(st.body);
          break;
        case 'assume':
          bexprVars(st.cond, used);
          break;
        default:
          assertNever(st);
      }
    }
  };
  walk(body);
  return [...havocs].some((h) => used.has(h));
}
