/**
 * `faial-ts fix`: the simplest repair of a racy kernel, one inserted `sync`.
 * The places tried are statement boundaries that every thread of a block
 * passes alike when the loops around them are uniform: between statements of
 * the kernel body, of a loop body (and at its start and end), and after the
 * `in` of a let, which splits a read-modify-write `let x = A[i+1] in A[i] := x`
 * into a read, a barrier and a write. Branches are not entered: a barrier
 * there diverges when the condition depends on the thread. A place counts
 * only when the verifier proves the whole kernel with the barrier DRF and
 * divergence-free; otherwise the kernel is reported as not repaired, with
 * the reason when it is a known dead end.
 */
import type { KernelMap } from '../map/map.js';
import type { Kernel, Stmt } from '../syntax/ast.js';
import { parseProgram } from '../syntax/parse.js';
import { positionAt, type SourceFile, type Span } from '../syntax/source.js';
import { assertNever } from '../util/assert.js';
import { checkedKernels } from '../verify/pipeline.js';
import type { KernelResult, Race } from '../verify/result.js';
import { verifyKernel, type VerifyOptions } from '../verify/verify.js';

/** A `sync` to insert: the text goes in at `offset`; the barrier itself lands at `at`. */
export interface Insertion {
  readonly offset: number;
  readonly text: string;
  /** the loop whose body the place is in; null at the top level */
  readonly loop: Span | null;
}

export type KernelFix =
  | { readonly kind: 'drf'; readonly kernel: string; readonly result: KernelResult }
  | { readonly kind: 'fixed'; readonly kernel: string; readonly before: KernelResult; readonly insertion: Insertion; readonly after: KernelResult; readonly tried: number }
  | { readonly kind: 'not-fixed'; readonly kernel: string; readonly before: KernelResult; readonly why: string; readonly tried: number };

/** At most this many places are verified per kernel: each costs a whole verification. */
export const MAX_TRIES = 16;

/** The indentation of the line `offset` is on, when only whitespace precedes it there; else null. */
function lineIndent(file: SourceFile, offset: number): string | null {
  const line = positionAt(file, offset).line;
  const before = file.text.slice(file.lineStarts[line - 1]!, offset);
  return /^[ \t]*$/.test(before) ? before : null;
}

function before(file: SourceFile, s: Stmt, loop: Span | null): Insertion {
  const indent = lineIndent(file, s.span.start);
  return { offset: s.span.start, text: indent === null ? 'sync; ' : `sync;\n${indent}`, loop };
}

function after(file: SourceFile, s: Stmt, loop: Span): Insertion {
  const start = file.lineStarts[positionAt(file, s.span.start).line - 1]!;
  const indent = /^[ \t]*/.exec(file.text.slice(start))![0];
  return { offset: s.span.end, text: `;\n${indent}sync`, loop };
}

/** The places of a statement list; `loop` is the loop whose body it is, null for the kernel body. */
function listPlaces(file: SourceFile, list: readonly Stmt[], loop: Span | null): Insertion[] {
  const out: Insertion[] = [];
  list.forEach((s, i) => {
    if (i > 0 || loop !== null) out.push(before(file, s, loop));
    out.push(...innerPlaces(file, s, loop));
  });
  const last = list[list.length - 1];
  if (loop !== null && last !== undefined) out.push(after(file, last, loop));
  return out;
}

function innerPlaces(file: SourceFile, s: Stmt, loop: Span | null): Insertion[] {
  switch (s.kind) {
    case 'read':
    case 'let':
      return [before(file, s.body, loop), ...innerPlaces(file, s.body, loop)];
    case 'for':
      return listPlaces(file, s.body, s.span);
    case 'if':
    case 'skip':
    case 'write':
    case 'sync':
    case 'assume':
      return [];
    default:
      return assertNever(s);
  }
}

export function barrierPlaces(file: SourceFile, kernel: Kernel): Insertion[] {
  return listPlaces(file, kernel.body, null);
}

