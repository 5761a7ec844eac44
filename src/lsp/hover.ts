/**
 * Hover text (Markdown) for the place under the cursor in a verified file:
 * on an access, its MAP entry, the barrier phases it is in and whether its
 * index depends on data; on a barrier, the phases it separates and, when the
 * kernel diverges there, that it does. Read from the kernel's MAP, its phase
 * split and its result, as `infer --phases` and `verify` print them.
 */
import { exprVars } from '../core/exprs.js';
import { located, positionAt, type SourceFile, type Span } from '../core/source.js';
import { isDataDependent, type Access, type KernelMap, type SyncSite } from '../map/map.js';
import { showAccess } from '../map/print.js';
import { codeChildren, type Code } from '../phases/code.js';
import type { Phase, PhaseSplit } from '../phases/split.js';
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

interface Found<T> {
  readonly kernel: AnalysedKernel;
  readonly item: T;
  readonly span: Span;
}

/** The innermost of the items whose span, in the document, holds the offset. */
function innermost<T>(kernels: readonly AnalysedKernel[], path: string, offset: number, items: (k: AnalysedKernel) => readonly (T & { readonly span: Span })[]): Found<T> | null {
  let best: Found<T> | null = null;
  for (const kernel of kernels) {
    for (const item of items(kernel)) {
      const span = spanIn(kernel.map.file, item.span, path);
      if (span === null || !contains(span, offset)) continue;
      if (best === null || span.end - span.start < best.span.end - best.span.start) best = { kernel, item, span };
    }
  }
  return best;
}

/** The hover of the document at `path` at `offset`, with the span it is about; null where there is nothing to say. */
export function hoverAt(kernels: readonly AnalysedKernel[], path: string, offset: number): { readonly markdown: string; readonly span: Span } | null {
  const access = innermost(kernels, path, offset, (k) => k.map.accesses);
  if (access !== null) return { markdown: accessHover(access.kernel, access.item), span: access.span };
  const sync = innermost(kernels, path, offset, (k) => k.map.syncs);
  if (sync !== null) return { markdown: barrierHover(sync.kernel, sync.item), span: sync.span };
  return null;
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
  const diverges = k.result.divergences.find((d) => d.sync.id === s.id);
  if (diverges !== undefined) lines.push('', `diverges (${diverges.confidence}): some threads of the ${s.scope} reach it and others do not`);
  return lines.join('\n');
}
