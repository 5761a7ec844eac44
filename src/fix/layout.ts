/**
 * The places of a kernel where `fix` can put a barrier, and the rewriting of
 * the kernel's text with barriers inserted, moved or removed.
 *
 * A statement list is read as a flat sequence of items: `let x = … in` heads
 * (binders, which scope over the rest of the list) and statements. A place is
 * a position in such a sequence. A barrier in a branch whose condition may
 * differ between the threads of a block would diverge, so there it is
 * hoisted: the branch is split around it,
 *
 *     if (c) { A; B } else { C }   becomes   if (c) { A } else { C }; sync; if (c) { B }
 *
 * which keeps every thread's own computation: variables are immutable and
 * shadowing is an error, so `c` has the same value at both `if`s, and each
 * thread still runs A then B (or C), only with a barrier between. A name
 * bound in A and used in B would fall out of scope; the name check of the
 * rewritten text rejects such a split. Loops are never split: a barrier in a
 * loop whose trip count depends on the thread diverges, and the verifier
 * says so.
 *
 * The rewritten text is made of slices of the original and new text, and
 * remembers which is which, so that what the verifier says about the
 * rewritten kernel can be mapped back to the original.
 */
import type { BExpr, Expr, Kernel, Stmt } from '../core/ast.js';
import { bexprOperands, exprBuiltins, exprVars } from '../core/exprs.js';
import { positionAt, type SourceFile, type Span } from '../core/source.js';
import { assertNever } from '../util/assert.js';

export type Item =
  | { readonly kind: 'binder'; readonly start: number; readonly end: number }
  | { readonly kind: 'leaf'; readonly stmt: Stmt; readonly start: number; readonly end: number }
  | {
      readonly kind: 'if';
      readonly start: number;
      readonly end: number;
      /** `if (c) {`, as written */
      readonly head: Span;
      readonly cond: string;
      readonly then: Block;
      readonly else: Block | null;
    }
  | { readonly kind: 'for'; readonly start: number; readonly end: number; readonly body: Block };

/** A branch a hoisted barrier is taken out of. */
export interface Split {
  readonly branch: Span;
  /** the if's other branch, null when it has none */
  readonly other: Span | null;
  /** the whole if */
  readonly span: Span;
}

export interface Loop {
  readonly span: Span;
  readonly var: string;
  /** its bounds and step are the same for every thread of a block */
  readonly uniform: boolean;
}

export interface Block {
  readonly items: readonly Item[];
  readonly span: Span;
  readonly kind: 'kernel' | 'loop' | 'then' | 'else';
  /** the loops around, innermost first */
  readonly loops: readonly Loop[];
  /** a thread-dependent branch around the innermost loop: a barrier here cannot be hoisted out of it */
  readonly guard: Span | null;
  /** the branches a barrier here is hoisted out of, innermost first; empty when a barrier here stays where it is */
  readonly splits: readonly Split[];
  /** for a branch: whether its if has an else */
  readonly withElse: boolean;
}

export interface Point {
  readonly id: number;
  readonly block: Block;
  /** before items[index]; items.length is the end of the list */
  readonly index: number;
  /** the original offset of the place */
  readonly offset: number;
  /** a place `fix` tries; the others exist only to move a barrier that is already there */
  readonly candidate: boolean;
}

export interface Layout {
  readonly file: SourceFile;
  readonly body: Block;
  readonly points: readonly Point[];
}

/** Which names in scope may differ between the threads of a block: read values, and what is computed from them or from the thread index. */
type Dependence = ReadonlyMap<string, boolean>;

function dependsOnThread(e: Expr, env: Dependence): boolean {
  for (const b of exprBuiltins(e)) if (b.startsWith('threadIdx.')) return true;
  for (const v of exprVars(e)) if (env.get(v) === true) return true;
  return false;
}

function condDependsOnThread(c: BExpr, env: Dependence): boolean {
  return bexprOperands(c).some((e) => dependsOnThread(e, env));
}

interface Context {
  readonly file: SourceFile;
  readonly points: Point[];
}

interface Parent {
  readonly kind: Block['kind'];
  readonly loops: readonly Loop[];
  readonly guard: Span | null;
  readonly splits: readonly Split[];
  readonly withElse: boolean;
}

