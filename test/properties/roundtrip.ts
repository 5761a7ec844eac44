/**
 * The round trip through the CUDA front end, as checks of one core kernel
 * that throw with the kernel, its CUDA C text and its lowering when they
 * fail (roundtrip.test.ts says what each one requires, and why).
 */
import type { Kernel } from '../../src/core/ast.js';
import { showListing } from '../../src/core/print.js';
import { located, positionAt, type Span } from '../../src/core/source.js';
import { renderedDiagnostic } from '../../src/diagnostics/render.js';
import { lowerCuda, type CudaSetup } from '../../src/frontend/cuda/lower.js';
import { inferMap } from '../../src/map/infer.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { runKernel, type RunResult } from '../../src/semantics/interpret.js';
import type { Vec3 } from '../../src/semantics/values.js';
import { z3Wasm } from '../../src/solve/z3.js';
import type { KernelResult } from '../../src/verify/result.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { assertNever } from '../../src/util/assert.js';
import { accessText, printedKernel, ZERO, type PrintedKernel } from './cuda-print.js';
import { fixed, paramValues, type ConcreteLaunch, type Loaded, type Subject } from './harness.js';

/** A core kernel, its CUDA C text, and the kernel the front end lowered that text to. */
export interface RoundTrip {
  readonly original: Loaded;
  readonly printed: PrintedKernel;
  readonly lowered: Loaded;
  /** the .cu line of a span of the lowered kernel */
  readonly loweredLine: (span: Span) => number;
  /** whether the printed kernel takes the `zero_` parameter (constants the front end cannot fold) */
  readonly opaque: boolean;
  /** the three texts, for a failure's message */
  readonly subject: Subject;
}

export function failRoundTrip(rt: Pick<RoundTrip, 'subject'>, message: string): never {
  throw new Error(`${message}\n${rt.subject.source}`);
}

