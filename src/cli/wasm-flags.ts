/**
 * V8 settings for the WebAssembly this process runs: Z3 (35 MB) and the CUDA
 * grammar (tree-sitter's runtime and its C++ parser, 3.6 MB).
 */
import { setFlagsFromString } from 'node:v8';

/**
 * Set once per process before Z3 is compiled. V8 compiles a function the
 * first time it runs but by default validates the whole module up front;
 * validating each function when it is first compiled instead saves about a
 * tenth of Z3's start-up CPU. It changes nothing for a valid module
 * (z3-solver's is, being published compiled output); a browser does this
 * itself.
 */
export function lazyWasmValidation(): void {
  setFlagsFromString('--wasm-lazy-validation');
}

/** V8's budget (about the bytes of code a function runs) before a hot WebAssembly function is optimised; its default in Node 20's V8. */
const TIERING_BUDGET = 1_800_000;
/** The grammar's: about 200 files parsed. */
const GRAMMAR_TIERING_BUDGET = 1_000_000_000;

/**
 * The grammar's WebAssembly, instantiated to be optimised late. V8 optimises
 * a hot function in the background, and Node waits for those compilations
 * before the process exits: the C++ lexer, one huge function, is hot within
 * the first file and took 0.27 s to optimise, which every `verify` of one
 * .cu file waited for. A module keeps the budget it was created with (the
 * setting is put back right after, for Z3), so a run of a few files never
 * optimises the lexer, and a long one still does.
 */
export async function tieringLate<T>(instantiate: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--wasm-tiering-budget=${GRAMMAR_TIERING_BUDGET}`);
  try {
    return await instantiate();
  } finally {
    setFlagsFromString(`--wasm-tiering-budget=${TIERING_BUDGET}`);
  }
}