function blockOf(ctx: Context, stmts: readonly Stmt[], parent: Parent, env: Map<string, boolean>): Block {
  const items: Item[] = [];
  const block: Block = {
    items,
    span: { start: stmts[0]!.span.start, end: stmts[stmts.length - 1]!.span.end },
    kind: parent.kind,
    loops: parent.loops,
    guard: parent.guard,
    splits: parent.splits,
    withElse: parent.withElse,
  };
  for (const first of stmts) {
    let s: Stmt = first;
    while (s.kind === 'read' || s.kind === 'let' || (s.kind === 'atomic' && s.local !== null)) {
      items.push({ kind: 'binder', start: s.span.start, end: binderEnd(ctx.file, s) });
      // a value read, atomically or not, may differ between threads
      env.set(s.local!.text, s.kind !== 'let' || dependsOnThread(s.value, env));
      s = s.body;
    }
    items.push(itemOf(ctx, s, block, env));
  }
  const hoisted = block.splits.length > 0;
  for (let index = 0; index <= items.length; index++) {
    const offset = index < items.length ? items[index]!.start : items[items.length - 1]!.end;
    ctx.points.push({ id: ctx.points.length, block, index, offset, candidate: isCandidate(block, index, hoisted) });
  }
  return block;
}

/**
 * The places tried. The start and end of the kernel order nothing; the start
 * and end of a branch are next to the places around the if, except that the
 * start of a hoisted branch with an else orders the other branch first.
 */
function isCandidate(block: Block, index: number, hoisted: boolean): boolean {
  const interior = index > 0 && index < block.items.length;
  switch (block.kind) {
    case 'kernel':
      return interior;
    case 'loop':
      return true;
    case 'then':
    case 'else':
      return interior || (index === 0 && hoisted && block.withElse);
    default:
      return assertNever(block.kind);
  }
}

/** Where the `let x = … in` head ends: the `in`. */
function binderEnd(file: SourceFile, s: Extract<Stmt, { kind: 'read' | 'let' | 'atomic' }>): number {
  const head = file.text.slice(s.span.start, s.body.span.start);
  return s.span.start + head.lastIndexOf('in') + 2;
}

function itemOf(ctx: Context, s: Stmt, block: Block, env: Map<string, boolean>): Item {
  switch (s.kind) {
    case 'skip':
    case 'write':
    case 'sync':
    case 'syncwarp':
    case 'assume':
      return { kind: 'leaf', stmt: s, start: s.span.start, end: s.span.end };
    case 'atomic':
      if (s.local !== null) throw new Error('fix: a binder is not an item of its own');
      return { kind: 'leaf', stmt: s, start: s.span.start, end: s.span.end };
    case 'read':
    case 'let':
      throw new Error('fix: a binder is not an item of its own');
    case 'havoc':
      // fix rewrites BabyCUDA text, which has no havoc (fix.ts refuses other kernels first)
      throw new Error('fix: a kernel with unknown values is not repaired');
    case 'for': {
      const uniform = ![s.from, s.to, ...(s.step ? [s.step.amount] : [])].some((e) => dependsOnThread(e, env));
      const inner = new Map(env);
      inner.set(s.var.text, !uniform);
      const loop: Loop = { span: s.span, var: s.var.text, uniform };
      const guard = block.splits[block.splits.length - 1]?.span ?? block.guard;
      const body = blockOf(ctx, s.body, { kind: 'loop', loops: [loop, ...block.loops], guard, splits: [], withElse: false }, inner);
      return { kind: 'for', start: s.span.start, end: s.span.end, body };
    }
    case 'if': {
      // a condition every thread of a block agrees on keeps a barrier in its branches where it is
      const uniform = !condDependsOnThread(s.cond, env);
      const brace = ctx.file.text.lastIndexOf('{', s.then[0]!.span.start);
      const cond = ctx.file.text.slice(s.span.start + 2, brace).trim();
      const thenSpan = { start: s.then[0]!.span.start, end: s.then[s.then.length - 1]!.span.end };
      const elseSpan = s.else === null ? null : { start: s.else[0]!.span.start, end: s.else[s.else.length - 1]!.span.end };
      const hoists = block.splits.length > 0 || !uniform;
      const branch = (kind: 'then' | 'else', span: Span, other: Span | null): Parent => ({
        kind,
        loops: block.loops,
        guard: block.guard,
        splits: hoists ? [{ branch: span, other, span: s.span }, ...block.splits] : [],
        withElse: s.else !== null,
      });
      const then = blockOf(ctx, s.then, branch('then', thenSpan, elseSpan), new Map(env));
      const otherwise = s.else === null || elseSpan === null ? null : blockOf(ctx, s.else, branch('else', elseSpan, thenSpan), new Map(env));
      return { kind: 'if', start: s.span.start, end: s.span.end, head: { start: s.span.start, end: brace + 1 }, cond, then, else: otherwise };
    }
    default:
      return assertNever(s);
  }
}

