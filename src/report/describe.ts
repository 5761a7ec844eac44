/**
 * Phrases shared by the text and JSON reports, so that both say the same
 * thing about why an alarm is only possible or why a kernel is not well-typed.
 */
import type { TypingViolation } from '../map/map.js';
import type { Launch } from '../encode/query.js';
import { positionAt, spanText, type SourceFile, type Span } from '../syntax/source.js';
import type { Confidence, Doubt, KernelResult, Status } from '../verify/result.js';
import { assertNever } from '../util/assert.js';

function at(file: SourceFile, span: Span): string {
  const p = positionAt(file, span.start);
  return `${p.line}:${p.column}`;
}

export function doubtText(file: SourceFile, d: Doubt): string {
  switch (d.kind) {
    case 'data':
      return `depends on ${d.variable}, read from ${spanText(file, d.origin.span)} at ${at(file, d.origin.span)}`;
    case 'approximated-loop':
      return `the barriers of the loop at ${at(file, d.span)} were erased (over-approximation)`;
    case 'large-shift':
      return 'relies on a shift by a large amount, which is over-approximated';
    case 'divergence-unknown':
      return `barrier divergence at the sync at ${at(file, d.sync.span)} was not ruled out (query ${d.query} unknown)`;
    case 'assumption':
      return d.span === null || d.thread === null
        ? `the witness's launch was not proved to satisfy every assumption (query ${d.query} unknown)`
        : `at the witness's launch, thread ${compactId(d.thread.threadIdx)} of block ${compactId(d.thread.blockIdx)} may fail the assumption at ${at(file, d.span)}, which would exclude the launch`;
    default:
      return assertNever(d);
  }
}

/** Why an alarm is (or is not) a proof of a bug. */
export function reasonText(file: SourceFile, confidence: Confidence, doubts: readonly Doubt[]): string {
  if (confidence === 'confirmed' || doubts.length === 0) {
    return 'the witness depends only on parameters, launch, thread ids and loop variables, so it is a real execution';
  }
  return doubts.map((d) => doubtText(file, d)).join('; ');
}

/** `y (read from A[x] at 3:5) used in index at 4:9` */
export function violationText(file: SourceFile, v: TypingViolation): string {
  return `${v.variable} (read from ${spanText(file, v.origin.span)} at ${at(file, v.origin.span)}) used in ${v.use} at ${at(file, v.span)}`;
}

export function wellTypedText(r: Pick<KernelResult, 'file' | 'wellTyped' | 'violations' | 'races' | 'divergences'>): string {
  if (r.wellTyped) {
    // Theorem 1 covers the typing, not the tool's own approximations (erased barriers, large shifts, undecided barriers)
    const approximated = [...r.races, ...r.divergences].some((a) => a.confidence === 'possible');
    return approximated ? 'well-typed: yes — no alarm depends on data; the possible ones come from approximations of the tool' : 'well-typed: yes — every alarm is a proof of a bug';
  }
  return `well-typed: no — ${r.violations.map((v) => violationText(r.file, v)).join('; ')}`;
}

/** What a vacuous verdict means, in every report. */
export const VACUOUS_TEXT = "no launch satisfies the kernel's assumptions (requires, launch clause, command line, assume): every query would hold vacuously, so nothing is proved";

/** `3`, or `(3,1,0)` when y or z is not 0. */
function compactId(v: readonly bigint[]): string {
  return idText(v, v.map((c, i) => (i > 0 && c !== 0n ? 2n : 1n)));
}

/** `(32,1,1)`, or `32` when only x is meaningful. */
export function dimText(v: readonly bigint[]): string {
  const [x = 1n, y = 1n, z = 1n] = v;
  return y === 1n && z === 1n ? String(x) : `(${x},${y},${z})`;
}

export function idText(v: readonly bigint[], dims: readonly bigint[]): string {
  const [x = 0n, y = 0n, z = 0n] = v;
  return (dims[1] ?? 1n) === 1n && (dims[2] ?? 1n) === 1n ? String(x) : `(${x},${y},${z})`;
}

/** The facts the command line added, or null when it added none. */
export function launchText(launch: Launch): string | null {
  const parts = [...launch.params].map(([n, v]) => `${n} = ${v}`);
  if (launch.blockDim) parts.push(`blockDim = ${dimText(launch.blockDim)}`);
  if (launch.gridDim) parts.push(`gridDim = ${dimText(launch.gridDim)}`);
  return parts.length === 0 ? null : parts.join(', ');
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}

export function elementText(array: string, index: readonly bigint[]): string {
  return `${array}${index.map((i) => `[${i}]`).join('')}`;
}

/** Every verdict, in the order reports list them. */
export const STATUSES = ['drf', 'racy', 'divergent', 'vacuous', 'unknown', 'error'] as const satisfies readonly Status[];

export function statusName(s: Status): string {
  switch (s) {
    case 'drf':
      return 'DRF';
    case 'racy':
      return 'racy';
    case 'divergent':
      return 'divergent';
    case 'vacuous':
      return 'vacuous';
    case 'unknown':
      return 'unknown';
    case 'error':
      return 'error';
    default:
      return assertNever(s);
  }
}
