/**
 * The child process of a z3-wasm portfolio member (src/solve/wasm-process.ts):
 * it runs the checks its parent sends with its own WebAssembly Z3, one at a
 * time, interrupts the one its parent no longer wants, and exits when its
 * parent goes.
 */
import { isWasmAbort, isWasmCheck, type WasmReply } from './wasm-process.js';
import { z3WasmStrategy } from './z3.js';

const running = new Map<number, AbortController>();

process.on('message', (message: unknown) => {
  if (isWasmAbort(message)) {
    running.get(message.id)?.abort();
    return;
  }
  if (!isWasmCheck(message)) return;
  const stop = new AbortController();
  running.set(message.id, stop);
  void z3WasmStrategy(message.strategy, message.rlimit)
    .check(message.script, message.timeoutMs, { signal: stop.signal })
    .then((verdict) => {
      running.delete(message.id);
      const reply: WasmReply = { id: message.id, verdict };
      if (process.connected) process.send?.(reply);
    });
});

// Z3's threads must not keep an orphan alive.
process.on('disconnect', () => process.exit(0));
