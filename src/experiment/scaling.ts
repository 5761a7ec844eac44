/**
 * The scalability benchmark (`npm run bench:scaling`): each synthetic family
 * verified at growing sizes in one process, time against size, and how it
 * grows. The benchmark's script (bench/scaling.js) only loops and writes the
 * files these functions make.
 */
import { NO_LAUNCH } from '../core/launch.js';
import { familyDescription, generatedKernel, type Family } from '../gen/families.js';
import type { Solver } from '../solve/solver.js';
import { assertNever } from '../util/assert.js';
import { StageClock } from '../util/clock.js';
import { checkedKernels, type CheckStage } from '../api/check.js';
import type { Status } from '../verify/result.js';
import { verifyKernel } from '../verify/verify.js';
import { csvText } from './csv.js';
import { bestFit, formulaText, growthFits, type Fit, type Model } from './fit.js';
import { percent } from './results.js';
import { STAGES, diagnosticLines, experimentRows, type StageTimes } from './rows.js';
import { lineChartSvg } from './svg.js';
import { htmlPage, markdownHtml } from './html.js';
import { GOAL_SLACK_MS, V1_REFERENCE, goalMs, v1Reference } from './reference.js';

export interface ScalingPoint {
  readonly family: Family;
  readonly size: number;
  readonly verdict: Status;
  readonly accesses: number;
  readonly phases: number;
  readonly queries: number;
  readonly times: StageTimes;
  readonly totalMs: number;
  /** with the benchmark's --process: the wall time of a whole `faial-ts verify` process on the kernel's file (ms), as issue 29's goal 1 is stated */
  readonly processMs?: number;
}

export interface ScalingRun {
  readonly version: string;
  readonly solver: string;
  readonly timeoutMs: number;
  readonly sizes: readonly number[];
  /** measurements per point; the median is kept */
  readonly runs: number;
  /** the benchmark's own wall time */
  readonly wallMs: number;
  /** with --process: the median time of `node -e 0` here, goal 1's allowance for Node's own start */
  readonly nodeStartMs?: number;
}

const MODELS: readonly Model[] = ['linear', 'quadratic', 'power', 'exponential'];

/** The share of a point's time spent outside the solver, in [0, 1]. */
export function outsideSolver(p: Pick<ScalingPoint, 'times' | 'totalMs'>): number {
  return p.totalMs === 0 ? 0 : (p.totalMs - p.times.solving) / p.totalMs;
}

/** One family's DRF kernel (with `racy`, its racy twin) at one size, checked and verified in this process, timed by stage. */
export async function scalingPoint(family: Family, size: number, options: { readonly timeoutMs: number; readonly solver: Solver; readonly racy?: boolean }): Promise<ScalingPoint> {
  const { kernel, source } = generatedKernel(family, size, options.racy ?? false);
  const path = `${kernel}.bcu`;
  const clock = new StageClock<CheckStage>();
  const checked = checkedKernels(path, source, undefined, clock);
  if (!checked.ok) throw new Error(`internal error: the generated kernel ${kernel} does not check:\n${diagnosticLines(checked.diagnostics)}`);
  const result = await verifyKernel(checked.kernels[0]!, { launch: NO_LAUNCH, timeoutMs: options.timeoutMs, maxRaces: 1, solver: options.solver });
  const [row] = experimentRows({ ok: true, path, kernels: [result] }, { parse: clock.milliseconds('parse'), typing: clock.milliseconds('typing') });
  if (row?.kind !== 'kernel') throw new Error(`internal error: no result for ${kernel}`);
  return { family, size, verdict: row.verdict, accesses: row.accesses, phases: row.phases, queries: row.queries, times: row.times, totalMs: row.totalMs };
}

export function scalingCsv(points: readonly ScalingPoint[]): string {
  return csvText(
    ['family', 'size', 'verdict', 'accesses', 'phases', 'queries', ...STAGES.map((s) => `${s}_ms`), 'total_ms', 'outside_solver', 'process_ms', 'v1_ms'],
    points.map((p) => [p.family, p.size, p.verdict, p.accesses, p.phases, p.queries, ...STAGES.map((s) => p.times[s]), p.totalMs, Number(outsideSolver(p).toFixed(4)), p.processMs ?? null, v1Reference(p.family, p.size)]),
  );
}

const familiesOf = (points: readonly ScalingPoint[]): Family[] => [...new Set(points.map((p) => p.family))];

export function scalingSvg(points: readonly ScalingPoint[]): string {
  return lineChartSvg({
    title: 'Verification time against size, per synthetic family',
    xLabel: 'size n (accesses, barriers, conditionals or loops)',
    yLabel: 'time (ms)',
    series: familiesOf(points).map((f) => ({ name: f, points: points.filter((p) => p.family === f).map((p) => ({ x: p.size, y: p.totalMs })) })),
  });
}