export function layoutOf(file: SourceFile, kernel: Kernel): Layout {
  const ctx: Context = { file, points: [] };
  const env = new Map<string, boolean>(kernel.params.map((p) => [p.text, false]));
  const body = blockOf(ctx, kernel.body, { kind: 'kernel', loops: [], guard: null, splits: [], withElse: false }, env);
  return { file, body, points: ctx.points };
}

/** The loops around a span of the kernel, innermost first. */
export function loopsAround(layout: Layout, span: Span): readonly Loop[] {
  let loops: readonly Loop[] = [];
  for (const p of layout.points) {
    const b = p.block.span;
    if (b.start <= span.start && span.end <= b.end && p.block.loops.length > loops.length) loops = p.block.loops;
  }
  return loops;
}

/** The point just before the statement that starts at `offset` (a barrier to move), or null. */
export function pointBefore(layout: Layout, offset: number): Point | null {
  return layout.points.find((p) => p.index < p.block.items.length && p.block.items[p.index]!.start === offset) ?? null;
}

// ---------------------------------------------------------------------------
// Rewriting

/** A piece of rewritten text: a slice of the original (origin: its offset there) or new text (null). */
export interface Piece {
  readonly text: string;
  readonly origin: number | null;
  /** the point whose barrier this `sync` is */
  readonly barrier?: number;
}

export interface Edits {
  /** points where a barrier goes, by id */
  readonly insert: ReadonlySet<number>;
  /** the points of `insert` whose barrier is a `syncwarp` (a hoisted one); the others get `sync` */
  readonly warp?: ReadonlySet<number>;
  /** start offsets of barriers (`sync`, `syncwarp`) to delete */
  readonly remove: ReadonlySet<number>;
}

export interface Rewrite {
  readonly text: string;
  readonly pieces: readonly Piece[];
  /** where the barrier of each inserted point landed */
  readonly barriers: ReadonlyMap<number, number>;
  /** the ifs split to hoist a barrier, by original span */
  readonly splits: readonly Span[];
}

type Element =
  | {
      readonly kind: 'item';
      readonly pieces: readonly Piece[];
      readonly binder: boolean;
      /** the original item (index) it starts and ends with: the separators around it are kept as written */
      readonly first: number | null;
      readonly last: number | null;
      /** the item whose line this one's indentation follows */
      readonly anchor: Item;
    }
  | { readonly kind: 'sync'; readonly point: number; readonly anchor: Item }
  | { readonly kind: 'break'; readonly point: number; readonly anchor: Item };

interface Emitter {
  readonly file: SourceFile;
  readonly edits: Edits;
  readonly pointAt: (block: Block, index: number) => Point;
  readonly splits: Span[];
}

function slice(file: SourceFile, start: number, end: number): Piece {
  return { text: file.text.slice(start, end), origin: start };
}

function fresh(text: string): Piece {
  return { text, origin: null };
}

function lineIndentOf(file: SourceFile, offset: number): string {
  const start = file.lineStarts[positionAt(file, offset).line - 1]!;
  return /^[ \t]*/.exec(file.text.slice(start))![0];
}

function startsLine(file: SourceFile, offset: number): boolean {
  const start = file.lineStarts[positionAt(file, offset).line - 1]!;
  return /^[ \t]*$/.test(file.text.slice(start, offset));
}

/** What separates a statement from the previous one when the original has nothing to keep: its own line, or a space. */
function gapBefore(file: SourceFile, anchor: Item): string {
  return startsLine(file, anchor.start) ? `\n${lineIndentOf(file, anchor.start)}` : ' ';
}

function emitBlock(em: Emitter, block: Block): Element[] {
  const out: Element[] = [];
  const hoisted = block.splits.length > 0;
  block.items.forEach((item, i) => {
    const point = em.pointAt(block, i);
    if (em.edits.insert.has(point.id)) out.push({ kind: hoisted ? 'break' : 'sync', point: point.id, anchor: item });
    if (isRemoved(em, item)) return;
    out.push(...emitItem(em, item, i, hoisted));
  });
  const end = em.pointAt(block, block.items.length);
  if (em.edits.insert.has(end.id)) out.push({ kind: hoisted ? 'break' : 'sync', point: end.id, anchor: block.items[block.items.length - 1]! });
  return out;
}

