/**
 * The code action of a racy or divergent BabyCUDA kernel: the repair `fix`
 * proves (barriers inserted, hoisted or removed, the kernel then proved DRF
 * and divergence-free), as one text edit on the document. Offered only for
 * a `fixed` kernel: a kernel `fix` could not repair gets no action, never a
 * guess.
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

/** The kernel an alarm diagnostic of this server is in; null for any other diagnostic. */
export function alarmKernel(d: LspDiagnostic): string | null {
  if (d.source !== 'faial-ts' || (d.code !== 'faial/data-race' && d.code !== 'faial/barrier-divergence')) return null;
  const data = d.data as Partial<AlarmData> | undefined;
  return typeof data?.kernel === 'string' ? data.kernel : null;
}

/** The quick fix of a kernel `fix` repaired in the document at `uri` whose text was `before`; null when it was not repaired. */
export function repairAction(uri: string, before: string, fixed: { readonly fix: KernelFix; readonly text: string }, diagnostics: readonly LspDiagnostic[]): CodeAction | null {
  if (fixed.fix.kind !== 'fixed' || fixed.text === before) return null;
  return {
    title: repairTitle(fixed.fix),
    kind: 'quickfix',
    diagnostics: [...diagnostics],
    isPreferred: true,
    edit: { changes: { [uri]: [smallestEdit(before, fixed.text)] } },
  };
}
