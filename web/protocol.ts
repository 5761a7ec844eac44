/**
 * What the page and the verifier's Web Worker say to each other. Results
 * cross as plain data (structured clone): spans as offsets into the editor's
 * text, texts already rendered as the CLI renders them.
 */

/** The options panel, as typed: the worker checks them as the CLI checks its flags. */
export interface OptionsText {
  /** `N`, `X,Y,Z` or `[X,Y,Z]`; empty for symbolic */
  readonly blockDim: string;
  readonly gridDim: string;
  /** `NAME=VALUE`, separated by commas or spaces */
  readonly params: string;
  /** per query, in milliseconds */
  readonly timeout: string;
  readonly maxRaces: string;
  /** `--warp-size N`: warps of N threads in lockstep; empty as the CLI without it (independent threads, or a .cu file's test header) */
  readonly warpSize: string;
  /** run each confirmed alarm's witness with the interpreter */
  readonly replay: boolean;
}

/** The parameters field: one `NAME=VALUE` per item, as `-p` takes them, separated by commas, semicolons, lines or spaces. */
export function paramItems(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .flatMap((part) => part.trim().split(/\s+(?=[A-Za-z_][A-Za-z0-9_]*\s*=)/))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A run: the worker answers with progress and then one result (FromWorker), under the same id. */
export interface RunRequest {
  /** verify: as `faial-ts verify --replay`; fix: as `faial-ts fix` (BabyCUDA only) */
  readonly kind: 'verify' | 'fix';
  readonly id: number;
  readonly path: string;
  readonly text: string;
  readonly options: OptionsText;
  /** files a `.cu` file may `#include "…"`, by path relative to its folder (an example's headers) */
  readonly headers?: Readonly<Record<string, string>>;
}

export type ToWorker =
  | RunRequest
  /** the page no longer wants run `id` (an edit superseded it): it stops at its next query and says nothing more */
  | { readonly kind: 'cancel'; readonly id: number };

export interface Mark {
  readonly start: number;
  readonly end: number;
  /** `read (thread 1)` */
  readonly label: string;
  /** 1 or 2: the thread whose access it is (its colour); 0 for a barrier or both threads */
  readonly thread: 0 | 1 | 2;
}

export interface WitnessView {
  /** `witness`, or which witness of the alarm it is */
  readonly caption: string;
  readonly launch: string;
  readonly heads: readonly [string, string];
  readonly rows: readonly (readonly [string, string, string])[];
  /** where the rows' names that are not the source's come from */
  readonly names: readonly string[];
}

export interface AlarmView {
  readonly kind: 'race' | 'divergence';
  /** `data race on A[0] (read-write)` */
  readonly title: string;
  /** confirmed, possible (and whatever label a later analysis adds, such as benign) */
  readonly label: string;
  readonly reason: string;
  readonly marks: readonly Mark[];
  /** the smallest replayed witness when the interpreter ran one, else the solver's */
  readonly witness: WitnessView;
  /** the solver's witness, when a smaller one is shown first */
  readonly solverWitness: WitnessView | null;
  /** what replaying the witness found; null when not asked */
  readonly replay: string | null;
  /** the alarm as the text report prints it */
  readonly text: string;
}

export interface DiagnosticView {
  readonly severity: 'error' | 'warning' | 'note';
  readonly code: string;
  readonly message: string;
  /** offsets in the editor's text */
  readonly start: number;
  readonly end: number;
  /** as the CLI prints it */
  readonly text: string;
}

export interface KernelView {
  readonly name: string;
  /** the kernel's definition in the editor's text; null when it lies in another file */
  readonly span: { readonly start: number; readonly end: number } | null;
  /** drf, racy, benign, divergent, vacuous, unknown, error */
  readonly status: string;
  /** the verdict line of the text report */
  readonly headline: string;
  /** null for a kernel in error before its typing was decided */
  readonly wellTyped: string | null;
  /** the execution model the verdict holds for, as the text report's `execution:` line; null for a kernel in error (no verdict) */
  readonly execution: string | null;
  readonly alarms: readonly AlarmView[];
  readonly unknowns: readonly string[];
  readonly errors: readonly DiagnosticView[];
  /** the kernel's whole block of the text report */
  readonly text: string;
}

/** A line of the Phases tab; a phase's heading line has where the phase is in the editor's text. */
export interface PhaseLineView {
  readonly text: string;
  /** the phase's opening and closing barriers, accesses and the barriers it passes, as offsets in the editor's text; null for other lines */
  readonly spans: readonly { readonly start: number; readonly end: number }[] | null;
}

export interface StageView {
  readonly kernel: string;
  /** typing verdict and MAP, as `infer` prints them */
  readonly map: string;
  /** as `infer --phases` adds them, line by line */
  readonly phases: readonly PhaseLineView[];
  /** each query as a standalone SMT-LIB 2 script, as `smt` prints them */
  readonly queries: readonly string[];
  /** the core program a `.cu` kernel was lowered to, as `lower` prints it; null for BabyCUDA */
  readonly lowered: string | null;
}

/** What `fix` did to one kernel. */
export interface KernelFixView {
  readonly name: string;
  readonly outcome: 'drf' | 'fixed' | 'not-fixed';
  readonly text: string;
}

/** The content-hashed assets the page loads, by their paths relative to it (scripts/playground/build.ts names them). */
export interface PageAssets {
  readonly worker: string;
  readonly examples: string;
}

/** The content-hashed assets the worker loads, by their names in the worker script's own folder. */
export interface WorkerAssets {
  readonly z3Script: string;
  readonly z3Wasm: string;
  readonly treeSitter: string;
  readonly treeSitterCpp: string;
}

/** Set by the build (esbuild's define). */
declare global {
  /** the versions of faial-ts and of Z3 (z3-solver) built into the page */
  const FAIAL_VERSIONS: { readonly faial: string; readonly z3: string };
  /** in the page only */
  const FAIAL_PAGE_ASSETS: PageAssets;
  /** in the worker only */
  const FAIAL_WORKER_ASSETS: WorkerAssets;
}

export type FromWorker =
  /** Z3 has started: the first verification will not wait for it */
  | { readonly kind: 'ready'; readonly milliseconds: number }
  | { readonly kind: 'progress'; readonly id: number; readonly kernel: string; readonly kernelIndex: number; readonly kernels: number; readonly queries: number }
  /** bad input: the file's diagnostics, or options that do not parse */
  | { readonly kind: 'rejected'; readonly id: number; readonly diagnostics: readonly DiagnosticView[]; readonly usage: string | null }
  | {
      readonly kind: 'verified';
      readonly id: number;
      readonly kernels: readonly KernelView[];
      /** what the front end read and did not model, as the text report's notes */
      readonly notices: readonly DiagnosticView[];
      readonly summary: string;
      readonly internal: readonly string[];
      readonly milliseconds: number;
      /** the run as `verify --json` and `verify --sarif` print it */
      readonly json: string;
      readonly sarif: string;
    }
  | { readonly kind: 'stages'; readonly id: number; readonly stages: readonly StageView[] }
  /** the repaired text (the given one when nothing changed), its unified diff, and per kernel what was done */
  | { readonly kind: 'fixed'; readonly id: number; readonly text: string; readonly diff: string; readonly kernels: readonly KernelFixView[] }
  | { readonly kind: 'crashed'; readonly id: number | null; readonly message: string }
  /** run `id`, cancelled, has ended without a result: the solver checks it started after the cancel (none: the one under way finished, no more were asked) */
  | { readonly kind: 'cancelled'; readonly id: number; readonly queriesAfterCancel: number };
