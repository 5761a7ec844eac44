/**
 * Phase split: the synchronised protocol becomes the set of barrier phases,
 * each a piece of unsynchronised code that the threads of a block run between
 * two barriers. Every statement is summarised by
 *   noSync — what it runs on paths that meet no barrier,
 *   first  — what it runs up to its first barrier,
 *   last   — what it runs after its last barrier,
 *   phases — the phases that lie wholly inside it.
 * Conditions that decide whether a barrier is met are block-uniform (the
 * divergence check proves it), so both threads of a query take the same
 * alternative. A loop whose body always meets a barrier is aligned: the end
 * of iteration x and the start of iteration succ(x) form one phase, and the
 * loop may run zero times. A loop whose body may finish an iteration without a
 * barrier has its barriers erased, a sound over-approximation whose alarms are
 * reported as possible.
 */
import type { BExpr } from '../core/ast.js';
import { substBExpr, substExpr } from '../core/exprs.js';
import { protoSome, replaceBarriers, type Access, type KernelMap, type Proto, type Range, type SyncSite, type VarInfo } from '../map/map.js';
import { assertNever } from '../util/assert.js';
import { SKIP, UNREACHABLE, codeChildren, seqCode, type Code, type Relation } from './code.js';

/** The source name of a variable: copies are named x~N, rebindings x@N. */
export function sourceName(v: string): string {
  return v.split(/[~@]/)[0]!;
}

export interface Phase {
  readonly id: number;
  readonly code: Code;
  /** the barriers that may open the phase; empty: the kernel's start */
  readonly opens: readonly SyncSite[];
  /** the barriers that may close the phase; empty: the kernel's end */
  readonly closes: readonly SyncSite[];
}

export interface PhaseSplit {
  readonly phases: readonly Phase[];
  /** the kernel's variables, with the copies made by alignment */
  readonly vars: ReadonlyMap<string, VarInfo>;
  /**
   * The warp phases, where `syncwarp` splits too (warpLevel): what two
   * threads of one warp run between two barriers of either kind. Present
   * when the kernel has a `syncwarp` and threads are scheduled
   * independently; then `phases` are for two threads of different warps.
   */
  readonly warp?: PhaseSplit;
}

interface Cut {
  readonly code: Code;
  readonly syncs: readonly SyncSite[];
}

interface Summary {
  readonly noSync: Code | null;
  readonly first: Cut | null;
  readonly last: Cut | null;
  readonly phases: readonly Omit<Phase, 'id'>[];
}

/**
 * Puts code where a statement is in the kernel: under the loops around it
 * (as shared iterations) and the conditions that lead to it.
 */
export type Context = (code: Code) => Code;

/**
 * Decides whether a loop body's barrier-free paths are infeasible for every
 * iteration (the solver can prove it); `around` puts the loop's code in its
 * context (the loops and conditions around it, which its bounds and the
 * body's conditions may mention).
 */
export type AlwaysSyncs = (loop: Extract<Proto, { kind: 'loop' }>, noSync: Code, around: Context) => Promise<boolean>;

/** Without a solver, a loop body that may miss its barriers is approximated. */
export const neverProved: AlwaysSyncs = () => Promise.resolve(false);

