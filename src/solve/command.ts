/**
 * `--solver-cmd "…"`: any SMT-LIB 2 solver. The command is split into words
 * (quotes group, no shell runs it); the script comes on stdin, or, when a
 * word is `{file}`, in a temporary file named there. The solver is killed
 * when the check's time is up, so it needs no timeout option of its own; it
 * takes no resource limit either, so its verdicts are bounded by time only.
 */
import { PLAIN, processSolver } from './process.js';
import type { Solver } from './solver.js';

/** The words of a command line: whitespace separates, '…' and "…" group. */
export function commandWords(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]!);
}

export function commandSolver(command: string): Solver {
  const words = commandWords(command);
  return processSolver(command, { argv: () => words, ...PLAIN });
}
