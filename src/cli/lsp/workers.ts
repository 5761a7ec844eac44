/**
 * The language server's verifier workers: up to `size` worker threads
 * (lsp-worker.ts), each running one job at a time, so that a long
 * verification holds neither the server's thread (hover, other documents'
 * diagnostics) nor the other workers. Jobs wait in order for a free worker.
 *
 * Cancelling a job that waits drops it. Cancelling a running one tells its
 * worker, which stops at its next solver check or kernel and aborts the
 * check it is in; a worker that has not stopped within CANCEL_GRACE_MS (a
 * step of the verification that never yields: the front end, an encoding,
 * the simplifier) is terminated, and a new one started when a job needs
 * it. Either way the caller has its answer (null) at once, and nothing the
 * cancelled job computes reaches it. A worker that dies fails its job.
 */
import { dirname, extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { assertNever } from '../../util/assert.js';
import type { FromWorker, Job, JobResult, ToWorker } from './protocol.js';

/** How long a cancelled job may take to stop before its worker is terminated. */
export const CANCEL_GRACE_MS = 1000;

export interface Task<T> {
  /** the job's result; null when cancelled */
  readonly result: Promise<T | null>;
  cancel(): void;
}

/** Told when the job starts on each kernel. */
export type KernelProgress = (kernel: string, index: number, total: number) => void;

interface Pending {
  readonly id: number;
  readonly job: Job;
  readonly progress: KernelProgress;
  readonly settle: (outcome: { readonly ok: true; readonly value: JobResult<Job> | null } | { readonly ok: false; readonly error: Error }) => void;
}

type SlotState = { readonly kind: 'idle' } | { readonly kind: 'running'; readonly pending: Pending } | { readonly kind: 'draining'; readonly id: number; readonly timer: NodeJS.Timeout };

interface Slot {
  readonly worker: Worker;
  state: SlotState;
}

/** The worker next to this module: its ES module beside the bundle (cli.cjs) or dist/, or TypeScript through tsx when run from the sources (tests). */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  const fromSources = extname(here) === '.ts';
  const url = pathToFileURL(join(dirname(here), `lsp-worker${fromSources ? '.ts' : '.js'}`)).href;
  if (!fromSources) return new Worker(new URL(url));
  // Node 20 does not give a worker the loader of --import tsx: the worker registers it before it imports the module
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`, { eval: true });
}

export class VerifierPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;

  constructor(private readonly size: number) {}

  /** Starts a worker ahead of the first job (its Z3 and grammar load when first used). */
  warm(): void {
    if (this.slots.length === 0) this.spawn();
  }

  run<J extends Job>(job: J, progress: KernelProgress = () => undefined): Task<JobResult<J>> {
    let settle!: Pending['settle'];
    const result = new Promise<JobResult<J> | null>((resolve, reject) => {
      settle = (outcome) => (outcome.ok ? resolve(outcome.value as JobResult<J> | null) : reject(outcome.error));
    });
    const pending: Pending = { id: this.nextId++, job, progress, settle };
    this.queue.push(pending);
    this.pump();
    return { result, cancel: () => this.cancel(pending) };
  }

  private cancel(pending: Pending): void {
    const queued = this.queue.indexOf(pending);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      pending.settle({ ok: true, value: null });
      return;
    }
    const slot = this.slots.find((s) => s.state.kind === 'running' && s.state.pending === pending);
    if (slot === undefined) return;
    pending.settle({ ok: true, value: null });
    this.post(slot, { kind: 'cancel', id: pending.id });
    slot.state = { kind: 'draining', id: pending.id, timer: setTimeout(() => void slot.worker.terminate(), CANCEL_GRACE_MS) };
    // the job's successor need not wait for the cancelled one to stop
    this.pump();
  }

  /** Workers that run or can run jobs: not those stopping a cancelled one. */
  private serving(): number {
    return this.slots.filter((s) => s.state.kind !== 'draining').length;
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((s) => s.state.kind === 'idle') ?? (this.serving() < this.size ? this.spawn() : null);
      if (slot === null) return;
      const pending = this.queue.shift()!;
      slot.state = { kind: 'running', pending };
      this.post(slot, { kind: 'start', id: pending.id, job: pending.job });
    }
    // a worker left over once a cancelled job stopped
    for (const slot of [...this.slots]) if (slot.state.kind === 'idle' && this.serving() > this.size) this.retire(slot);
  }

  private post(slot: Slot, m: ToWorker): void {
    slot.worker.postMessage(m);
  }

  private spawn(): Slot {
    const slot: Slot = { worker: startWorker(), state: { kind: 'idle' } };
    this.slots.push(slot);
    slot.worker.on('message', (m: FromWorker) => this.heard(slot, m));
    let why = 'it exited';
    slot.worker.on('error', (e) => void (why = e.message));
    slot.worker.on('exit', (code) => this.gone(slot, code === 0 ? why : `${why} (exit code ${code})`));
    return slot;
  }

  private retire(slot: Slot): void {
    this.slots.splice(this.slots.indexOf(slot), 1);
    void slot.worker.terminate();
  }

  private heard(slot: Slot, m: FromWorker): void {
    const state = slot.state;
    if (state.kind === 'draining') {
      if (m.id === state.id && m.kind !== 'started') {
        clearTimeout(state.timer);
        slot.state = { kind: 'idle' };
        this.pump();
      }
      return;
    }
    if (state.kind !== 'running' || m.id !== state.pending.id) return;
    const pending = state.pending;
    switch (m.kind) {
      case 'started':
        pending.progress(m.kernel, m.index, m.total);
        return;
      case 'verified':
        pending.settle({ ok: true, value: m.analysis });
        break;
      case 'repaired':
        pending.settle({ ok: true, value: m.repair });
        break;
      case 'cancelled':
        pending.settle({ ok: true, value: null });
        break;
      case 'failed':
        pending.settle({ ok: false, error: new Error(m.message) });
        break;
      default:
        assertNever(m);
    }
    slot.state = { kind: 'idle' };
    this.pump();
  }

  private gone(slot: Slot, why: string): void {
    const at = this.slots.indexOf(slot);
    if (at >= 0) this.slots.splice(at, 1);
    const state = slot.state;
    if (state.kind === 'running') state.pending.settle({ ok: false, error: new Error(`the verifier worker stopped: ${why}`) });
    if (state.kind === 'draining') clearTimeout(state.timer);
    slot.state = { kind: 'idle' };
    this.pump();
  }
}