/** Of repeated measurements of one point, the one whose total time is the median (the lower one of an even count). */
export function medianPoint(runs: readonly ScalingPoint[]): ScalingPoint {
  if (runs.length === 0) throw new RangeError('no measurement');
  return [...runs].sort((a, b) => a.totalMs - b.totalMs)[Math.floor((runs.length - 1) / 2)]!;
}

/** What the best fit says of the growth: linear, quadratic, exponential, or a power of n, called linear when the exponent is near 1. */
export function growthText(best: Fit | null): string {
  if (best === null) return 'not enough sizes to fit';
  switch (best.model) {
    case 'linear':
      return 'linear';
    case 'quadratic':
      return 'quadratic';
    case 'power':
      return `${best.b < 0.8 ? 'sublinear' : best.b < 1.25 ? 'linear' : 'polynomial'} (n^${best.b.toFixed(2)})`;
    case 'exponential':
      return `exponential (×${Math.exp(best.b).toFixed(3)} per size step)`;
    default:
      return assertNever(best);
  }
}

export function scalingReport(points: readonly ScalingPoint[], run: ScalingRun): string {
  const families = familiesOf(points);
  const shown = [...new Set([run.sizes[0]!, 10, run.sizes.at(-1)!])].filter((n) => run.sizes.includes(n)).sort((a, b) => a - b);
  const msAt = (f: Family, n: number): string => points.find((p) => p.family === f && p.size === n)?.totalMs.toFixed(1) ?? '—';
  const fitsOf = (f: Family): Fit[] => growthFits(points.filter((p) => p.family === f).map((p) => ({ x: p.size, y: p.totalMs })));
  const rows = families.map((f) => {
    const own = points.filter((p) => p.family === f);
    const fits = fitsOf(f);
    const best = bestFit(fits);
    const r2 = (m: Model): string => {
      const fit = fits.find((x) => x.model === m);
      return fit === undefined ? '—' : (fit.adjustedR2 ?? fit.r2).toFixed(3);
    };
    const verified = own.filter((p) => p.verdict === 'drf').length;
    const worst = Math.max(...own.map(outsideSolver));
    const cells = [f, `${verified}/${own.length}`, ...shown.map((n) => msAt(f, n)), growthText(best), best === null ? '—' : formulaText(best), ...MODELS.map(r2), percent(worst)];
    return `| ${cells.join(' | ')} |`;
  });
  const notVerified = points.filter((p) => p.verdict !== 'drf');
  const exponential = families.filter((f) => bestFit(fitsOf(f))?.model === 'exponential');
  const over = points.filter((p) => outsideSolver(p) >= 0.2);
  const worst = points.reduce<ScalingPoint | null>((w, p) => (w === null || outsideSolver(p) > outsideSolver(w) ? p : w), null);
  const totalMs = points.reduce((s, p) => s + p.totalMs, 0);
  const solvingMs = points.reduce((s, p) => s + p.times.solving, 0);
  const sizeText = run.sizes.length > 1 ? `${run.sizes[0]}…${run.sizes.at(-1)} (${run.sizes.length} sizes)` : String(run.sizes[0]);
  return [
    `# Scaling: the synthetic families at sizes ${sizeText}`,
    '',
    `faial-ts ${run.version}, solver ${run.solver}, timeout ${run.timeoutMs} ms per query, every kernel in one process (parser and solver started once, before the first); each point measured ${run.runs === 1 ? 'once' : `${run.runs} times, the run with the median total kept`}. Benchmark wall time ${(run.wallMs / 1000).toFixed(1)} s.`,
    '',
    ...families.map((f) => `* ${f}: ${familyDescription(f)}`),
    '',
    '![time against size](scaling.svg)',
    '',
    `| family | verified DRF | ${shown.map((n) => `ms at n=${n}`).join(' | ')} | growth | best fit (ms) | ${MODELS.map((m) => `R² ${m}`).join(' | ')} | outside the solver (max) |`,
    `|---|---:|${shown.map(() => '---:').join('|')}|---|---|${MODELS.map(() => '---:').join('|')}|---:|`,
    ...rows,
    '',
    'Fits are least squares: linear and quadratic on the times, the power law on log time against log n, the exponential on log time against n. R² is adjusted for the number of parameters and computed on the times themselves; the best fit has the largest.',
    '',
    '## Goals',
    '',
    `* Every size of every family verified DRF: ${notVerified.length === 0 ? 'yes' : `no: ${notVerified.map((p) => `${p.family} n=${p.size} (${p.verdict})`).join(', ')}`}.`,
    `* No family grows exponentially (best fit): ${exponential.length === 0 ? 'yes' : `no: ${exponential.join(', ')}`}.`,
    `* Time outside the solver under 20% at every size: ${over.length === 0 ? 'yes' : `no, at ${over.length} of ${points.length} points`}${worst === null ? '' : ` (largest: ${percent(outsideSolver(worst))}, ${worst.family} n=${worst.size})`}; over all points ${percent(totalMs === 0 ? 0 : (totalMs - solvingMs) / totalMs)}.`,
    '',
  ].join('\n');
}

