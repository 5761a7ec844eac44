/** The `cvc5` binary (Debian's package, 1.0 or later) as a child process. */
import { processSolver } from './process.js';

// --tlimit-per makes cvc5 answer `unknown` when the check's time is up
export const cvc5 = processSolver('cvc5', (ms) => ['cvc5', '--lang=smt2', `--tlimit-per=${ms}`]);
