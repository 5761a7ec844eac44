/**
 * `faial-ts fix`: repair a kernel with barriers, every step proved by the
 * verifier on the rewritten text.
 *
 * 1. A barrier that diverges because it is under a thread-dependent branch
 *    is hoisted out of the branch (the branch is split around it).
 * 2. Races are repaired with a smallest set of inserted barriers (see
 *    search.ts), each hoisted out of thread-dependent branches the same way.
 * 3. Barriers of the kernel that are redundant are removed one at a time,
 *    each removal proved on the text without the barriers removed before it
 *    (two barriers that are each redundant may not be redundant together).
 *
 * A kernel is reported repaired only when the verifier proves the final text
 * DRF and free of barrier divergence; otherwise it is left as it was, with
 * the reason when it is known.
 */
import type { KernelMap } from '../map/map.js';
import { parseProgram } from '../frontend/bcu/parse.js';
import { sourceFile, type SourceFile, type Span } from '../core/source.js';
import { lineColOf } from '../diagnostics/render.js';
import { assertNever } from '../util/assert.js';
import { barrierVerdictOf } from '../verify/barriers.js';
import { checkedKernels } from '../api/check.js';
import type { KernelResult } from '../verify/result.js';
import { verifyKernel, type VerifyOptions } from '../verify/verify.js';
import { hopelessText, searchFailureText, stuckText, type Locate } from './explain.js';
import { forwardOf, layoutOf, originOf, pointBefore, rewrite, type Layout, type Piece, type Point, type Rewrite } from './layout.js';
import { constraintOf, searchBarriers, type Fewest, type Limits, type Verdict } from './search.js';

export interface FixOptions extends VerifyOptions {
  /** leave redundant barriers in place */
  readonly keepBarriers: boolean;
  readonly limits: Limits;
}

/** A barrier that diverged, moved out of the thread-dependent branches around it. */
export interface Hoist {
  readonly sync: Span;
  readonly branches: readonly Span[];
}

/** What changed. Spans are in the text given to fixKernel; `inserted` are offsets in the repaired text. */
export interface Repair {
  readonly hoisted: readonly Hoist[];
  readonly inserted: readonly number[];
  /** the branches split to hoist inserted barriers */
  readonly split: readonly Span[];
  /** why fewer inserted barriers do not work; null when none was inserted */
  readonly fewest: Fewest | null;
  readonly removed: readonly Span[];
}

/** Verifications of whole kernels done for the repair, and the solver queries they asked. */
export interface Work {
  readonly verifications: number;
  readonly queries: number;
}

export type KernelFix =
  /** `barriersChecked`: whether its barriers were checked for redundancy (none was redundant) */
  | { readonly kind: 'drf'; readonly kernel: string; readonly result: KernelResult; readonly barriersChecked: boolean; readonly work: Work }
  | { readonly kind: 'fixed'; readonly kernel: string; readonly before: KernelResult; readonly after: KernelResult; readonly repair: Repair; readonly work: Work }
  | { readonly kind: 'not-fixed'; readonly kernel: string; readonly before: KernelResult; readonly why: string; readonly work: Work };

/** The text being repaired, and the rewrites that led to it from the text given. */
interface State {
  readonly text: string;
  readonly history: readonly (readonly Piece[])[];
}

function inputOffset(state: State, offset: number): number | null {
  let at: number | null = offset;
  for (let i = state.history.length - 1; i >= 0 && at !== null; i--) at = originOf(state.history[i]!, at);
  return at;
}

function inputSpan(state: State, span: Span): Span {
  const start = inputOffset(state, span.start);
  return start === null ? span : { start, end: start + span.end - span.start };
}

/** A span of the rewritten text in the text it was rewritten from; null when it is new text. */
function originSpan(rw: Rewrite, span: Span): Span | null {
  const start = originOf(rw.pieces, span.start);
  return start === null ? null : { start, end: start + span.end - span.start };
}

