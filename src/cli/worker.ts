/**
 * A `verify --jobs N` worker process: it verifies the files its parent sends,
 * one at a time, and sends back each outcome. Each worker has its own
 * WebAssembly Z3, which serialises its checks, hence processes rather than
 * threads of one process.
 */
import { fileOutcome } from './batch.js';
import { isWorkItem, type WorkResult } from './jobs.js';
import { lazyWasmValidation } from './wasm-flags.js';

lazyWasmValidation();

process.on('message', (message: unknown) => {
  if (!isWorkItem(message)) return;
  void fileOutcome(message.job).then((outcome) => {
    const reply: WorkResult = { index: message.index, outcome };
    process.send?.(reply);
  });
});

// The parent closes the channel when every file is done; Z3's threads must not keep us alive.
process.on('disconnect', () => process.exit(0));
