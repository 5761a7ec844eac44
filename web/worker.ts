/**
 * The playground's verifier: a classic Web Worker running the same pipeline
 * as `faial-ts verify --replay`, `lower`, `infer --phases` and `smt`
 * (src/api) with Z3 as WebAssembly, so the page never freezes. The CUDA
 * grammar is fetched when the first .cu file comes; its `#include "…"`s read
 * the headers the page sends with it. Stop is the page terminating
 * this worker and starting a fresh one: a running Z3 check cannot be
 * interrupted any other way.
 */
import { BCU_ONLY, checkedSafely, isCudaPath, type FrontEnds } from '../src/api/check.js';
import { cudaFrontEnds } from '../src/api/cuda.js';
import { UsageError, launchOfOptions, naturalOf, warpSizeOf } from '../src/api/options.js';
import { inferText, loweredProgram, phaseLinesOf, queryListing } from '../src/api/stages.js';
import { fileLaunch, verifyFile } from '../src/api/verify.js';
import { loadCudaGrammar, type CudaGrammar } from '../src/frontend/cuda/parse.js';
import { dirname } from '../src/frontend/cuda/preprocess/paths.js';
import { launchFor } from '../src/core/launch.js';
import { summaryText } from '../src/report/text.js';
import { reportJson } from '../src/report/json.js';
import { sarifLog } from '../src/report/sarif.js';
import { browserZ3 } from '../src/solve/z3-browser.js';
import type { Solver } from '../src/solve/solver.js';
import { paramItems, type FromWorker, type OptionsText, type StageView, type ToWorker } from './protocol.js';
import { diagnosticView, fixView, kernelView, phaseViews } from './views.js';
import { fixKernel, type KernelFix } from '../src/fix/fix.js';
import { unifiedDiff } from '../src/fix/diff.js';
import { DEFAULT_LIMITS } from '../src/fix/search.js';

/** The parts of a dedicated worker's global scope used here (the page's DOM types describe a window). */
interface WorkerScope {
  importScripts(url: string): void;
  postMessage(message: FromWorker): void;
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null;
  readonly location: { readonly href: string };
}

const scope = self as unknown as WorkerScope;
/** An asset's URL: the build names them in this script's own folder. */
const assetUrl = (name: string): string => new URL(name, scope.location.href).href;
const z3Script = assetUrl(FAIAL_WORKER_ASSETS.z3Script);
scope.importScripts(z3Script);
const z3 = browserZ3(z3Script, assetUrl(FAIAL_WORKER_ASSETS.z3Wasm));

const post = (m: FromWorker): void => scope.postMessage(m);

function blank(text: string): string | undefined {
  return text.trim() === '' ? undefined : text;
}

/** A run under way: the solver checks it has started, and how many it had when the page cancelled it (null: not cancelled). */
interface RunState {
  asked: number;
  askedAtCancel: number | null;
}

/** The runs under way. One the page no longer wants (an edit superseded it) asks the solver nothing more and says nothing but that it ended. */
const runs = new Map<number, RunState>();

const cancelled = (id: number): boolean => (runs.get(id)?.askedAtCancel ?? null) !== null;

/** Thrown into a cancelled run at its next query: a Z3 check under way cannot be interrupted, so this is the first point it can stop. */
class Cancelled extends Error {}

/** The solver for run `id`, which refuses to start a check once the run is cancelled, and tells the page how many queries it has answered. */
function forRun(id: number, solver: Solver, onCheck: (n: number) => void = () => undefined): Solver {
  let n = 0;
  return {
    name: solver.name,
    check: async (script, ms) => {
      if (cancelled(id)) throw new Cancelled(`run ${id} was cancelled`);
      const run = runs.get(id);
      if (run !== undefined) run.asked++;
      const verdict = await solver.check(script, ms);
      onCheck(++n);
      return verdict;
    },
  };
}

let grammar: Promise<CudaGrammar> | undefined;