function advanced(state: State, rw: Rewrite): State {
  return { text: rw.text, history: [...state.history, rw.pieces] };
}

type Stage<T> = { readonly kind: 'done'; readonly state: State; readonly result: KernelResult; readonly value: T } | { readonly kind: 'stuck'; readonly why: string };

interface Context {
  readonly path: string;
  readonly name: string;
  readonly options: FixOptions;
  /** `line:col` in the text given */
  readonly input: SourceFile;
  readonly verify: (map: KernelMap, maxRaces: number) => Promise<KernelResult>;
}

function mapOf(ctx: Context, text: string): KernelMap {
  const checked = checkedKernels(ctx.path, text, ctx.name);
  const map = checked.ok ? checked.kernels[0] : undefined;
  if (map === undefined) throw new Error(`fix: no valid kernel ${ctx.name} in the rewritten text`);
  return map;
}

function kernelOf(ctx: Context, text: string): { map: KernelMap; layout: Layout } {
  const map = mapOf(ctx, text);
  const program = parseProgram(ctx.path, text);
  return { map, layout: layoutOf(program.file, program.kernels.find((k) => k.name.text === ctx.name)!) };
}

function locator(ctx: Context, state: State): Locate {
  return (span) => lineColOf(ctx.input, inputSpan(state, span));
}

/** The rewritten kernel, or why its text is not a valid kernel. */
function rewrittenMap(ctx: Context, rw: Rewrite): KernelMap | string {
  const checked = checkedKernels(ctx.path, rw.text, ctx.name);
  if (!checked.ok) return checked.diagnostics[0]?.message ?? 'not a valid kernel';
  return checked.kernels[0] ?? `no kernel ${ctx.name}`;
}

// ---------------------------------------------------------------------------
// 1. Divergent barriers

async function hoistDivergent(ctx: Context, state: State, result: KernelResult): Promise<Stage<Hoist[]>> {
  const at = locator(ctx, state);
  const { layout } = kernelOf(ctx, state.text);
  const sites = [...new Map(result.divergences.map((d) => [d.sync.span.start, d.sync])).values()];
  const syncs = sites.map((s) => s.span);
  const insert = new Set<number>();
  // a hoisted syncwarp stays one
  const warp = new Set<number>();
  const hoisted: Hoist[] = [];
  for (const { span: sync, scope } of sites) {
    const p = pointBefore(layout, sync.start);
    if (p === null) throw new Error(`fix: no statement list holds the barrier at ${at(sync)}`);
    const stuck = stuckText(p.block, at);
    if (stuck !== null) return { kind: 'stuck', why: `the barrier at ${at(sync)} diverges and cannot be hoisted: ${stuck}` };
    if (p.block.splits.length === 0) return { kind: 'stuck', why: `the barrier at ${at(sync)} diverges, and no thread-dependent branch around it can be split` };
    insert.add(p.id);
    if (scope === 'warp') warp.add(p.id);
    hoisted.push({ sync: inputSpan(state, sync), branches: p.block.splits.map((s) => inputSpan(state, s.span)) });
  }
  const rw = rewrite(layout, { insert, warp, remove: new Set(syncs.map((s) => s.start)) });
  const where = syncs.map(at).join(', ');
  const map = rewrittenMap(ctx, rw);
  if (typeof map === 'string') return { kind: 'stuck', why: `hoisting the diverging barrier at ${where} out of its thread-dependent branch leaves a name out of scope (${map})` };
  const after = await ctx.verify(map, ctx.options.maxRaces);
  if (after.status === 'divergent') return { kind: 'stuck', why: `the kernel still has barrier divergence with the barrier at ${where} hoisted out of its thread-dependent branch` };
  if (after.status === 'unknown' || after.status === 'error') {
    return { kind: 'stuck', why: `with the diverging barrier at ${where} hoisted out of its thread-dependent branch, the kernel is not proved DRF (${after.status})` };
  }
  return { kind: 'done', state: advanced(state, rw), result: after, value: hoisted };
}

