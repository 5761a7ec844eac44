/** The `z3` binary (Debian's package, 4.8 or later) as a child process. */
import { processSolver } from './process.js';

// -t: is the per-query limit Z3 answers `unknown` at; -T: a hard stop behind it
export const z3Binary = processSolver('z3', (ms) => ['z3', '-in', '-smt2', `-t:${ms}`, `-T:${Math.ceil(ms / 1000) + 1}`]);
