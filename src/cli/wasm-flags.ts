/**
 * V8 settings for Z3's WebAssembly (35 MB), set once per process before Z3
 * is compiled. V8 compiles a function the first time it runs but by default
 * validates the whole module up front; validating each function when it is
 * first compiled instead saves about a tenth of Z3's start-up CPU. It
 * changes nothing for a valid module (z3-solver's is, being published
 * compiled output); a browser does this itself.
 */
import { setFlagsFromString } from 'node:v8';

export function lazyWasmValidation(): void {
  setFlagsFromString('--wasm-lazy-validation');
}
