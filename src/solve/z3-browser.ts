/**
 * z3-wasm in a browser's Web Worker: the same checks as in Node (z3.ts),
 * with Z3 started from z3-solver's browser entry. Emscripten's threads are
 * more workers running z3-built.js, so that script must be served as its
 * own file (not bundled) and loaded into the worker (importScripts) before
 * the first check; the page must be cross-origin isolated for Z3's
 * SharedArrayBuffer.
 */
import { init } from 'z3-solver/build/browser.js';
import { DEFAULT_RLIMIT } from './budget.js';
import type { Watched } from './watchdog.js';
import { runtimeOf, z3Engine, z3WasmSolver } from './z3.js';

/** `z3Script` and `z3Wasm` are the absolute URLs of z3-built.js and z3-built.wasm (a build may rename them, as the playground's content-hashes them). */
export function browserZ3(z3Script: string, z3Wasm: string): Watched {
  const engine = z3Engine(async () => {
    const started = await init({
      // a worker has no script tag Emscripten could find itself by
      mainScriptUrlOrBlob: z3Script,
      // Emscripten asks for its WebAssembly by its original name
      locateFile: (file: string) => (file === 'z3-built.wasm' ? z3Wasm : new URL(file, z3Script).href),
    });
    return runtimeOf(started);
  });
  return { ...z3WasmSolver(DEFAULT_RLIMIT, engine), stuck: engine.queue.stuck };
}
