/**
 * The search for a smallest set of barriers that makes a racy kernel DRF.
 *
 * A barrier can order a race only if it is between the race's two accesses,
 * or in a loop around one of them that the two threads are not in at the
 * same iteration: a barrier anywhere else runs as often before (or after)
 * the one access as before the other, in every thread of a block, so the two
 * accesses stay in one phase. (A barrier hoisted out of a branch puts the
 * other branch on one side of it, or, for a then branch, possibly on both:
 * see sideOf.) So every race the verifier reports is a constraint that the
 * set must meet with one of the race's *places*.
 *
 * The search is breadth-first over set sizes: the children of a set add one
 * place of the race it leaves (the one with the fewest places). A set that
 * misses a known race's places is known to fail without asking the
 * verifier; the others are verified. Every set that works contains, for each
 * set on the way to it, a place of the race that set leaves, so the first set
 * found is a smallest one among the candidate places, when the smaller sets
 * were all decided within the limits.
 */
import type { Race } from '../verify/result.js';
import type { Span } from '../core/source.js';
import { assertNever } from '../util/assert.js';
import type { Loop, Point } from './layout.js';

/** A race of the kernel being repaired, its accesses located in that kernel's text. */
export interface Constraint {
  readonly key: string;
  readonly race: Race;
  readonly spans: readonly [Span, Span];
  /** the candidate places that could order it, the most promising first */
  readonly places: readonly Point[];
}

