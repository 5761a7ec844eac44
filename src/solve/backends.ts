/**
 * The solver a choice names: Z3 as WebAssembly in this process, a solver
 * binary run as a child process, or a portfolio racing several in processes
 * of their own (Node only, like the CLI that chooses).
 */
import { assertNever } from '../util/assert.js';
import { commandSolver } from './command.js';
import { cvc5 } from './cvc5.js';
import { racingPortfolio } from './members.js';
import type { Solver, SolverChoice } from './solver.js';
import { z3Binary } from './z3-binary.js';
import { z3WasmSolver } from './z3.js';

/** The solver of a choice, limited to `rlimit` resource units per check (a `--solver-cmd` solver takes no such limit). */
export function solverOf(choice: SolverChoice, rlimit: number): Solver {
  switch (choice.kind) {
    case 'portfolio':
      return racingPortfolio(choice.members, rlimit);
    case 'z3-wasm':
      return z3WasmSolver(rlimit);
    case 'z3':
      return z3Binary(rlimit);
    case 'cvc5':
      return cvc5(rlimit);
    case 'command':
      return commandSolver(choice.command);
    default:
      return assertNever(choice);
  }
}