/**
 * The racy twins' section of the report: each family's racy variant at one
 * size (its single race found and confirmed is the expected verdict), with
 * its queries and time; they are not fitted (one size each).
 */
export function racyTwinsReport(twins: readonly ScalingPoint[]): string {
  if (twins.length === 0) return '';
  return [
    '## Racy twins',
    '',
    'Each family\'s racy variant (`faial-ts gen FAMILY --size N --racy`: one pair of accesses races), measured like the DRF kernels.',
    '',
    '| family | n | verdict | queries | ms | outside the solver | process ms |',
    '|---|---:|---|---:|---:|---:|---:|',
    ...twins.map((p) => `| ${p.family} | ${p.size} | ${p.verdict} | ${p.queries} | ${p.totalMs.toFixed(1)} | ${percent(outsideSolver(p))} | ${p.processMs?.toFixed(0) ?? '—'} |`),
    '',
  ].join('\n');
}

/**
 * Issue 29's goal 1 beside the measurements: per family, at the sizes the
 * report shows and those the issue measured Faial v1 at, faial-ts's time (in
 * this process, and as a whole process with --process), v1's time from the
 * issue's table, their ratio (of the process time when measured, else of the
 * in-process time, which leaves out Node's start and the bundle's load), and
 * the goal, v1 + `node -e 0` + 50 ms, met or not (only a process time can
 * meet it).
 */
export function v1Report(points: readonly ScalingPoint[], run: Pick<ScalingRun, 'sizes' | 'nodeStartMs'>): string {
  const families = familiesOf(points);
  const shown = new Set([run.sizes[0]!, 10, run.sizes.at(-1)!]);
  const rows: string[] = [];
  let met = 0;
  let checked = 0;
  for (const f of families) {
    const sizes = [...new Set([...shown, ...V1_REFERENCE.filter((r) => r.family === f).map((r) => r.size)])].filter((n) => run.sizes.includes(n)).sort((a, b) => a - b);
    for (const n of sizes) {
      const p = points.find((q) => q.family === f && q.size === n);
      if (p === undefined) continue;
      const v1 = v1Reference(f, n);
      const ours = p.processMs ?? p.totalMs;
      const goal = v1 === null || run.nodeStartMs === undefined ? null : goalMs(v1, run.nodeStartMs);
      const verdict = goal === null || p.processMs === undefined ? '—' : p.processMs <= goal ? 'yes' : 'no';
      if (verdict !== '—') {
        checked++;
        if (verdict === 'yes') met++;
      }
      const cells = [f, n, p.totalMs.toFixed(1), p.processMs?.toFixed(0) ?? '—', v1 ?? '—', v1 === null ? '—' : `${(ours / v1).toFixed(1)}×`, goal?.toFixed(0) ?? '—', verdict];
      rows.push(`| ${cells.join(' | ')} |`);
    }
  }
  const allowance = run.nodeStartMs === undefined ? '`node -e 0` (measured with --process)' : `\`node -e 0\` (${run.nodeStartMs.toFixed(0)} ms here)`;
  return [
    '## Against Faial v1 (issue 29, goal 1)',
    '',
    `Faial v1's times are issue 29's reference points (its goals' table: whole processes on a quiet 2-core machine, median of 3), not measured here. Goal 1: as a process, faial-ts ≤ v1 + ${allowance} + ${GOAL_SLACK_MS} ms, with linear growth (the fits above). The ratio is faial-ts's process time over v1's where measured (--process), else its in-process time's.`,
    '',
    '| family | n | faial-ts in process (ms) | faial-ts process (ms) | Faial v1 (ms, issue 29) | ratio | goal (ms) | goal met |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...rows,
    '',
    checked === 0 ? '* Goal 1 not checked: it is stated of whole processes; run with `--process`.' : `* Goal 1 at the reference points: met at ${met} of ${checked}.`,
    '',
  ].join('\n');
}

/** scaling.html: the report as a page in the experiment report's style, its chart inline. */
export function scalingHtml(points: readonly ScalingPoint[], run: ScalingRun, twins: readonly ScalingPoint[] = []): string {
  return htmlPage('faial-ts scaling benchmark', markdownHtml(`${scalingReport(points, run)}\n${v1Report(points, run)}\n${racyTwinsReport(twins)}`, { 'scaling.svg': scalingSvg(points) }));
}