/** Whether the item is a barrier the edits delete. */
function isRemoved(em: Emitter, item: Item): boolean {
  return item.kind === 'leaf' && (item.stmt.kind === 'sync' || item.stmt.kind === 'syncwarp') && em.edits.remove.has(item.start);
}

function changed(em: Emitter, block: Block): boolean {
  const points = block.items.map((_, i) => em.pointAt(block, i)).concat([em.pointAt(block, block.items.length)]);
  if (points.some((p) => em.edits.insert.has(p.id))) return true;
  return block.items.some((item) => {
    switch (item.kind) {
      case 'binder':
        return false;
      case 'leaf':
        return isRemoved(em, item);
      case 'for':
        return changed(em, item.body);
      case 'if':
        return changed(em, item.then) || (item.else !== null && changed(em, item.else));
      default:
        return assertNever(item);
    }
  });
}

function emitItem(em: Emitter, item: Item, index: number, hoisted: boolean): Element[] {
  const whole = (pieces: readonly Piece[]): Element => ({ kind: 'item', pieces, binder: item.kind === 'binder', first: index, last: index, anchor: item });
  switch (item.kind) {
    case 'binder':
    case 'leaf':
      return [whole([slice(em.file, item.start, item.end)])];
    case 'for': {
      if (!changed(em, item.body)) return [whole([slice(em.file, item.start, item.end)])];
      const body = item.body;
      return [
        whole([
          slice(em.file, item.start, body.span.start),
          ...segment(em, body, emitBlock(em, body)),
          slice(em.file, body.span.end, item.end),
        ]),
      ];
    }
    case 'if':
      return emitIf(em, item, index, hoisted, whole);
    default:
      return assertNever(item);
  }
}

function emitIf(em: Emitter, item: Extract<Item, { kind: 'if' }>, index: number, hoisted: boolean, whole: (p: readonly Piece[]) => Element): Element[] {
  const then = item.then;
  const otherwise = item.else;
  if (!changed(em, then) && (otherwise === null || !changed(em, otherwise))) return [whole([slice(em.file, item.start, item.end)])];
  const thenParts = splitAtBreaks(emitBlock(em, then));
  const elseParts = otherwise === null ? [{ elements: [], point: null }] : splitAtBreaks(emitBlock(em, otherwise));
  if (thenParts.length === 1 && elseParts.length === 1) {
    const pieces: Piece[] = [slice(em.file, item.start, then.span.start), ...segment(em, then, thenParts[0]!.elements)];
    if (otherwise !== null) pieces.push(slice(em.file, then.span.end, otherwise.span.start), ...segment(em, otherwise, elseParts[0]!.elements));
    pieces.push(slice(em.file, (otherwise ?? then).span.end, item.end));
    return [whole(pieces)];
  }
  em.splits.push({ start: item.start, end: item.end });
  // the first part takes the other branch's first part; then the rest of the then branch, then the rest of the else branch
  const groups: { then: Element[] | null; else: Element[] | null; point: number | null }[] = [
    { then: thenParts[0]!.elements, else: otherwise === null ? null : elseParts[0]!.elements, point: null },
    ...thenParts.slice(1).map((p) => ({ then: p.elements, else: null, point: p.point })),
    ...(otherwise === null ? [] : elseParts.slice(1).map((p) => ({ then: null, else: p.elements, point: p.point }))),
  ];
  const out: Element[] = [];
  groups.forEach((g, k) => {
    if (g.point !== null) out.push({ kind: hoisted ? 'break' : 'sync', point: g.point, anchor: item });
    const pieces = ifPieces(em, item, g.then, g.else);
    if (pieces.length > 0) out.push({ kind: 'item', pieces, binder: false, first: k === 0 ? index : null, last: k === groups.length - 1 ? index : null, anchor: item });
  });
  return out;
}

