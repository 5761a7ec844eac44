/**
 * The `--barriers` part of the text report: each barrier of a DRF kernel with
 * what removing it (alone) does. A redundant barrier is a warning and shows
 * the scope of its proof; a needed one names the alarm that proves it needed.
 */
import { colorsOf, framedSpan, lineColOf } from '../diagnostics/render.js';
import type { BarrierCheck, KernelResult } from '../verify/result.js';
import { assertNever } from '../util/assert.js';
import { accessNoun, dimText, elementText, idText, plural } from './describe.js';

/** What the kernel without the barrier has instead of a proof. */
export function withoutText(r: KernelResult, without: KernelResult): string {
  const race = without.races[0];
  if (race !== undefined) {
    const [a1, a2] = race.accesses;
    const more = without.races.length > 1 ? ' (and more)' : '';
    const [t1, t2] = race.witness.threads;
    const threads = `threads ${idText(t1.threadIdx, race.witness.blockDim)} and ${idText(t2.threadIdx, race.witness.blockDim)} of a block of ${dimText(race.witness.blockDim)}`;
    return `data race on ${elementText(race)} (${race.kind}, ${race.confidence}) between the ${accessNoun(a1)} at ${lineColOf(r.file, a1.span)} and the ${accessNoun(a2)} at ${lineColOf(r.file, a2.span)}, ${threads}${more}`;
  }
  const d = without.divergences[0];
  if (d !== undefined) return `barrier divergence at ${lineColOf(r.file, d.sync.span)} (${d.confidence})`;
  if (without.unknowns.length > 0) return `no proof: ${plural(without.unknowns.length, 'query', 'queries')} without an answer`;
  return `no proof: ${without.status}`;
}

/** One sentence on a barrier's verdict, as the JSON report gives it. */
export function barrierReasonText(r: KernelResult, b: BarrierCheck): string {
  switch (b.verdict) {
    case 'redundant':
      return 'without it the kernel is still proved DRF and free of barrier divergence';
    case 'needed':
    case 'not-proved':
      return `without it, ${withoutText(r, b.without)}`;
    default:
      return assertNever(b.verdict);
  }
}

function checkText(r: KernelResult, b: BarrierCheck, scope: string, colour: boolean): string {
  const c = colorsOf(colour);
  const at = lineColOf(r.file, b.sync.span);
  switch (b.verdict) {
    case 'redundant':
      return [
        `${c.yellow('warning')}: redundant barrier at ${at} — without it the kernel is still DRF and free of barrier divergence, proved ${scope}`,
        indent(framedSpan(r.file, b.sync.span, 'can be removed', colour)),
      ].join('\n');
    case 'needed':
      return `barrier at ${at}: needed — without it, ${withoutText(r, b.without)}`;
    case 'not-proved':
      return `barrier at ${at}: not proved redundant — without it, ${withoutText(r, b.without)}`;
    default:
      return assertNever(b.verdict);
  }
}

/** `barriers` is null when the kernel is not DRF. */
export function barriersText(r: KernelResult, barriers: readonly BarrierCheck[] | null, scope: string, colour: boolean): string {
  if (barriers === null) return 'barriers: not checked — only the barriers of a DRF kernel can be judged redundant';
  if (barriers.length === 0) return 'barriers: none';
  const redundant = barriers.filter((b) => b.verdict === 'redundant').length;
  const head = `barriers: ${plural(barriers.length, 'barrier')}, ${redundant} redundant (each removed alone and the kernel verified again)`;
  return [head, ...barriers.map((b) => checkText(r, b, scope, colour))].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}
