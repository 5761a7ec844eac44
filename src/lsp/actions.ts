/**
 * The code action of a racy or divergent BabyCUDA kernel, or of one with a
 * barrier proved redundant: the repair `fix` proves (barriers inserted,
 * hoisted or removed, the kernel then proved DRF and divergence-free), as one
 * text edit on the document. Offered only for a `fixed` kernel: a kernel
 * `fix` could not repair gets no action, never a guess. An alarm's repair
 * keeps the kernel's other barriers (`fix --keep-barriers`), so that it
 * changes no more than the alarm needs; a redundant barrier's removes every
 * barrier `fix` proves redundant, one at a time.
 */
import type { CodeAction, Diagnostic as LspDiagnostic, TextEdit } from 'vscode-languageserver';
import { positionAt, sourceFile } from '../core/source.js';
import type { KernelFix } from '../fix/fix.js';
import { plural } from '../report/describe.js';
import type { AlarmData } from './diagnostics.js';

/** The one edit that turns `before` into `after`: the text between their common prefix and suffix replaced. */
export function smallestEdit(before: string, after: string): TextEdit {
  let prefix = 0;
  const most = Math.min(before.length, after.length);
  while (prefix < most && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < most - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) suffix++;
  const file = sourceFile('', before);
  const at = (offset: number): { line: number; character: number } => {
    const p = positionAt(file, offset);
    return { line: p.line - 1, character: p.column - 1 };
  };
  return { range: { start: at(prefix), end: at(before.length - suffix) }, newText: after.slice(prefix, after.length - suffix) };
}

/** What the repair does, as the action's title says it. */
export function repairTitle(fix: Extract<KernelFix, { kind: 'fixed' }>): string {
  const r = fix.repair;
  const parts = [
    ...(r.inserted.length === 0 ? [] : [`insert ${plural(r.inserted.length, 'barrier')}`]),
    ...(r.hoisted.length === 0 ? [] : [`hoist ${plural(r.hoisted.length, 'barrier')} out of thread-dependent branches`]),
    ...(r.removed.length === 0 ? [] : [`remove ${plural(r.removed.length, 'redundant barrier')}`]),
  ];
  return `faial-ts: ${parts.join(', ')} in kernel ${fix.kernel} (proved DRF)`;
}

/** The diagnostic codes of this server whose kernel a repair can answer: an alarm, or a barrier proved redundant. */
const REPAIRABLE = new Set(['faial/data-race', 'faial/barrier-divergence', 'faial/redundant-barrier']);

/** The kernel a repairable diagnostic of this server is in; null for any other diagnostic. */
export function repairableKernel(d: LspDiagnostic): string | null {
  if (d.source !== 'faial-ts' || typeof d.code !== 'string' || !REPAIRABLE.has(d.code)) return null;
  const data = d.data as Partial<AlarmData> | undefined;
  return typeof data?.kernel === 'string' ? data.kernel : null;
}

/** Whether the repair asked for by these diagnostics removes redundant barriers (`fix` without `--keep-barriers`): only when one of them is a redundant barrier. */
export function removesBarriers(diagnostics: readonly LspDiagnostic[]): boolean {
  return diagnostics.some((d) => d.code === 'faial/redundant-barrier');
}

/** A repair `fix` proved, as the server's action says it: its title and the repaired text. */
export interface ProposedRepair {
  readonly title: string;
  readonly text: string;
}

/** The repair of a kernel `fix` repaired in a document whose text was `before`; null when it was not repaired or nothing changed. */
export function proposedRepair(before: string, fixed: { readonly fix: KernelFix; readonly text: string }): ProposedRepair | null {
  if (fixed.fix.kind !== 'fixed' || fixed.text === before) return null;
  return { title: repairTitle(fixed.fix), text: fixed.text };
}

/** The quick fix of a proposed repair of the document at `uri` whose text was `before`, for the diagnostics it answers. */
export function repairAction(uri: string, before: string, repair: ProposedRepair, diagnostics: readonly LspDiagnostic[]): CodeAction {
  return {
    title: repair.title,
    kind: 'quickfix',
    diagnostics: [...diagnostics],
    isPreferred: true,
    edit: { changes: { [uri]: [smallestEdit(before, repair.text)] } },
  };
}

/** Whether a client that asked only for actions of the kinds `only` (absent: any) wants one of `kind`. */
export function wantsKind(only: readonly string[] | undefined, kind: string): boolean {
  return only === undefined || only.some((k) => kind === k || kind.startsWith(`${k}.`));
}
