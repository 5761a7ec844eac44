/**
 * How deep the lowering of one kernel may recurse. It follows the syntax
 * tree with several JavaScript frames per level (a statement, its
 * condition, an operand, the body of a function it inlines, the statements
 * after a `return` that may not be taken), so deep nesting in the source,
 * or a long chain of calls, would exhaust the stack: 1,000 nested `if`s or
 * a chain of 1,000 functions each calling the next did. Past the limit the
 * kernel is rejected (E0004) where the nesting goes past it; the file's other
 * kernels are lowered. The limit was checked to leave half the stack free at
 * its deepest (test/frontend/cuda/nesting.test.ts).
 */
import type { Kernel } from '../../core/ast.js';
import { kernelExcess, MAX_DEPTH, MAX_INLINED_SIZE } from '../../core/limits.js';
import type { SourceFile } from '../../core/source.js';
import { diagnosticOf, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { assertNever } from '../../util/assert.js';
import { KernelRejected } from './codes.js';
import type { Ctx, KernelState } from './context.js';
import type { Node } from './parse.js';

/** Statements, expressions and inlined calls nested in one another, counted together. */
export const MAX_LOWERING_DEPTH = 128;

const depths = new WeakMap<KernelState, number>();

/** `lower()`, one level deeper for the kernel being lowered: rejected at `n` past MAX_LOWERING_DEPTH. */
export function nested<T>(ctx: Ctx, n: Node, lower: () => T): T {
  const depth = (depths.get(ctx.k) ?? 0) + 1;
  if (depth > MAX_LOWERING_DEPTH) {
    throw new KernelRejected(
      diagnosticOf('nestedTooDeep', ctx.file, { start: n.startIndex, end: Math.min(n.endIndex, n.startIndex + 1) }, `nested too deep: more than ${MAX_LOWERING_DEPTH} statements, expressions and calls inside one another`, {
        hints: ['split the expression or the function, or shorten the chain of calls'],
      }),
    );
  }
  depths.set(ctx.k, depth);
  try {
    return lower();
  } finally {
    depths.set(ctx.k, depth - 1);
  }
}

/**
 * The lowered kernel past the limits of the stages after the front end
 * (core/limits.ts), as its rejection: each read from memory, local and `if`
 * nests the statements after it, so a long kernel may pass them as well as a
 * deep one.
 */
export function excessRejection(file: SourceFile, kernel: Kernel): Diagnostic | null {
  const excess = kernelExcess(kernel);
  if (excess === null) return null;
  switch (excess.kind) {
    case 'depth':
      return diagnosticOf('nestedTooDeep', file, excess.span, `nested too deep: the lowered kernel is ${excess.depth} levels deep here (limit ${MAX_DEPTH})`, {
        label: `level ${excess.depth}`,
        hints: [
          'in the lowered kernel (faial-ts lower), each statement after a read from memory, a local or an `if` is a level deeper, and each operand a level deeper than its operator',
          'split the kernel into several, or a long expression with locals',
        ],
      });
    case 'size':
      return diagnosticOf('tooLarge', file, excess.span, `the lowered kernel's expressions have more than ${MAX_INLINED_SIZE.toLocaleString('en-US')} operators and operands with its locals replaced by their values`, {
        label: 'the limit is passed here',
        hints: ['a local used several times in the value of the next one doubles its size at each step'],
      });
    default:
      return assertNever(excess);
  }
}