// ---------------------------------------------------------------------------
// 2. Races

interface Insertion {
  readonly inserted: readonly number[];
  readonly split: readonly Span[];
  readonly fewest: Fewest;
}

async function insertBarriers(ctx: Context, state: State, result: KernelResult): Promise<Stage<Insertion>> {
  const at = locator(ctx, state);
  const { layout } = kernelOf(ctx, state.text);
  const hopeless = hopelessText(result, layout, at);
  if (hopeless !== null) return { kind: 'stuck', why: hopeless };
  const constraints = result.races.map((r) => constraintOf(r, [r.accesses[0].span, r.accesses[1].span], layout.points));
  // the last set verified DRF: the search stops at it
  const proofs: { rw: Rewrite; result: KernelResult }[] = [];
  const check = async (set: readonly Point[]): Promise<Verdict> => {
    const rw = rewrite(layout, { insert: new Set(set.map((p) => p.id)), remove: new Set() });
    const again = rewrittenMap(ctx, rw);
    if (typeof again === 'string') return { kind: 'invalid', message: again };
    const r = await ctx.verify(again, 1);
    switch (r.status) {
      case 'drf':
        proofs.push({ rw, result: r });
        return { kind: 'drf' };
      case 'racy':
      case 'benign':
        return {
          kind: 'racy',
          races: r.races.flatMap((race) => {
            const a = originSpan(rw, race.accesses[0].span);
            const b = originSpan(rw, race.accesses[1].span);
            return a === null || b === null ? [] : [constraintOf(race, [a, b], layout.points)];
          }),
        };
      case 'divergent': {
        const sync = r.divergences[0]?.sync.span.start;
        return { kind: 'divergent', culprit: set.find((p) => rw.barriers.get(p.id) === sync) ?? null };
      }
      case 'vacuous':
      case 'unknown':
        return { kind: 'unknown' };
      case 'error':
        return { kind: 'invalid', message: r.errors[0]?.message ?? 'the kernel has errors' };
      default:
        return assertNever(r.status);
    }
  };
  // a place whose barrier takes a name out of scope is ruled out by the name check alone, before any solving
  const invalid = new Map<number, Verdict>();
  for (const p of new Set(constraints.flatMap((c) => c.places))) {
    const again = rewrittenMap(ctx, rewrite(layout, { insert: new Set([p.id]), remove: new Set() }));
    if (typeof again === 'string') invalid.set(p.id, { kind: 'invalid', message: again });
  }
  const found = await searchBarriers(constraints, invalid, check, ctx.options.limits);
  const proof = proofs[proofs.length - 1];
  if (found.kind !== 'found' || proof === undefined) return { kind: 'stuck', why: found.kind === 'found' ? 'no proof' : searchFailureText(found, ctx.options.limits, at) };
  return {
    kind: 'done',
    state: advanced(state, proof.rw),
    result: proof.result,
    value: { inserted: found.points.map((p) => proof.rw.barriers.get(p.id)!), split: proof.rw.splits.map((s) => inputSpan(state, s)), fewest: found.fewest },
  };
}

// ---------------------------------------------------------------------------
// 3. Redundant barriers

async function removeRedundant(ctx: Context, state: State, result: KernelResult): Promise<{ state: State; result: KernelResult; removed: Span[] }> {
  let current = state;
  let proof = result;
  const removed: Span[] = [];
  const judged = new Set<number>();
  for (;;) {
    const { map, layout } = kernelOf(ctx, current.text);
    // the barriers of the kernel as given, in source order; those fix inserted are needed by construction
    const next = map.syncs.map((s) => ({ sync: s, origin: inputOffset(current, s.span.start) })).find((x) => x.origin !== null && !judged.has(x.origin));
    if (next === undefined || next.origin === null) return { state: current, result: proof, removed };
    judged.add(next.origin);
    const rw = rewrite(layout, { insert: new Set(), remove: new Set([next.sync.span.start]) });
    const without = rewrittenMap(ctx, rw);
    if (typeof without === 'string') continue;
    const r = await ctx.verify(without, 1);
    if (barrierVerdictOf(r) !== 'redundant') continue;
    current = advanced(current, rw);
    proof = r;
    removed.push({ start: next.origin, end: next.origin + next.sync.span.end - next.sync.span.start });
  }
}

