/**
 * The inspectable stages as text, as `faial-ts lower`, `infer [--phases]`
 * and `smt` print them: the core program a file's kernels were lowered to,
 * a kernel's typing verdict and MAP, its barrier phases, and each solver
 * query as a standalone SMT-LIB 2 script. The CLI prints them; the
 * playground shows them in its tabs.
 */
import type { Launch } from '../core/launch.js';
import { showListing } from '../core/print.js';
import { kernelSexp } from '../core/sexp.js';
import type { Kernel, Program } from '../core/ast.js';
import { DiagnosticError, diagnosticOf, type Diagnostic } from '../diagnostics/diagnostic.js';
import { colorsOf } from '../diagnostics/render.js';
import type { Query } from '../encode/query.js';
import { EncodingLimit } from '../encode/smtlib.js';
import type { KernelMap } from '../map/map.js';
import { showMap } from '../map/print.js';
import { phaseLines, showPhases, type PhaseLine } from '../phases/print.js';
import { violationText } from '../report/describe.js';
import { standaloneScript } from '../solve/script.js';
import type { Solver } from '../solve/solver.js';
import { queryScripts, queryText } from '../verify/scripts.js';
import { phasesOf } from '../verify/verify.js';
import { isCudaPath, programOf, type FrontEnds, type RejectedKernel } from './check.js';

/** The core program of one kernel, in BabyCUDA-like syntax with each line's source line. */
export interface LoweredKernel {
  readonly name: string;
  readonly text: string;
}

export type LoweredProgram =
  | {
      readonly ok: true;
      readonly kernels: readonly LoweredKernel[];
      /** kernels the front end could not lower, each with the construct it rejected */
      readonly rejected: readonly RejectedKernel[];
      /** what the front end read and chose not to model */
      readonly notices: readonly Diagnostic[];
      /** `sexp`: kernels outside the Coq model's fragment, each with its first construct outside it (the others related) */
      readonly outsideModel: readonly RejectedKernel[];
    }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** How `lower` prints a kernel: the core program's listing, or the s-expression the Coq model's extracted semantics reads. */
export type LoweredForm = 'listing' | 'sexp';

/** What `faial-ts lower` prints: each kernel of the file as the core program it was lowered to (what is verified). */
export function loweredProgram(path: string, text: string, frontEnds: FrontEnds, form: LoweredForm = 'listing'): LoweredProgram {
  try {
    const { program, rejected, notices } = programOf(path, text, frontEnds);
    if (form === 'listing') {
      return { ok: true, kernels: program.kernels.map((k) => ({ name: k.name.text, text: showListing({ file: program.file, kernels: [k] }, isCudaPath(path) ? 'cuda' : 'bcu') })), rejected, notices, outsideModel: [] };
    }
    const kernels: LoweredKernel[] = [];
    const outsideModel: RejectedKernel[] = [];
    for (const k of program.kernels) {
      const printed = sexpOrRefusal(program, k);
      if (printed.kind === 'sexp') kernels.push({ name: k.name.text, text: printed.text });
      else outsideModel.push({ name: k.name.text, span: k.name.span, diagnostic: printed.diagnostic });
    }
    return { ok: true, kernels, rejected, notices, outsideModel };
  } catch (e) {
    if (e instanceof DiagnosticError) return { ok: false, diagnostics: e.diagnostics };
    throw e;
  }
}

/** A kernel's s-expression, or the diagnostic that refuses it: its first construct outside the fragment, the others related. */
function sexpOrRefusal(program: Program, k: Kernel): { readonly kind: 'sexp'; readonly text: string } | { readonly kind: 'outside'; readonly diagnostic: Diagnostic } {
  const printed = kernelSexp(k);
  if (printed.kind === 'sexp') return printed;
  const [first, ...others] = printed.reasons;
  const diagnostic = diagnosticOf('outsideModel', program.file, first!.span, `outside the Coq model's fragment: ${first!.what}`, {
    related: others.map((r) => ({ span: r.span, message: r.what })),
    hints: ["`lower --sexp` prints only what proofs/ models: BabyCUDA on naturals and machine integers, without syncwarp, unknown values or conditional expressions (proofs/README.md)"],
  });
  return { kind: 'outside', diagnostic };
}

/** The kernel's heading, typing verdict and MAP: one block of `infer`. */
export function inferText(map: KernelMap, colour: boolean): string {
  const c = colorsOf(colour);
  const typing =
    map.violations.length === 0
      ? [`${c.green('well-typed')}: yes — indices, conditions and loop bounds use only parameters, thread ids and loop variables`]
      : [`${c.yellow('well-typed')}: no — data-dependent values are used where the type system needs V:`, ...map.violations.map((v) => `  ${violationText(map.file, v)}`)];
  return [`${c.bold(`kernel ${map.name}`)} (${map.file.path})`, ...typing, showMap(map)].join('\n');
}

/** The barrier phases, as `infer --phases` adds them (the split asks the solver whether loops complete). */
export async function phasesText(map: KernelMap, launch: Launch, timeoutMs: number, solver: Solver): Promise<string> {
  return showPhases(map, await phasesOf(map, launch, timeoutMs, solver));
}

/** The same listing line by line, each phase's heading with its phase (the playground links it to the phase's source). */
export async function phaseLinesOf(map: KernelMap, launch: Launch, timeoutMs: number, solver: Solver): Promise<PhaseLine[]> {
  return phaseLines(map, await phasesOf(map, launch, timeoutMs, solver));
}

/** One query as a standalone SMT-LIB 2 script that asks for its model. */
export function queryScript(q: Query): string {
  return `; query ${q.id}\n${standaloneScript(queryText(q))}`;
}

/**
 * Each query of the kernel as a standalone script, or one comment saying why
 * there is none. The phase split's completion checks have no query id and are
 * not listed (`smt --out` writes them).
 */
export async function queryListing(map: KernelMap, launch: Launch, timeoutMs: number, solver: Solver): Promise<string[]> {
  try {
    const scripts = (await queryScripts(map, launch, timeoutMs, solver)).flatMap((s) => (s.query === null ? [] : [`; query ${s.query.id}\n${standaloneScript(s.script)}`]));
    return scripts.length === 0 ? [`; kernel ${map.name}: no query (nothing can race or diverge)`] : scripts;
  } catch (e) {
    // An encoding limit stops this kernel's queries, not the other kernels'.
    if (!(e instanceof EncodingLimit)) throw e;
    return [`; kernel ${map.name}: queries not printed: ${e.message}`];
  }
}