/** The text of `if (c) { then } else { else }` for the parts given; nothing when both are empty. */
function ifPieces(em: Emitter, item: Extract<Item, { kind: 'if' }>, then: Element[] | null, otherwise: Element[] | null): Piece[] {
  const thenEmpty = then === null || then.length === 0;
  const elseEmpty = otherwise === null || otherwise.length === 0;
  if (thenEmpty && elseEmpty) return [];
  const close = startsLine(em.file, item.then.span.start) ? `\n${lineIndentOf(em.file, item.start)}` : ' ';
  const body = (block: Block, els: Element[]): Piece[] => [fresh(gapBefore(em.file, block.items[0]!)), ...segment(em, block, els), fresh(close)];
  if (thenEmpty) return [fresh(`if ${negated(item.cond)} {`), ...body(item.else!, otherwise!), fresh('}')];
  const head = [slice(em.file, item.head.start, item.head.end), ...body(item.then, then), fresh('}')];
  return elseEmpty ? head : [...head, fresh(' else {'), ...body(item.else!, otherwise!), fresh('}')];
}

/** `!c`, with parentheses unless c is already one parenthesised group. */
function negated(cond: string): string {
  let depth = 0;
  let wrapped = cond.startsWith('(');
  for (let i = 0; i < cond.length && wrapped; i++) {
    if (cond[i] === '(') depth++;
    if (cond[i] === ')') depth--;
    if (depth === 0 && i < cond.length - 1) wrapped = false;
  }
  return wrapped ? `!${cond}` : `!(${cond})`;
}

function splitAtBreaks(els: readonly Element[]): { elements: Element[]; point: number | null }[] {
  const parts: { elements: Element[]; point: number | null }[] = [{ elements: [], point: null }];
  for (const e of els) {
    if (e.kind === 'break') parts.push({ elements: [], point: e.point });
    else parts[parts.length - 1]!.elements.push(e);
  }
  return parts;
}

/** The text of a run of elements of one block, separated as written where they were neighbours. */
function segment(em: Emitter, block: Block, els: readonly Element[]): Piece[] {
  if (els.length === 0) return [fresh('skip')];
  const out: Piece[] = [];
  els.forEach((e, k) => {
    const prev = els[k - 1];
    if (prev !== undefined) out.push(separator(em, block, prev, e));
    switch (e.kind) {
      case 'item':
        out.push(...e.pieces);
        break;
      case 'sync':
        out.push({ text: em.edits.warp?.has(e.point) === true ? 'syncwarp' : 'sync', origin: null, barrier: e.point });
        break;
      case 'break':
        throw new Error('fix: a hoisted barrier left inside its branch');
      default:
        assertNever(e);
    }
  });
  const last = els[els.length - 1]!;
  // a `let … in` head needs a body
  if (last.kind === 'item' && last.binder) out.push(fresh(' skip'));
  return out;
}

function separator(em: Emitter, block: Block, prev: Element, next: Element): Piece {
  if (prev.kind === 'item' && next.kind === 'item' && prev.last !== null && next.first === prev.last + 1) {
    return slice(em.file, block.items[prev.last]!.end, block.items[next.first]!.start);
  }
  const binder = prev.kind === 'item' && prev.binder;
  return fresh(`${binder ? '' : ';'}${gapBefore(em.file, next.anchor)}`);
}

export function rewrite(layout: Layout, edits: Edits): Rewrite {
  const byBlock = new Map<Block, Point[]>();
  for (const p of layout.points) {
    const list = byBlock.get(p.block) ?? [];
    list[p.index] = p;
    byBlock.set(p.block, list);
  }
  const em: Emitter = { file: layout.file, edits, pointAt: (b, i) => byBlock.get(b)![i]!, splits: [] };
  const body = layout.body;
  const pieces: Piece[] = [slice(layout.file, 0, body.span.start), ...segment(em, body, emitBlock(em, body)), slice(layout.file, body.span.end, layout.file.text.length)];
  const barriers = new Map<number, number>();
  let at = 0;
  for (const p of pieces) {
    if (p.barrier !== undefined) barriers.set(p.barrier, at);
    at += p.text.length;
  }
  return { text: pieces.map((p) => p.text).join(''), pieces, barriers, splits: em.splits };
}

/** The original offset of an offset of the rewritten text; null inside new text. */
export function originOf(pieces: readonly Piece[], offset: number): number | null {
  let at = 0;
  for (const p of pieces) {
    if (offset < at + p.text.length) return p.origin === null ? null : p.origin + offset - at;
    at += p.text.length;
  }
  return null;
}

/** Where an original offset is in the rewritten text; null when its text was dropped. */
export function forwardOf(pieces: readonly Piece[], origin: number): number | null {
  let at = 0;
  for (const p of pieces) {
    if (p.origin !== null && p.origin <= origin && origin < p.origin + p.text.length) return at + origin - p.origin;
    at += p.text.length;
  }
  return null;
}
