/**
 * Hover text (Markdown) for the place under the cursor in a verified file:
 * on an access, its MAP entry, the barrier phases it is in and whether its
 * index depends on data; on a barrier, the phases it separates, whether it
 * is redundant (when the `barriers` setting asked) and, when the kernel
 * diverges there, that it does. Read from the kernel's MAP, its phase
 * split and its result, as `infer --phases` and `verify` print them.
 */
import { exprVars } from '../core/exprs.js';
import { located, positionAt, type SourceFile, type Span } from '../core/source.js';
import { isDataDependent, type Access, type KernelMap, type SyncSite } from '../map/map.js';
import { showAccess } from '../map/print.js';
import { codeChildren, type Code } from '../phases/code.js';
import type { Phase, PhaseSplit } from '../phases/split.js';
import { barrierReasonText } from '../report/barriers.js';
import { statusName } from '../report/describe.js';
import type { KernelResult } from '../verify/result.js';

/** A kernel as the server keeps it after verification: its MAP, phase split (null: the split failed) and result. */
export interface AnalysedKernel {
  readonly map: KernelMap;
  readonly split: PhaseSplit | null;
  readonly result: KernelResult;
}

/** The span of `file` at `span` in the document at `path`, or null when it lies elsewhere (a header, a macro's definition). */
function spanIn(file: SourceFile, span: Span, path: string): Span | null {
  const at = located(file, span);
  return at.file.path === path ? at.span : null;
}

const contains = (span: Span, offset: number): boolean => span.start <= offset && offset <= span.end;

/** What a hover says about one place of the document: its span there and its Markdown. */
export interface HoverEntry {
  readonly span: Span;
  readonly markdown: string;
}

/**
 * Every hover of a document, computed once when it is verified (in the
 * verifier's worker, which has the kernels; what crosses to the server is
 * this plain data): the accesses', then the barriers', each at its span in
 * the document.
 */
export interface HoverTable {
  readonly accesses: readonly HoverEntry[];
  readonly syncs: readonly HoverEntry[];
}

/** The hovers of the accesses and barriers of `kernels` that are in the document at `path`. */
export function hoverTable(kernels: readonly AnalysedKernel[], path: string): HoverTable {
  const entries = <T extends { readonly span: Span }>(items: (k: AnalysedKernel) => readonly T[], hover: (k: AnalysedKernel, item: T) => string): HoverEntry[] =>
    kernels.flatMap((k) =>
      items(k).flatMap((item) => {
        const span = spanIn(k.map.file, item.span, path);
        return span === null ? [] : [{ span, markdown: hover(k, item) }];
      }),
    );
  return { accesses: entries((k) => k.map.accesses, accessHover), syncs: entries((k) => k.map.syncs, barrierHover) };
}

/** The innermost of the entries whose span holds the offset. */
function innermost(entries: readonly HoverEntry[], offset: number): HoverEntry | null {
  let best: HoverEntry | null = null;
  for (const e of entries) {
    if (contains(e.span, offset) && (best === null || e.span.end - e.span.start < best.span.end - best.span.start)) best = e;
  }
  return best;
}

/** The hover at `offset`, an access's before a barrier's; null where there is nothing to say. */
export function hoverAt(table: HoverTable, offset: number): HoverEntry | null {
  return innermost(table.accesses, offset) ?? innermost(table.syncs, offset);
}

function where(file: SourceFile, span: Span): string {
  const at = located(file, span);
  const p = positionAt(at.file, at.span.start);
  return `${p.line}:${p.column}`;
}

function barrierName(s: SyncSite): string {
  return s.scope === 'warp' ? 'syncwarp' : 'sync';
}

function endsText(file: SourceFile, syncs: readonly SyncSite[], none: string): string {
  return syncs.length === 0 ? none : syncs.map((s) => `the ${barrierName(s)} at ${where(file, s.span)}`).join(' or ');
}

function phaseText(file: SourceFile, p: Phase): string {
  return `phase ${p.id} (from ${endsText(file, p.opens, 'the start')} to ${endsText(file, p.closes, 'the end')})`;
}

function holdsAccess(c: Code, id: number): boolean {
  return (c.kind === 'access' && c.access.id === id) || codeChildren(c).some((x) => holdsAccess(x, id));
}

function kernelLine(k: AnalysedKernel): string {
  return `kernel \`${k.map.name}\`: ${statusName(k.result.status)}`;
}

function accessHover(k: AnalysedKernel, a: Access): string {
  const file = k.map.file;
  const lines = [`**faial-ts** · ${kernelLine(k)}`, '', `MAP entry: \`${showAccess(a)}\``];
  if (k.split === null) lines.push('', 'phases: not split (the kernel was not verified)');
  else {
    const phases = k.split.phases.filter((p) => holdsAccess(p.code, a.id));
    lines.push('', phases.length === 0 ? 'phases: in none (unreachable)' : `${phases.length === 1 ? 'in' : 'in each of'} ${phases.map((p) => phaseText(file, p)).join(', ')}`);
  }
  const vars = new Set<string>();
  for (const e of a.index) exprVars(e, vars);
  const dependent = [...vars].flatMap((v) => {
    const info = k.map.vars.get(v);
    if (!isDataDependent(info)) return [];
    return info.kind === 'data' ? [`\`${info.source}\` (read from ${info.origin.array} at ${where(file, info.origin.span)})`] : [`\`${info.source}\` (${info.origin.what} at ${where(file, info.origin.span)})`];
  });
  lines.push('', dependent.length === 0 ? 'index: not data-dependent (parameters, thread ids and loop variables only)' : `index: data-dependent on ${dependent.join(', ')}: alarms on it are only possible`);
  const races = k.result.races.filter((r) => r.accesses.some((x) => x.id === a.id)).length;
  if (races > 0) lines.push('', `in ${races} race${races === 1 ? '' : 's'} of this kernel`);
  return lines.join('\n');
}

function barrierHover(k: AnalysedKernel, s: SyncSite): string {
  const file = k.map.file;
  const lines = [`**faial-ts** · ${kernelLine(k)}`, '', `\`${barrierName(s)}\`: a barrier among the threads of a ${s.scope}`];
  if (k.split === null) lines.push('', 'phases: not split (the kernel was not verified)');
  else {
    const before = k.split.phases.filter((p) => p.closes.some((c) => c.id === s.id));
    const after = k.split.phases.filter((p) => p.opens.some((c) => c.id === s.id));
    const list = (ps: readonly Phase[]): string => (ps.length === 0 ? 'none' : ps.map((p) => phaseText(file, p)).join(', '));
    lines.push('', `ends ${list(before)}`, '', `opens ${list(after)}`);
  }
  const check = k.result.barriers?.find((b) => b.sync.id === s.id);
  if (check !== undefined) lines.push('', `${check.verdict === 'not-proved' ? 'not proved redundant' : check.verdict}: ${barrierReasonText(k.result, check)}`);
  const diverges = k.result.divergences.find((d) => d.sync.id === s.id);
  if (diverges !== undefined) lines.push('', `diverges (${diverges.confidence}): some threads of the ${s.scope} reach it and others do not`);
  return lines.join('\n');
}