/** Prints the kernel as CUDA C and lowers it back; the text must lower to exactly one well-formed kernel of the same name. */
export function roundTrip(setup: CudaSetup, original: Loaded, opaque: boolean, source: string): RoundTrip {
  const printed = printedKernel(original.kernel, { opaqueConstants: opaque });
  const unit = lowerCuda(setup, 'roundtrip.cu', printed.text);
  const numbered = printed.text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(3)}  ${l}`)
    .join('\n');
  const subject: Subject = { source: `--- core kernel ---\n${source}\n--- printed as CUDA C ---\n${numbered}\n--- lowered ---\n${showListing(unit.program)}` };
  const problems = [...unit.errors, ...unit.rejected.map((r) => r.diagnostic), ...wellFormednessErrors(unit.program)];
  if (problems.length > 0) failRoundTrip({ subject }, `the printed kernel does not lower:\n${problems.map((d) => renderedDiagnostic(d, false)).join('\n')}`);
  const names = unit.program.kernels.map((k) => k.name.text);
  if (names.join() !== original.kernel.name.text) failRoundTrip({ subject }, `lowered to kernels [${names.join(', ')}]`);
  const kernel = unit.program.kernels[0]!;
  const loweredLine = (span: Span): number => {
    const at = located(unit.program.file, span);
    return positionAt(at.file, at.span.start).line;
  };
  return { original, printed, lowered: { kernel, map: inferMap(unit.program.file, kernel), warpSize: original.warpSize }, loweredLine, opaque, subject };
}

// ---------------------------------------------------------------------------
// Accesses and barriers, by line

/** `line: what` for each access and barrier of the lowered kernel's MAP, each distinct one once, sorted. */
export function checkLines(rt: RoundTrip): void {
  const back = rt.lowered.map;
  const byLine = (events: readonly { line: number; what: string }[]): string => [...new Set(events.map((e) => `${e.line}: ${e.what}`))].sort().join('\n');
  const got = byLine([
    ...back.accesses.map((a) => ({ line: rt.loweredLine(a.span), what: accessText(a.array, a.mode, a.loops.length) })),
    ...back.syncs.map((s) => ({ line: rt.loweredLine(s.span), what: 'barrier' })),
  ]);
  const want = byLine(rt.printed.events);
  if (got !== want) failRoundTrip(rt, `accesses and barriers by line:\nprinted:\n${want}\nlowered:\n${got}`);
}

// ---------------------------------------------------------------------------
// The interpreter, launch by launch

const DIMS: readonly (readonly [Vec3, Vec3])[] = [
  [[2n, 1n, 1n], [1n, 1n, 1n]],
  [[3n, 1n, 1n], [2n, 1n, 1n]],
  [[2n, 2n, 1n], [1n, 1n, 1n]],
  [[4n, 1n, 1n], [2n, 1n, 1n]],
];

/**
 * The launches of the comparison: four shapes of block and grid, each with
 * as many parameter tuples as a parameter has values (P2's values, each
 * parameter shifted through them, so that parameters differ).
 */
export function roundTripLaunches(kernel: Kernel): ConcreteLaunch[] {
  const pools = kernel.params.map((p) => paramValues(p));
  const width = Math.max(1, ...pools.map((p) => p.length));
  const tuples = Array.from({ length: width }, (_, j) => Object.fromEntries(kernel.params.map((p, i) => [p.text, pools[i]![(j + i) % pools[i]!.length]!])));
  return tuples.flatMap((params) => DIMS.map(([blockDim, gridDim]) => ({ params, blockDim, gridDim })));
}

/** The lowered kernel's launch: the same, and `zero_ = 0`. */
export function loweredLaunch(rt: RoundTrip, launch: ConcreteLaunch): ConcreteLaunch {
  return rt.opaque ? { ...launch, params: { ...launch.params, [ZERO]: 0n } } : launch;
}

const RUN = { maxSteps: 200_000, maxReports: 50 } as const;

const vec = (v: readonly bigint[]): string => `(${v.join(',')})`;

/** A run as text in which spans are source lines of the CUDA C text. */
function runText(run: RunResult, line: (span: Span) => number | null): string {
  switch (run.kind) {
    case 'finished': {
      const out: string[] = [];
      for (const b of run.blocks) {
        for (const p of b.phases) {
          const end = p.end.kind === 'sync' ? `barrier at line ${line(p.end.span)}` : p.end.kind;
          out.push(`block ${vec(b.block)} phase ${p.index} (ends: ${end})`);
          for (const t of p.threads) {
            out.push(`  thread ${vec(t.thread)}: ${t.accesses.map((a) => `${a.kind} ${a.array}[${a.index.join('][')}] = ${a.value} at line ${line(a.span)}`).join('; ')}`);
          }
        }
      }
      if (!run.truncated) {
        const races = run.races.map((r) => {
          const sites = [r.first, r.second].map((a) => `${a.kind} at line ${line(a.span)}`).sort();
          return `race on ${r.array}[${r.index.join('][')}] between ${r.between}: ${sites.join(', ')}`;
        });
        out.push(...[...new Set(races)].sort());
      }
      out.push(...run.divergences.map((d) => `divergence in block ${vec(d.block)} at the barrier at line ${line(d.sync)}: ${vec(d.reached)} there, ${vec(d.notReached)} not`));
      return out.join('\n');
    }
    case 'infeasible':
      return `infeasible: thread ${vec(run.thread)} of block ${vec(run.block)} fails the assumption at line ${line(run.span)}`;
    case 'undefined':
      return `undefined behaviour at line ${line(run.span)}${run.at === null ? '' : ` in thread ${vec(run.at.thread)} of block ${vec(run.at.block)}`}`;
    case 'error':
      return `error (${run.reason})`;
    case 'limit':
      return `limit (${run.limit})`;
    default:
      return assertNever(run);
  }
}

export interface RunCounts {
  compared: number;
  /** the original run stopped at a limit (a loop that does not end, too many steps) */
  limit: number;
  /** the lowered run drew a value of an approximation */
  approximated: number;
}

/**
 * The two kernels run at each launch, with the same unknown values (a
 * `havoc` is named by its line); their runs must print alike, spans as
 * lines of the CUDA C text.
 */
export function checkRuns(rt: RoundTrip, counts: RunCounts): void {
  for (const launch of roundTripLaunches(rt.original.kernel)) {
    const original = runKernel(rt.original.kernel, launch, { ...RUN, unknownSite: (h) => `line ${rt.printed.lineOf(h.span)}` });
    if (original.kind === 'limit') {
      counts.limit++;
      continue;
    }
    let approximated = false;
    const lowered = runKernel(rt.lowered.kernel, loweredLaunch(rt, launch), {
      ...RUN,
      // the front end binds an unknown value where it is first used: its origin is the call
      unknownSite: (h) => {
        if (h.origin.kind === 'approximation') approximated = true;
        return `line ${rt.loweredLine(h.origin.span)}`;
      },
    });
    if (approximated) {
      counts.approximated++;
      continue;
    }
    const want = runText(original, (span) => rt.printed.lineOf(span));
    const got = runText(lowered, rt.loweredLine);
    if (want !== got) failRoundTrip(rt, `at ${launchText(launch)}:\n--- the core kernel's run ---\n${want}\n--- the lowered kernel's run ---\n${got}`);
    counts.compared++;
  }
}

function launchText(l: ConcreteLaunch): string {
  const ps = Object.entries(l.params).map(([k, v]) => `${k}=${v}`);
  return `${ps.length === 0 ? '' : `${ps.join(' ')} `}blockDim=${l.blockDim.join(',')} gridDim=${l.gridDim.join(',')}`;
}

// ---------------------------------------------------------------------------
// Verdicts

export const MAX_RACES = 16;
const VERIFY_TIMEOUT_MS = 2000;

export interface VerdictCounts {
  /** compared as equal: the lowering approximates nothing */
  exact: number;
  /** compared as an over-approximation */
  approximated: number;
  /** a side's solver gave up within its budget */
  unknown: number;
}

/** What a result says, spans as lines: the racing pairs (array, kind, the two lines) and the divergent barriers. */
function verdictOf(result: KernelResult, line: (span: Span) => number | null) {
  const races = new Set(result.races.map((r) => `${r.array} ${r.kind} at lines ${r.accesses.map((a) => line(a.span)).sort((x, y) => (x ?? 0) - (y ?? 0)).join(' and ')}`));
  return {
    status: result.status,
    arrays: new Set(result.races.map((r) => r.array)),
    races,
    complete: result.races.length < MAX_RACES,
    barriers: new Set(result.divergences.map((d) => line(d.sync.span))),
    onlyPossible: [...result.races, ...result.divergences].every((a) => a.confidence === 'possible'),
  };
}

const sorted = (s: ReadonlySet<unknown>): string => [...s].map(String).sort().join('; ');
const within = <T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean => [...a].every((x) => b.has(x));

/** `verify` on both kernels with the launch fixed; the verdicts must agree (exactly, or as the lowering's approximations allow). */
export async function checkVerdicts(rt: RoundTrip, launch: ConcreteLaunch, counts: VerdictCounts): Promise<void> {
  const options = { timeoutMs: VERIFY_TIMEOUT_MS, maxRaces: MAX_RACES, solver: z3Wasm };
  const k = verdictOf(await verifyKernel(rt.original.map, { ...options, launch: fixed(launch) }), (span) => rt.printed.lineOf(span));
  const l = verdictOf(await verifyKernel(rt.lowered.map, { ...options, launch: fixed(loweredLaunch(rt, launch)) }), rt.loweredLine);
  const show = (v: typeof k): string => `${v.status}${v.races.size > 0 ? `, races: ${sorted(v.races)}` : ''}${v.barriers.size > 0 ? `, divergent barriers at lines ${sorted(v.barriers)}` : ''}`;
  const disagree = (why: string): never => failRoundTrip(rt, `verify at ${launchText(launch)}: ${why}\n  core kernel: ${show(k)}\n  lowered:     ${show(l)}`);
  if (k.status === 'error' || l.status === 'error') disagree('an error');
  if (k.status === 'unknown' || l.status === 'unknown') {
    counts.unknown++;
    return;
  }
  if (rt.lowered.map.approximations.length === 0) {
    counts.exact++;
    if (k.status !== l.status) disagree('different verdicts');
    if (sorted(k.arrays) !== sorted(l.arrays)) disagree('different racing arrays');
    if (k.complete && l.complete && sorted(k.races) !== sorted(l.races)) disagree('different racing pairs');
    if (sorted(k.barriers) !== sorted(l.barriers)) disagree('different divergent barriers');
    return;
  }
  counts.approximated++;
  switch (k.status) {
    case 'drf':
      if (l.status !== 'drf' && !l.onlyPossible) disagree('a confirmed alarm where the core kernel is DRF');
      return;
    case 'racy':
      if (l.status === 'drf' || (l.status === 'racy' && l.complete && !within(k.arrays, l.arrays))) disagree('the lowering loses a race');
      return;
    case 'divergent':
      if (l.status !== 'divergent' || !within(k.barriers, l.barriers)) disagree('the lowering loses a divergence');
      return;
  }
}