export async function splitPhases(map: KernelMap, alwaysSyncs: AlwaysSyncs = neverProved): Promise<PhaseSplit> {
  const vars = new Map(map.vars);
  let fresh = 0;

  /** A copy of `code` whose binders are renamed, with `loopVar` renamed to `to`. */
  const copy = (code: Code, loopVar: string, to: string): Code => {
    const renaming = new Map<string, string>([[loopVar, to]]);
    for (const name of codeBinders(code)) {
      if (name === loopVar || renaming.has(name)) continue;
      const base = sourceName(name);
      const renamed = `${base}~${++fresh}`;
      renaming.set(name, renamed);
      vars.set(renamed, vars.get(name)!);
    }
    return renameCode(code, renaming);
  };
  const freshVar = (loopVar: string): string => {
    const name = `${sourceName(loopVar)}~${++fresh}`;
    vars.set(name, vars.get(loopVar)!);
    return name;
  };

  const summarise = async (p: Proto, around: Context): Promise<Summary> => {
    if (!hasSync(p)) return { noSync: codeOf(p), first: null, last: null, phases: [] };
    switch (p.kind) {
      case 'sync':
        return { noSync: null, first: { code: SKIP, syncs: [p.sync] }, last: { code: SKIP, syncs: [p.sync] }, phases: [] };
      case 'seq': {
        let acc = await summarise(p.items[0]!, around);
        for (const item of p.items.slice(1)) acc = sequence(acc, await summarise(item, around));
        return acc;
      }
      case 'if': {
        const not: BExpr = { kind: 'not', operand: p.cond, span: p.cond.span };
        const t = await summarise(p.then, (c) => around(seqCode([{ kind: 'assume', cond: p.cond }, c])));
        const e = await summarise(p.else, (c) => around(seqCode([{ kind: 'assume', cond: not }, c])));
        const branch = (a: Code | null, b: Code | null): Code | null =>
          a === null && b === null ? null : { kind: 'if', cond: p.cond, then: a ?? UNREACHABLE, else: b ?? UNREACHABLE };
        const cut = (a: Cut | null, b: Cut | null): Cut | null => {
          const code = branch(a?.code ?? null, b?.code ?? null);
          return code === null ? null : { code, syncs: [...(a?.syncs ?? []), ...(b?.syncs ?? [])] };
        };
        const under = (cond: BExpr, ph: Omit<Phase, 'id'>): Omit<Phase, 'id'> => ({
          ...ph,
          code: seqCode([{ kind: 'assume', cond }, ph.code]),
        });
        return {
          noSync: branch(t.noSync, e.noSync),
          first: cut(t.first, e.first),
          last: cut(t.last, e.last),
          phases: [...t.phases.map((ph) => under(p.cond, ph)), ...e.phases.map((ph) => under(not, ph))],
        };
      }
      case 'loop': {
        const summary = await summarise(p.body, (c) => around({ kind: 'bind', var: p.var, relation: { kind: 'member' }, range: p.range, body: c }));
        const body = summary.noSync !== null && (await alwaysSyncs(p, summary.noSync, around)) ? { ...summary, noSync: null } : summary;
        if (body.noSync !== null || body.first === null || body.last === null) {
          return {
            noSync: seqCode([{ kind: 'erased', span: p.span }, codeOf(p)]),
            first: null,
            last: null,
            phases: [],
          };
        }
        const x = p.var;
        const bind = (v: string, relation: Relation, code: Code): Code => ({ kind: 'bind', var: v, relation, range: p.range, body: code });
        const firstVar = freshVar(x);
        const lastVar = freshVar(x);
        const nextVar = freshVar(x);
        return {
          noSync: { kind: 'empty', range: p.range },
          first: { code: bind(firstVar, { kind: 'first' }, copy(body.first.code, x, firstVar)), syncs: body.first.syncs },
          last: { code: bind(lastVar, { kind: 'last' }, copy(body.last.code, x, lastVar)), syncs: body.last.syncs },
          phases: [
            ...body.phases.map((ph) => ({ ...ph, code: bind(x, { kind: 'member' }, ph.code) })),
            {
              code: bind(x, { kind: 'member' }, bind(nextVar, { kind: 'next', prev: x }, seqCode([body.last.code, copy(body.first.code, x, nextVar)]))),
              opens: body.last.syncs,
              closes: body.first.syncs,
            },
          ],
        };
      }
      case 'skip':
      case 'access':
      case 'syncwarp':
      case 'assume':
      case 'defined':
      case 'havoc':
        throw new Error('phase split: a statement without barriers has no barrier summary');
      default:
        return assertNever(p);
    }
  };

  const whole = await summarise(map.body, (c) => c);
  const phases: Omit<Phase, 'id'>[] = [];
  if (whole.noSync !== null) phases.push({ code: whole.noSync, opens: [], closes: [] });
  if (whole.first !== null) phases.push({ code: whole.first.code, opens: [], closes: whole.first.syncs });
  phases.push(...whole.phases);
  if (whole.last !== null) phases.push({ code: whole.last.code, opens: whole.last.syncs, closes: [] });
  return { phases: phases.map((ph, id) => ({ id, ...ph })), vars };
}

function sequence(a: Summary, b: Summary): Summary {
  const alt = (x: Cut | null, y: Cut | null): Cut | null => {
    if (x === null) return y;
    if (y === null) return x;
    return { code: { kind: 'choice', options: [x.code, y.code] }, syncs: [...x.syncs, ...y.syncs] };
  };
  return {
    noSync: a.noSync !== null && b.noSync !== null ? seqCode([a.noSync, b.noSync]) : null,
    first: alt(a.first, a.noSync !== null && b.first !== null ? { code: seqCode([a.noSync, b.first.code]), syncs: b.first.syncs } : null),
    last: alt(b.last, a.last !== null && b.noSync !== null ? { code: seqCode([a.last.code, b.noSync]), syncs: a.last.syncs } : null),
    phases: [
      ...a.phases,
      ...b.phases,
      ...(a.last !== null && b.first !== null
        ? [{ code: seqCode([a.last.code, b.first.code]), opens: a.last.syncs, closes: b.first.syncs }]
        : []),
    ],
  };
}

export function hasSync(p: Proto): boolean {
  return protoSome(p, (q) => q.kind === 'sync');
}

/** Whether the protocol has a barrier of either kind, `sync` or `syncwarp`. */
function hasBarrier(p: Proto): boolean {
  return protoSome(p, (q) => q.kind === 'sync' || q.kind === 'syncwarp');
}

