import { parseProgram } from '../../src/frontend/bcu/parse.js';
import type { Kernel } from '../../src/core/ast.js';
import { runKernel, type Finished, type Launch, type RunOptions, type RunResult, type Access } from '../../src/semantics/interpret.js';
import type { Vec3 } from '../../src/semantics/values.js';

export function kernelOf(text: string, name?: string): Kernel {
  const program = parseProgram('test.bcu', text);
  const kernel = name === undefined ? program.kernels[0] : program.kernels.find((k) => k.name.text === name);
  if (kernel === undefined) throw new Error(`no kernel ${name ?? ''}`);
  return kernel;
}

export function dim(x: number, y = 1, z = 1): Vec3 {
  return [BigInt(x), BigInt(y), BigInt(z)];
}

export function run(text: string, launch: Partial<Launch> & { block?: number; grid?: number }, options: RunOptions = {}): RunResult {
  const { block, grid, ...rest } = launch;
  return runKernel(
    kernelOf(text),
    {
      params: rest.params ?? {},
      ...(rest.blockDim !== undefined ? { blockDim: rest.blockDim } : block !== undefined ? { blockDim: dim(block) } : {}),
      ...(rest.gridDim !== undefined ? { gridDim: rest.gridDim } : grid !== undefined ? { gridDim: dim(grid) } : {}),
    },
    options,
  );
}

/** The result, which must have finished. */
export function finished(result: RunResult): Finished {
  if (result.kind !== 'finished') throw new Error(`expected a finished run, got ${result.kind}: ${'message' in result ? result.message : ''}`);
  return result;
}

/** A compact text of one access: `rd A[0]=0` / `wr A[1]=5`. */
export function accessText(a: Access): string {
  const kind = a.kind === 'read' ? 'rd' : a.kind === 'write' ? 'wr' : `atomic ${a.op ?? ''}`;
  return `${kind} ${a.array}[${a.index.join('][')}]=${a.value}`;
}

/** Block 0's history: for each phase, thread x → its accesses as text. */
export function history(result: Finished, block = 0): Record<string, string[]>[] {
  return result.blocks[block]!.phases.map((p) => Object.fromEntries(p.threads.map((t) => [String(t.thread[0]), t.accesses.map(accessText)])));
}

/** The text of a source span. */
export function textAt(source: string, span: { start: number; end: number }): string {
  return source.slice(span.start, span.end);
}
