import { checkedKernels } from '../../../src/api/check.js';
import { cudaGrammar, frontEndsFor } from '../../../src/cli/cuda.js';
import { NO_LAUNCH } from '../../../src/core/launch.js';
import { verifyKernel } from '../../../src/verify/verify.js';
import type { KernelResult } from '../../../src/verify/result.js';
import { z3Wasm } from '../../../src/solve/z3.js';
import { lowerCuda, type LoweredUnit } from '../../../src/frontend/cuda/lower.js';
import { showListing } from '../../../src/core/print.js';
import { renderedDiagnostic } from '../../../src/diagnostics/render.js';

export interface LowerOptions {
  readonly files?: Readonly<Record<string, string>>;
  readonly defines?: readonly (readonly [string, string | null])[];
}

/** The CUDA text lowered as `k.cu`, with the other files given by name. */
export async function lowered(text: string, options: LowerOptions = {}, path = 'k.cu'): Promise<LoweredUnit> {
  const files = options.files ?? {};
  return lowerCuda(
    { grammar: await cudaGrammar(), defines: new Map(options.defines ?? []), undefines: [], includeDirs: [], readFile: (p) => files[p] ?? null },
    path,
    text,
  );
}

/** The core program as `lower` prints it, without the source-line comments, lines trimmed of trailing space. */
export async function core(text: string, options: LowerOptions = {}): Promise<string> {
  const unit = await lowered(text, options);
  const problems = [...unit.errors, ...unit.rejected.map((r) => r.diagnostic)];
  if (problems.length > 0) throw new Error(problems.map((d) => renderedDiagnostic(d, false)).join('\n'));
  return showListing(unit.program)
    .split('\n')
    .map((l) => l.replace(/\s+\/\/ k\.cu:\d+.*$/, '').trimEnd())
    .join('\n');
}

/** A kernel's body as `lower` prints it, for the tests of one construct: the lines between the braces, dedented. */
export async function body(text: string, options: LowerOptions = {}): Promise<string> {
  const lines = (await core(text, options)).split('\n');
  const open = lines.indexOf('{');
  const close = lines.lastIndexOf('}');
  return lines
    .slice(open + 1, close)
    .filter((l) => !/^  (global|shared) /.test(l))
    .map((l) => l.slice(2))
    .join('\n');
}

/** The one diagnostic of the one rejected kernel, rendered. */
export async function rejection(text: string): Promise<string> {
  const unit = await lowered(text);
  if (unit.rejected.length !== 1) throw new Error(`expected one rejected kernel, got ${unit.rejected.length}:\n${showListing(unit.program)}`);
  return renderedDiagnostic(unit.rejected[0]!.diagnostic, false);
}

/** The kernels of the CUDA text `k.cu`: the rejected ones (`error: ` and the message), and each lowered one verified for every launch. */
export async function verified(text: string, maxRaces: number): Promise<{ readonly rejected: readonly string[]; readonly results: readonly KernelResult[] }> {
  const checked = checkedKernels('k.cu', text, undefined, undefined, await frontEndsFor('k.cu', text, {}));
  if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
  const results: KernelResult[] = [];
  for (const map of checked.kernels) results.push(await verifyKernel(map, { launch: NO_LAUNCH, timeoutMs: 60_000, maxRaces, solver: z3Wasm }));
  return { rejected: checked.rejected.map((r) => `error: ${r.diagnostic.message}`), results };
}
