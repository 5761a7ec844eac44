/**
 * What the language server and its verifier workers (lsp-worker.ts) say to
 * each other. Everything that crosses is plain data, copied by the
 * structured clone of postMessage: the worker sends back diagnostics, hovers
 * and repairs already made, never kernels or source files (a CUDA unit's
 * origin map is a function, which cannot be copied).
 */
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { ProposedRepair } from '../../lsp/actions.js';
import type { HoverTable } from '../../lsp/hover.js';
import type { LaunchFacts, LaunchMode } from '../../lsp/launch.js';
import type { LspSettings } from '../../lsp/settings.js';

/** A document to verify: its text as the editor holds it, and the editor's texts of the other open documents (an include reads one instead of the disk). */
export interface VerifyJob {
  readonly kind: 'verify';
  readonly path: string;
  readonly text: string;
  readonly settings: LspSettings;
  readonly mode: LaunchMode;
  /** the workspace folder: relative settings' paths start there */
  readonly root: string;
  /** absolute path → text of each other open document */
  readonly buffers: ReadonlyMap<string, string>;
}

/** A kernel of a BabyCUDA document to repair as `fix` does. */
export interface RepairJob {
  readonly kind: 'repair';
  readonly path: string;
  readonly text: string;
  readonly settings: LspSettings;
  readonly mode: LaunchMode;
  readonly root: string;
  readonly kernel: string;
  /** remove the barriers fix proves redundant (`fix` without --keep-barriers) */
  readonly removeBarriers: boolean;
}

export type Job = VerifyJob | RepairJob;

/** A file an include read, and whether the text came from the editor's buffer rather than the disk. */
export interface IncludeRead {
  readonly path: string;
  readonly text: string;
  readonly fromBuffer: boolean;
}

/** A document as verified, in what the server needs to answer for it. */
export interface Analysis {
  readonly path: string;
  readonly text: string;
  /** the diagnostics for each document (`file:` URI) the verification says something about: the document, its headers */
  readonly diagnostics: readonly (readonly [string, LspDiagnostic[]])[];
  readonly hovers: HoverTable;
  readonly launches: LaunchFacts;
  /** the files its includes read, in the order read */
  readonly includes: readonly IncludeRead[];
}

export type ToWorker = { readonly kind: 'start'; readonly id: number; readonly job: Job } | { readonly kind: 'cancel'; readonly id: number };

export type FromWorker =
  | { readonly kind: 'started'; readonly id: number; readonly kernel: string; readonly index: number; readonly total: number }
  | { readonly kind: 'verified'; readonly id: number; readonly analysis: Analysis }
  | { readonly kind: 'repaired'; readonly id: number; readonly repair: ProposedRepair | null }
  /** the job stopped early when cancelled: it sends nothing more */
  | { readonly kind: 'cancelled'; readonly id: number }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string };

/** What a job gives back: its analysis or repair. */
export type JobResult<J extends Job> = J extends VerifyJob ? Analysis : ProposedRepair | null;