/**
 * The kernel as two threads of one warp see it: each `syncwarp` a barrier
 * like `sync`, so that its phase split is the warp phases (docs/language.md, "Warps").
 * The split's premise holds for such threads: the conditions and loop tests
 * that decide which `syncwarp` a thread meets agree within a warp (the
 * divergence check of each `syncwarp` proves it).
 */
export function warpLevel(map: KernelMap): KernelMap {
  return { ...map, body: replaceBarriers(map.body, (b) => ({ kind: 'sync', sync: b.sync })) };
}

/**
 * The protocol as unsynchronised code. With `barriers: 'erase'` barriers
 * vanish (threads of different blocks, or an approximated loop); with
 * `barriers: 'mark'` every loop around a barrier (`sync` or `syncwarp`)
 * becomes a shared binder and each barrier a program point, which is what
 * the divergence check asks about.
 */
export function codeOf(p: Proto, barriers: 'erase' | 'mark' = 'erase'): Code {
  switch (p.kind) {
    case 'skip':
      return SKIP;
    case 'access':
      return p;
    case 'sync':
    case 'syncwarp':
      return barriers === 'mark' ? { kind: 'mark', sync: p.sync } : SKIP;
    case 'seq':
      return seqCode(p.items.map((i) => codeOf(i, barriers)));
    case 'if':
      return { kind: 'if', cond: p.cond, then: codeOf(p.then, barriers), else: codeOf(p.else, barriers) };
    case 'loop':
      return barriers === 'mark' && hasBarrier(p.body)
        ? { kind: 'bind', var: p.var, relation: { kind: 'member' }, range: p.range, body: codeOf(p.body, barriers) }
        : { kind: 'loop', var: p.var, range: p.range, body: codeOf(p.body, barriers) };
    case 'assume':
      return { kind: 'assume', cond: p.cond };
    case 'defined':
      return { kind: 'defined', exprs: p.exprs };
    case 'havoc':
      return { kind: 'havoc', var: p.var };
    default:
      return assertNever(p);
  }
}

/** Variables bound inside the code: loop and shared variables, and the locals of reads and havocs. */
function codeBinders(c: Code, out: Set<string> = new Set()): Set<string> {
  if (c.kind === 'access' && c.access.local !== null) out.add(c.access.local);
  if (c.kind === 'loop' || c.kind === 'bind' || c.kind === 'havoc') out.add(c.var);
  for (const child of codeChildren(c)) codeBinders(child, out);
  return out;
}

function renameCode(c: Code, renaming: ReadonlyMap<string, string>): Code {
  const sub = new Map([...renaming].map(([from, to]) => [from, { kind: 'var', name: to, span: { start: 0, end: 0 } }] as const));
  const cond = (b: BExpr): BExpr => substBExpr(b, sub);
  const range = (r: Range): Range => ({ ...r, from: substExpr(r.from, sub), to: substExpr(r.to, sub), step: { ...r.step, amount: substExpr(r.step.amount, sub) } });
  const access = (a: Access): Access => ({
    ...a,
    index: a.index.map((ix) => substExpr(ix, sub)),
    local: a.local === null ? null : (renaming.get(a.local) ?? a.local),
    loops: a.loops.map((v) => renaming.get(v) ?? v),
    locals: a.locals.map((l) => ({ name: l.name, value: substExpr(l.value, sub) })),
    ...(a.value === undefined ? {} : { value: substExpr(a.value, sub) }),
  });
  const go = (x: Code): Code => {
    switch (x.kind) {
      case 'skip':
      case 'mark':
      case 'erased':
        return x;
      case 'access':
        return { kind: 'access', access: access(x.access) };
      case 'seq':
        return { kind: 'seq', items: x.items.map(go) };
      case 'choice':
        return { kind: 'choice', options: x.options.map(go) };
      case 'if':
        return { kind: 'if', cond: cond(x.cond), then: go(x.then), else: go(x.else) };
      case 'loop':
        return { kind: 'loop', var: renaming.get(x.var) ?? x.var, range: range(x.range), body: go(x.body) };
      case 'bind': {
        const relation: Relation = x.relation.kind === 'next' ? { kind: 'next', prev: renaming.get(x.relation.prev) ?? x.relation.prev } : x.relation;
        return { kind: 'bind', var: renaming.get(x.var) ?? x.var, relation, range: range(x.range), body: go(x.body) };
      }
      case 'assume':
        return { kind: 'assume', cond: cond(x.cond) };
      case 'defined':
        return { kind: 'defined', exprs: x.exprs.map((e) => substExpr(e, sub)) };
      case 'havoc':
        return { kind: 'havoc', var: renaming.get(x.var) ?? x.var };
      case 'empty':
        return { kind: 'empty', range: range(x.range) };
      default:
        return assertNever(x);
    }
  };
  return go(c);
}