function contains(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/**
 * Places between the race's two accesses first, in source order; then the
 * other places in the loops around either access, last first, so that the
 * end of an iteration (the usual place of a loop's barrier) comes first.
 */
export function placesFor(race: Race, places: readonly Insertion[]): Insertion[] {
  const [a, b] = race.accesses.map((x) => x.span);
  const lo = Math.min(a!.start, b!.start);
  const hi = Math.max(a!.end, b!.end);
  const between = places.filter((p) => lo < p.offset && p.offset <= hi);
  const around = places
    .filter((p) => !between.includes(p) && p.loop !== null && (contains(p.loop, a!) || contains(p.loop, b!)))
    .sort((x, y) => y.offset - x.offset);
  return [...between, ...around];
}

/** Why no barrier can help, for the races where that is known without trying. */
export function hopelessText(result: KernelResult, map: KernelMap): string | null {
  if (result.races.some((r) => r.level === 'grid')) {
    return 'a race between threads of different blocks: a barrier orders only the threads of one block';
  }
  const outsideLoops = (id: number): boolean => map.accesses.find((a) => a.id === id)?.loops.length === 0;
  const same = result.races.find((r) => r.accesses[0].id === r.accesses[1].id && outsideLoops(r.accesses[0].id));
  if (same !== undefined) {
    const p = positionAt(result.file, same.accesses[0].span.start);
    return `two threads run the same ${same.accesses[0].mode} at ${p.line}:${p.column} on the same element: no barrier separates a statement from itself; the index must differ between threads`;
  }
  return null;
}

export function insert(text: string, insertion: Insertion): string {
  return text.slice(0, insertion.offset) + insertion.text + text.slice(insertion.offset);
}

/**
 * The repair of the kernel `name` of a file, and the file's text with it. A
 * kernel that is not racy (DRF, divergent, not proved) is left alone and
 * reported as such.
 */
export async function fixKernel(path: string, text: string, name: string, options: VerifyOptions): Promise<{ fix: KernelFix; text: string }> {
  const checked = checkedKernels(path, text, name);
  const map = checked.ok ? checked.kernels[0] : undefined;
  if (map === undefined) throw new Error(`fix: no valid kernel ${name} in ${path}`);
  const before = await verifyKernel(map, options);
  const unchanged = (fix: KernelFix): { fix: KernelFix; text: string } => ({ fix, text });
  if (before.status === 'drf') return unchanged({ kind: 'drf', kernel: name, result: before });
  if (before.status !== 'racy') return unchanged({ kind: 'not-fixed', kernel: name, before, why: notRacyText(before), tried: 0 });
  const hopeless = hopelessText(before, map);
  if (hopeless !== null) return unchanged({ kind: 'not-fixed', kernel: name, before, why: hopeless, tried: 0 });

  const kernel = parseProgram(path, text).kernels.find((k) => k.name.text === name)!;
  const candidates = placesFor(before.races[0]!, barrierPlaces(map.file, kernel)).slice(0, MAX_TRIES);
  let tried = 0;
  for (const insertion of candidates) {
    tried++;
    const fixed = insert(text, insertion);
    const again = checkedKernels(path, fixed, name);
    if (!again.ok || again.kernels.length !== 1) continue;
    // one race is enough to reject a place
    const after = await verifyKernel(again.kernels[0]!, { ...options, maxRaces: 1 });
    if (after.status === 'drf') return { fix: { kind: 'fixed', kernel: name, before, insertion, after, tried }, text: fixed };
  }
  const why = `no single barrier at a block-uniform statement boundary near the race makes the kernel DRF (${tried} ${tried === 1 ? 'place' : 'places'} tried); it may need a barrier inside a thread-dependent branch (restructure the branch) or more than one barrier`;
  return unchanged({ kind: 'not-fixed', kernel: name, before, why, tried });
}

function notRacyText(r: KernelResult): string {
  switch (r.status) {
    case 'divergent':
      return 'the kernel has barrier divergence, which an inserted barrier cannot repair';
    case 'unknown':
      return 'the kernel is not proved DRF, but no race was found: there is nothing to repair as far as the verifier knows';
    case 'error':
      return 'the kernel has errors';
    case 'drf':
    case 'racy':
      throw new Error(`fix: status ${r.status} has no reason not to repair`);
    default:
      return assertNever(r.status);
  }
}
