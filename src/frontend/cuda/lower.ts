/**
 * The CUDA front end: a .cu file's text → preprocessed translation unit →
 * syntax tree → core program, with the kernels it rejects and the notices
 * about what it read and did not model. The unit is the core's source file;
 * its origin map leads every span back to the .cu file, the header it was
 * included from, and the macro uses it was expanded from. Parsing needs the
 * grammar, loaded once (parse.ts); the rest is synchronous and pure.
 */
import { preprocess, type PreprocessOptions } from './preprocess/index.js';
import { coreDiagnostic, coreSources } from './preprocess/origin.js';
import { MAX_SYNTAX_DEPTH, parseCuda, type CudaGrammar } from './parse.js';
import { lowerUnit, type LoweredUnit } from './unit.js';
import { cudaDiagnostic } from './codes.js';
import { dimsText, hostLaunches, launchRequires, launchSitesOf } from './host-launch.js';
import { diagnosticOf, type Diagnostic } from '../../diagnostics/diagnostic.js';

export type { LoweredUnit, RejectedKernel } from './unit.js';

/** What the CUDA front end needs besides the text: the grammar, the preprocessor's -D, -U, -I and file reader, and which launch sizes the caller fixes. */
export interface CudaSetup extends PreprocessOptions {
  readonly grammar: CudaGrammar;
  /**
   * The sizes a kernel is verified at when the caller leaves them open: those
   * of the launches the file's host code makes (`all` absent or false), or
   * every size (`--any-launch`). `given` names the sizes the caller (command
   * line, test header) fixes itself, which the host's launches do not touch.
   */
  readonly launches?: { readonly any: boolean; readonly given: readonly ('blockDim' | 'gridDim')[] };
}

export function lowerCuda(setup: CudaSetup, path: string, text: string): LoweredUnit {
  const pre = preprocess({ path, text }, setup);
  const { unit, files } = coreSources(pre);
  const problems = pre.diagnostics.map((d) => coreDiagnostic(d, files));
  const errors = problems.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { program: { file: unit, kernels: [] }, rejected: [], notices: [], errors };
  const parsed = parseCuda(setup.grammar, pre.text);
  if (parsed.kind === 'tooDeep') {
    const span = { start: parsed.offset, end: Math.min(unit.text.length, parsed.offset + 1) };
    const tooDeep = diagnosticOf('nestedTooDeep', unit, span, `nested too deep: the syntax tree is more than ${MAX_SYNTAX_DEPTH} levels deep here`, {
      hints: ['each bracket, block, statement and operator is a level; split the expression or the function'],
    });
    return { program: { file: unit, kernels: [] }, rejected: [], notices: [], errors: [tooDeep] };
  }
  const lowered = lowerUnit(unit, parsed.root);
  const atLaunches = setup.launches?.any === true ? lowered : withHostLaunches(lowered, setup.launches?.given ?? []);
  return { ...atLaunches, notices: [...problems, ...atLaunches.notices] };
}

/**
 * Each kernel fixed to the sizes its launches in this file agree on (a
 * `requires` at the launch site, which `lower` shows), with a note that says
 * so: a kernel written for `blockDim.x == BLOCK` is verified at the launches
 * its program makes, not at every launch.
 */
function withHostLaunches(lowered: LoweredUnit, given: readonly ('blockDim' | 'gridDim')[]): LoweredUnit {
  const launches = hostLaunches(launchSitesOf(lowered.program.file.text));
  if (launches.size === 0) return lowered;
  const notices: Diagnostic[] = [];
  const kernels = lowered.program.kernels.map((k) => {
    const launch = launches.get(k.name.text.replace(/<.*$/s, '').replace(/^.*::/, ''));
    if (launch === undefined) return k;
    const site = launch.sites[0]!;
    const fixed = [
      ...(launch.grid !== null && !given.includes('gridDim') ? [{ builtin: 'gridDim' as const, dims: launch.grid }] : []),
      ...(launch.block !== null && !given.includes('blockDim') ? [{ builtin: 'blockDim' as const, dims: launch.block }] : []),
    ];
    if (fixed.length === 0) return k;
    const where = launch.sites.length === 1 ? 'its launch here' : `the ${launch.sites.length} launches of this file, which agree on it`;
    const open = (['gridDim', 'blockDim'] as const).filter((b) => !fixed.some((f) => f.builtin === b) && !given.includes(b));
    notices.push(
      cudaDiagnostic('launchFromHost', lowered.program.file, site.span, `kernel ${k.name.text} is verified at ${fixed.map((f) => `${f.builtin} = ${dimsText(f.dims)}`).join(', ')}, from ${where}${open.length > 0 ? ` (${open.join(' and ')}: every value)` : ''}`, {
        hints: ['--any-launch verifies it at every launch'],
      }),
    );
    return { ...k, requires: [...k.requires, ...fixed.flatMap((f) => launchRequires(f.builtin, f.dims, site.span))] };
  });
  return { ...lowered, program: { ...lowered.program, kernels }, notices: [...lowered.notices, ...notices] };
}