function contains(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

/**
 * The witness's two threads are at the same iteration of each of these
 * loops: every loop is uniform (all threads see the same sequence of values
 * of its variable, so equal values are the same iteration) and the two
 * threads' values agree.
 */
export function sameIteration(race: Race, loops: readonly Loop[]): boolean {
  const [t1, t2] = race.witness.threads;
  return loops.every((l) => {
    const v1 = t1.locals.get(l.var);
    return l.uniform && v1 !== undefined && v1 === t2.locals.get(l.var);
  });
}

/**
 * Where an access is with respect to the barrier at a place. A barrier
 * hoisted out of an else branch runs after the whole then branch; one
 * hoisted out of a then branch runs after the part of the else branch before
 * the set's own else places, if any: `either`.
 */
type Side = 'before' | 'after' | 'either';

function sideOf(p: Point, a: Span): Side {
  const split = p.block.splits.find((s) => s.other !== null && contains(s.other, a));
  if (split !== undefined && split.other !== null) return split.branch.start > split.other.start ? 'before' : 'either';
  return a.start < p.offset ? 'before' : 'after';
}

/** `reordering`: the place splits a branch whose other branch holds one of the accesses. */
type Relevance = 'between' | 'loop' | 'reordering' | null;

function relevance(p: Point, race: Race, [a, b]: readonly [Span, Span]): Relevance {
  const sides = [sideOf(p, a), sideOf(p, b)];
  if (!sides.includes('either') && sides[0] !== sides[1]) return 'between';
  const loops = p.block.loops;
  const loop = loops.some((l, i) => (contains(l.span, a) || contains(l.span, b)) && !(contains(l.span, a) && contains(l.span, b) && sameIteration(race, loops.slice(i))));
  if (loop) return 'loop';
  return sides.includes('either') ? 'reordering' : null;
}

/**
 * The race's places among the candidates: those between its accesses in
 * source order (a split that runs a then branch before an else branch keeps
 * them as written), then those in loops around them from the last (the end
 * of a loop body, where a loop's barrier usually is), then the splits that
 * may run an else branch first.
 */
export function constraintOf(race: Race, spans: readonly [Span, Span], points: readonly Point[]): Constraint {
  const ranks: Record<Exclude<Relevance, null>, number> = { between: 0, loop: 1, reordering: 2 };
  const rank = (r: Exclude<Relevance, null>): number => ranks[r];
  const relevant = points.flatMap((p) => {
    const r = p.candidate ? relevance(p, race, spans) : null;
    return r === null ? [] : [{ p, rank: rank(r) }];
  });
  relevant.sort((x, y) => x.rank - y.rank || (x.rank === 1 ? y.p.offset - x.p.offset : x.p.offset - y.p.offset) || x.p.id - y.p.id);
  const [lo, hi] = spans[0].start <= spans[1].start ? spans : [spans[1], spans[0]];
  const places = relevant.map((x) => x.p);
  // one pair of accesses can race in more ways (within an iteration, across iterations): one constraint per set of places
  return { key: `${lo.start}:${lo.end}:${hi.start}:${hi.end}:${places.map((p) => p.id).join(',')}`, race, spans, places };
}

/** What verifying the kernel with a set of barriers gave. */
export type Verdict =
  | { readonly kind: 'drf' }
  | { readonly kind: 'racy'; readonly races: readonly Constraint[] }
  /** `culprit`: the inserted barrier that diverges, when it is one of the set's */
  | { readonly kind: 'divergent'; readonly culprit: Point | null }
  | { readonly kind: 'unknown' }
  /** the rewritten text is not a valid kernel (a name out of scope) */
  | { readonly kind: 'invalid'; readonly message: string };

export interface Tried {
  readonly points: readonly Point[];
  readonly verdict: Verdict;
}

export interface Limits {
  readonly maxBarriers: number;
  /** verifications that ask the solver; invalid texts cost none */
  readonly maxVerifications: number;
  /** sets kept per size */
  readonly maxSets: number;
}

export const DEFAULT_LIMITS: Limits = { maxBarriers: 3, maxVerifications: 24, maxSets: 400 };

/** Why the sets smaller than the one found are ruled out, or why they could not all be. */
export interface Fewest {
  /** every smaller set was decided: verified and rejected, or missing a race's places */
  readonly proved: boolean;
  /** smaller sets that were verified */
  readonly verifiedSmaller: number;
  /** the candidate places that could order some race */
  readonly places: number;
}

export type SearchResult =
  | { readonly kind: 'found'; readonly points: readonly Point[]; readonly fewest: Fewest; readonly tried: readonly Tried[]; readonly constraints: readonly Constraint[] }
  | {
      readonly kind: 'exhausted' | 'limit';
      readonly tried: readonly Tried[];
      readonly constraints: readonly Constraint[];
      /** places that fail alone and so in every set: they diverge or break scoping */
      readonly excluded: ReadonlyMap<number, Verdict>;
    };

interface Node {
  readonly set: readonly Point[];
  /** races the set is known to leave */
  readonly left: readonly Constraint[];
}

function keyOf(set: readonly Point[]): string {
  return set.map((p) => p.id).join(',');
}

/** A lower bound on how many more places the races need: races whose remaining places are pairwise disjoint. */
export function disjointRaces(races: readonly Constraint[], available: (p: Point) => boolean): number {
  const used = new Set<number>();
  let count = 0;
  const sorted = [...races].sort((x, y) => x.places.filter(available).length - y.places.filter(available).length);
  for (const r of sorted) {
    const places = r.places.filter(available);
    if (places.some((p) => used.has(p.id))) continue;
    for (const p of places) used.add(p.id);
    count++;
  }
  return count;
}

/** `invalid`: places known to fail alone, as a text with a barrier there is not a valid kernel. */
export async function searchBarriers(
  initial: readonly Constraint[],
  invalid: ReadonlyMap<number, Verdict>,
  check: (set: readonly Point[]) => Promise<Verdict>,
  limits: Limits,
): Promise<SearchResult> {
  const constraints = new Map(initial.map((c) => [c.key, c]));
  const excluded = new Map<number, Verdict>(invalid);
  const tried: Tried[] = [];
  const seen = new Set<string>();
  let verifications = 0;
  let undecided = false;
  let level: Node[] = [{ set: [], left: [...constraints.values()] }];
  const unmet = (set: readonly Point[]): Constraint[] => [...constraints.values()].filter((c) => !c.places.some((p) => set.includes(p)));
  const placeCount = (): number => new Set([...constraints.values()].flatMap((c) => c.places.map((p) => p.id))).size;

  for (let size = 1; size <= limits.maxBarriers; size++) {
    const decidedBelow = !undecided;
    const children: Point[][] = [];
    for (const node of level) {
      const free = (p: Point): boolean => !excluded.has(p.id) && !node.set.includes(p);
      const left = [...node.left, ...unmet(node.set).filter((c) => !node.left.includes(c))];
      const race = [...left].sort((x, y) => x.places.filter(free).length - y.places.filter(free).length)[0];
      if (race === undefined) continue;
      for (const p of race.places.filter(free)) {
        const set = [...node.set, p].sort((x, y) => x.id - y.id);
        const key = keyOf(set);
        if (seen.has(key)) continue;
        seen.add(key);
        children.push(set);
      }
    }
    if (children.length > limits.maxSets) {
      undecided = true;
      children.length = limits.maxSets;
    }
    const next: Node[] = [];
    for (const set of children) {
      const available = (p: Point): boolean => !excluded.has(p.id) && !set.includes(p);
      const missing = unmet(set);
      if (missing.length > 0) {
        if (size + disjointRaces(missing, available) <= limits.maxBarriers && missing.every((c) => c.places.some(available))) next.push({ set, left: missing });
        continue;
      }
      if (set.some((p) => excluded.has(p.id))) continue;
      if (verifications >= limits.maxVerifications) return { kind: 'limit', tried, constraints: [...constraints.values()], excluded };
      const verdict = await check(set);
      if (verdict.kind !== 'invalid') verifications++;
      tried.push({ points: set, verdict });
      switch (verdict.kind) {
        case 'drf':
          return {
            kind: 'found',
            points: set,
            fewest: { proved: decidedBelow, verifiedSmaller: tried.filter((t) => t.points.length < size).length, places: placeCount() },
            tried,
            constraints: [...constraints.values()],
          };
        case 'racy':
          for (const r of verdict.races) if (!constraints.has(r.key)) constraints.set(r.key, r);
          next.push({ set, left: verdict.races.map((r) => constraints.get(r.key)!) });
          break;
        case 'divergent':
          // a barrier that diverges does so whatever other barriers there are
          if (verdict.culprit !== null) excluded.set(verdict.culprit.id, verdict);
          break;
        case 'invalid':
          if (set.length === 1) excluded.set(set[0]!.id, verdict);
          break;
        case 'unknown':
          // its supersets are not explored: what is left is not known
          undecided = true;
          break;
        default:
          assertNever(verdict);
      }
    }
    level = next;
  }
  return { kind: 'exhausted', tried, constraints: [...constraints.values()], excluded };
}