async function bytesOf(name: string): Promise<Uint8Array> {
  const response = await fetch(assetUrl(name));
  if (!response.ok) throw new Error(`${name}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** The CUDA grammar, fetched once; a failed fetch is tried again by the next .cu file. */
function cudaGrammar(): Promise<CudaGrammar> {
  grammar ??= Promise.all([bytesOf(FAIAL_WORKER_ASSETS.treeSitter), bytesOf(FAIAL_WORKER_ASSETS.treeSitterCpp)]).then(
    ([runtime, cpp]) => loadCudaGrammar({ runtime, cpp }),
    (e: unknown) => {
      grammar = undefined;
      throw new Error(`the CUDA grammar did not load: ${e instanceof Error ? e.message : String(e)}`);
    },
  );
  return grammar;
}

/** As the CLI's: a .cu file's macros from its test header, its includes from the headers beside it. */
async function frontEndsOf(path: string, text: string, headers: Readonly<Record<string, string>>): Promise<FrontEnds> {
  if (!isCudaPath(path)) return BCU_ONLY;
  const folder = dirname(path);
  const prefix = folder === '.' ? '' : `${folder}/`;
  return cudaFrontEnds(await cudaGrammar(), text, {}, (p) => (p.startsWith(prefix) ? (headers[p.slice(prefix.length)] ?? null) : null));
}

function usageOf(e: unknown): string {
  if (!(e instanceof UsageError)) throw e;
  return [e.message, ...e.hints.map((h) => `hint: ${h}`)].join('\n');
}

async function verify(id: number, path: string, text: string, options: OptionsText, headers: Readonly<Record<string, string>>): Promise<void> {
  const t0 = performance.now();
  let frontEnds;
  try {
    frontEnds = await frontEndsOf(path, text, headers);
  } catch (e) {
    post({ kind: 'rejected', id, diagnostics: [], usage: usageOf(e) });
    return;
  }
  const checked = checkedSafely(path, text, null, undefined, frontEnds);
  if (!checked.ok) {
    post({ kind: 'rejected', id, diagnostics: checked.diagnostics.map((d) => diagnosticView(d, path)), usage: null });
    return;
  }
  let settings;
  let fileWide;
  try {
    const launch = launchOfOptions(paramItems(options.params), blank(options.blockDim), blank(options.gridDim), checked.kernels, warpSizeOf(blank(options.warpSize), undefined));
    settings = { launch, timeoutMs: naturalOf(options.timeout, '--timeout', 1), maxRaces: naturalOf(options.maxRaces, '--max-races', 1) };
    // what the kernels are verified with: a .cu file's test header completes the options
    fileWide = fileLaunch(path, text, launch).launch;
  } catch (e) {
    post({ kind: 'rejected', id, diagnostics: [], usage: usageOf(e) });
    return;
  }
  let current = { kernel: '', kernelIndex: 0, kernels: checked.kernels.length };
  const solver = forRun(id, z3, (queries) => post({ kind: 'progress', id, ...current, queries }));
  const outcome = await verifyFile(path, text, { kernel: null, barriers: false, replay: options.replay, ...settings }, solver, frontEnds, (kernel, kernelIndex, kernels) => {
    current = { kernel, kernelIndex, kernels };
    if (!cancelled(id)) post({ kind: 'progress', id, ...current, queries: 0 });
  });
  // the kernels' checks failed on Cancelled, so what would be posted is not a verdict
  if (cancelled(id)) return;
  const file = outcome.file;
  if (!file.ok) {
    post({ kind: 'rejected', id, diagnostics: file.diagnostics.map((d) => diagnosticView(d, path)), usage: null });
    return;
  }
  const launchOf = (kernel: string) => {
    const map = checked.kernels.find((m) => m.name === kernel);
    return map === undefined ? null : launchFor(map.params, fileWide);
  };
  post({
    kind: 'verified',
    id,
    kernels: file.kernels.map((r) => kernelView(r, launchOf(r.kernel), path)),
    notices: (file.notices ?? []).map((d) => diagnosticView(d, path)),
    summary: summaryText([file], false),
    internal: outcome.replayFailures,
    milliseconds: performance.now() - t0,
    json: JSON.stringify(reportJson([file]), null, 2),
    sarif: JSON.stringify(sarifLog([file], { version: FAIAL_VERSIONS.faial, launchOf: (r) => launchOf(r.kernel) }), null, 2),
  });
  // The stages come after the verdict, which is what the user waits for.
  const stages: StageView[] = [];
  const lowered = isCudaPath(path) ? loweredProgram(path, text, frontEnds) : null;
  const stageSolver = forRun(id, z3);
  for (const map of checked.kernels) {
    const own = launchFor(map.params, fileWide);
    stages.push({
      kernel: map.name,
      map: inferText(map, false),
      phases: phaseViews(map, await phaseLinesOf(map, own, settings.timeoutMs, stageSolver), path),
      queries: await queryListing(map, own, settings.timeoutMs, stageSolver),
      lowered: lowered?.ok === true ? (lowered.kernels.find((k) => k.name === map.name)?.text ?? null) : null,
    });
  }
  post({ kind: 'stages', id, stages });
}

/** As `faial-ts fix`'s: races reported per kernel before the repair, so that every pair constrains where barriers go. */
const FIX_MAX_RACES = 64;

/** `faial-ts fix` in the page: each kernel repaired, last first (a repair changes only its own kernel's text), and the diff. */
async function fix(id: number, path: string, text: string, options: OptionsText): Promise<void> {
  if (isCudaPath(path)) {
    post({ kind: 'rejected', id, diagnostics: [], usage: `fix rewrites BabyCUDA (.bcu) files; ${path} is CUDA C\nhint: verify it, and fix the kernel by hand` });
    return;
  }
  const checked = checkedSafely(path, text, null);
  if (!checked.ok) {
    post({ kind: 'rejected', id, diagnostics: checked.diagnostics.map((d) => diagnosticView(d, path)), usage: null });
    return;
  }
  let launch;
  let timeoutMs;
  try {
    launch = launchOfOptions(paramItems(options.params), blank(options.blockDim), blank(options.gridDim), checked.kernels, warpSizeOf(blank(options.warpSize), undefined));
    timeoutMs = naturalOf(options.timeout, '--timeout', 1);
  } catch (e) {
    post({ kind: 'rejected', id, diagnostics: [], usage: usageOf(e) });
    return;
  }
  const fixes: KernelFix[] = [];
  let current = text;
  for (const [i, map] of [...checked.kernels].reverse().entries()) {
    const solver = forRun(id, z3, (queries) => post({ kind: 'progress', id, kernel: map.name, kernelIndex: i, kernels: checked.kernels.length, queries }));
    const { fix: done, text: next } = await fixKernel(path, current, map.name, { launch: launchFor(map.params, launch), timeoutMs, maxRaces: FIX_MAX_RACES, solver, keepBarriers: false, limits: DEFAULT_LIMITS });
    fixes.unshift(done);
    current = next;
  }
  if (cancelled(id)) return;
  post({ kind: 'fixed', id, text: current, diff: unifiedDiff(text, current, path, path), kernels: fixes.map(fixView) });
}

scope.onmessage = (event) => {
  const m = event.data;
  if (m.kind === 'cancel') {
    const run = runs.get(m.id);
    if (run !== undefined) run.askedAtCancel ??= run.asked;
    return;
  }
  runs.set(m.id, { asked: 0, askedAtCancel: null });
  const run = m.kind === 'fix' ? fix(m.id, m.path, m.text, m.options) : verify(m.id, m.path, m.text, m.options, m.headers ?? {});
  run
    .catch((e: unknown) => {
      if (!cancelled(m.id)) post({ kind: 'crashed', id: m.id, message: e instanceof Error ? e.message : String(e) });
    })
    .finally(() => {
      const run = runs.get(m.id);
      runs.delete(m.id);
      const atCancel = run?.askedAtCancel ?? null;
      if (run !== undefined && atCancel !== null) post({ kind: 'cancelled', id: m.id, queriesAfterCancel: run.asked - atCancel });
    });
};

// Start Z3 and the parser now, so that the first Verify does not wait for them.
const started = performance.now();
checkedSafely('start-up.bcu', 'kernel k() { skip }', null);
z3.check('(declare-const x Int)\n(assert (= x 1))', 10_000).then(
  () => post({ kind: 'ready', milliseconds: performance.now() - started }),
  (e: unknown) => post({ kind: 'crashed', id: null, message: `Z3 did not start: ${e instanceof Error ? e.message : String(e)}` }),
);