// ---------------------------------------------------------------------------

/**
 * The repair of the kernel `name` of a file, and the file's text with it. A
 * kernel that is not proved DRF for lack of an answer, or has errors, is
 * left alone.
 */
export async function fixKernel(path: string, text: string, name: string, options: FixOptions): Promise<{ fix: KernelFix; text: string }> {
  let verifications = 0;
  let queries = 0;
  const ctx: Context = {
    path,
    name,
    options,
    input: sourceFile(path, text),
    verify: async (map, maxRaces) => {
      const r = await verifyKernel(map, { ...options, maxRaces });
      verifications++;
      queries += r.stats.queries;
      return r;
    },
  };
  const work = (): Work => ({ verifications, queries });
  const start: State = { text, history: [] };
  const first = mapOf(ctx, text);
  const before = await ctx.verify(first, options.maxRaces);
  const unchanged = (fix: KernelFix): { fix: KernelFix; text: string } => ({ fix, text });
  const notFixed = (why: string): { fix: KernelFix; text: string } => unchanged({ kind: 'not-fixed', kernel: name, before, why, work: work() });

  // the repairs are proved on rewritten BabyCUDA text; a kernel lowered from CUDA has none to rewrite
  if (first.machineIntegers) return notFixed('fix rewrites BabyCUDA text; a kernel with machine integers (a lowered CUDA kernel) is not repaired');
  let state = start;
  let result = before;
  let hoisted: Hoist[] = [];
  let insertion: Insertion | null = null;
  switch (before.status) {
    case 'error':
      return notFixed('the kernel has errors');
    case 'unknown':
      return notFixed('the kernel is not proved DRF, but no race was found: there is nothing to repair as far as the verifier knows');
    case 'vacuous':
      return notFixed("no launch satisfies the kernel's assumptions: there is nothing to repair");
    case 'drf':
      if (options.keepBarriers) return unchanged({ kind: 'drf', kernel: name, result: before, barriersChecked: false, work: work() });
      break;
    case 'divergent': {
      const stage = await hoistDivergent(ctx, state, before);
      if (stage.kind === 'stuck') return notFixed(stage.why);
      ({ state, result } = stage);
      hoisted = stage.value;
      break;
    }
    case 'racy':
    case 'benign':
      break;
    default:
      return assertNever(before.status);
  }
  if (result.status === 'racy' || result.status === 'benign') {
    const stage = await insertBarriers(ctx, state, result);
    if (stage.kind === 'stuck') return notFixed(hoisted.length === 0 ? stage.why : `with the diverging barriers hoisted, ${stage.why}`);
    ({ state, result } = stage);
    insertion = stage.value;
  }
  const kept = options.keepBarriers ? { state, result, removed: [] } : await removeRedundant(ctx, state, result);
  if (kept.state.text === text && before.status === 'drf') return unchanged({ kind: 'drf', kernel: name, result: before, barriersChecked: true, work: work() });
  // the inserted barriers' offsets, moved past the removals after them
  const removals = kept.state.history.slice(state.history.length);
  const inserted = (insertion?.inserted ?? []).map((offset) => removals.reduce<number | null>((at, pieces) => (at === null ? null : forwardOf(pieces, at)), offset)!);
  return {
    fix: {
      kind: 'fixed',
      kernel: name,
      before,
      after: kept.result,
      repair: { hoisted, inserted, split: insertion?.split ?? [], fewest: insertion?.fewest ?? null, removed: kept.removed },
      work: work(),
    },
    text: kept.state.text,
  };
}
