/**
 * The solver a choice names: Z3 as WebAssembly in this process, or a
 * solver binary run as a child process (Node only, like the CLI that
 * chooses).
 */
import { assertNever } from '../util/assert.js';
import { commandSolver } from './command.js';
import { cvc5 } from './cvc5.js';
import type { Solver, SolverChoice } from './solver.js';
import { z3Binary } from './z3-binary.js';
import { z3Wasm } from './z3.js';

export function solverOf(choice: SolverChoice): Solver {
  switch (choice.kind) {
    case 'z3-wasm':
      return z3Wasm;
    case 'z3':
      return z3Binary;
    case 'cvc5':
      return cvc5;
    case 'command':
      return commandSolver(choice.command);
    default:
      return assertNever(choice);
  }
}
