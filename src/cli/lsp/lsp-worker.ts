/**
 * A verifier worker of the language server (a worker thread; workers.ts
 * starts it): it runs the jobs the server sends, one at a time, and sends
 * back progress and results (protocol.ts). The server's thread only reads
 * messages and answers, so a long verification here holds nothing there.
 * A `cancel` stops the job in progress at its next solver check or kernel,
 * and aborts the check it is in; a job that does not stop soon enough is
 * ended with the worker (the server terminates it).
 */
import { parentPort } from 'node:worker_threads';
import { assertNever } from '../../util/assert.js';
import { lazyWasmValidation } from '../wasm-flags.js';
import { analysed, Cancelled, repaired, type Cancellation } from './analyse.js';
import type { FromWorker, Job, ToWorker } from './protocol.js';

lazyWasmValidation();

const port = parentPort;
if (port === null) throw new Error('lsp-worker runs as a worker thread of faial-ts lsp');

interface Running {
  readonly id: number;
  readonly token: Cancellation & { cancelled: boolean };
  readonly abort: AbortController;
}

let running: Running | null = null;

const send = (m: FromWorker): void => port.postMessage(m);

async function run(id: number, job: Job, token: Cancellation): Promise<FromWorker> {
  switch (job.kind) {
    case 'verify': {
      const analysis = await analysed(job, token, (kernel, index, total) => send({ kind: 'started', id, kernel, index, total }));
      return analysis === null ? { kind: 'cancelled', id } : { kind: 'verified', id, analysis };
    }
    case 'repair': {
      const repair = await repaired(job, token);
      return token.cancelled ? { kind: 'cancelled', id } : { kind: 'repaired', id, repair };
    }
    default:
      return assertNever(job);
  }
}

port.on('message', (m: ToWorker) => {
  switch (m.kind) {
    case 'start': {
      const abort = new AbortController();
      const current: Running = { id: m.id, abort, token: { cancelled: false, signal: abort.signal } };
      running = current;
      void run(m.id, m.job, current.token)
        .catch((e: unknown): FromWorker => (e instanceof Cancelled || current.token.cancelled ? { kind: 'cancelled', id: m.id } : { kind: 'failed', id: m.id, message: e instanceof Error ? e.message : String(e) }))
        .then((reply) => {
          if (running === current) running = null;
          send(reply);
        });
      return;
    }
    case 'cancel':
      if (running?.id === m.id) {
        running.token.cancelled = true;
        running.abort.abort();
      }
      return;
    default:
      assertNever(m);
  }
});
