/**
 * The race queries of one array in one phase, grouped into classes of the
 * same question (issue 29). A phase with n accesses of an array has up to
 * n(n+1)/2 pairs of which one writes, each its own race query
 * (src/encode/query.ts, raceQueries), and building and simplifying each one
 * is most of the time of a kernel with many accesses. But a kernel's
 * accesses often repeat one another: `s[tid] := …` written again and again,
 * read back where the same thread wrote it. Two accesses of one mode whose
 * points encode to the same path and index terms (with the same helper
 * variables, definitions and declarations) are one access as far as a race
 * query can tell: a pair's query with one of them is the other's, its point
 * variables renamed. So the pairs fall into classes, one per two such
 * classes of accesses (the two threads being symmetric, in either order),
 * and a class's pairs are one question: the first pair of the class is
 * asked, and when it is unsat, so is every other pair of the class, which is
 * neither built nor asked. Where the first is sat or undecided, every other
 * pair is asked as before, so each race is still reported once with its own
 * witness, and each `unknown` names its own pair.
 *
 * Telling two accesses alike costs one encoding of each, in a builder of its
 * own: linear in the accesses, where the pairs are quadratic.
 *
 * Before any pair, the group's one question is asked where there are two
 * classes or more (src/encode/query.ts, arrayQuery): some two threads at
 * any two conflicting accesses of the array, on one element. Every pair
 * query implies it, so where it is unsat no pair is built or asked; where it
 * is sat or undecided, the pairs are asked as above.
 */
import { conflicting, type Range } from '../map/map.js';
import { sharedBinders } from './paths.js';
import { EncodingLimit } from './smtlib.js';
import { accessLabels, accessPointsOf, arrayQuery, Builder, constantlyApart, encodedPoint, pairQuery, type AccessPoints, type Query, type RaceQuerySpec } from './query.js';

export interface RacePair {
  readonly first: AccessPoints;
  readonly second: AccessPoints;
}

export interface RaceGroup {
  readonly spec: RaceQuerySpec;
  /** the pairs of accesses that may race, in raceQueries' order */
  readonly pairs: readonly RacePair[];
  /**
   * for each pair, the position in `pairs` of the first pair of its class
   * (its own when it is the first): that pair unsat, this one is too
   */
  readonly classOf: readonly number[];
  /** the pair's race query, as raceQueries builds it */
  readonly pairQuery: (pair: RacePair) => Query;
  /**
   * the question of every pair at once (arrayQuery), asked first: unsat, no
   * pair is asked. Null where it is not asked: fewer than two classes (one
   * class's first pair is one question already), where arrayQuery has none,
   * or where its encoding is too wide.
   */
  readonly question: () => Query | null;
}

/**
 * Below this many pairs no access is encoded to tell it alike: with two
 * pairs, a class of two saves one query and costs two encodings.
 */
export const MIN_CLASSED_PAIRS = 3;

/** The race queries of one array in one phase (see raceQueries), in classes of one question. */
export function raceGroup(spec: RaceQuerySpec): RaceGroup {
  const accesses = accessPointsOf(spec);
  const labels = accessLabels(spec.map);
  const dims = spec.map.arrays.find((a) => a.name === spec.array)?.dims ?? 1;
  const pairs: RacePair[] = [];
  accesses.forEach((first, i) => {
    for (const second of accesses.slice(i)) {
      if (conflicting(first.access.mode, second.access.mode) && !constantlyApart(first.access, second.access, dims)) pairs.push({ first, second });
    }
  });
  const classOf = classesOf(spec, pairs);
  const paired = new Set(pairs.flatMap((p) => [p.first.access.id, p.second.access.id]));
  const classes = new Set(classOf).size;
  return {
    spec,
    pairs,
    classOf,
    pairQuery: (pair) => pairQuery(spec, pair.first, pair.second, labels, false),
    question: () => {
      if (classes < 2) return null;
      try {
        // the accesses of some pair: another (a read where every access reads) races with none
        return arrayQuery(spec, accesses.filter((a) => paired.has(a.access.id)));
      } catch (e) {
        // too wide to encode: no question, the pairs answer for themselves
        if (e instanceof EncodingLimit) return null;
        throw e;
      }
    },
  };
}

/**
 * Each pair's class, as the position of its first pair. Lockstep warps keep
 * every pair its own: whether two accesses are ordered in a warp depends on
 * where they are in the code, which their encoding does not show.
 */
function classesOf(spec: RaceQuerySpec, pairs: readonly RacePair[]): number[] {
  const own = pairs.map((_, i) => i);
  if (pairs.length < MIN_CLASSED_PAIRS || (spec.launch.warpSize !== undefined && spec.level === 'block')) return own;
  const shared = sharedBinders(spec.code);
  const intern = interner();
  const keys = new Map<number, string>();
  const alike = new Map<string, number>();
  // an access's class: the first access whose key is the same
  const accessClass = (a: AccessPoints): number => {
    let key = keys.get(a.access.id);
    if (key === undefined) {
      key = accessKey(spec, shared, a, intern);
      keys.set(a.access.id, key);
    }
    const known = alike.get(key);
    if (known !== undefined) return known;
    alike.set(key, a.access.id);
    return a.access.id;
  };
  const firstOf = new Map<string, number>();
  return pairs.map((p, i) => {
    const [x, y] = [accessClass(p.first), accessClass(p.second)];
    const key = `${Math.min(x, y)}:${Math.max(x, y)}`;
    const first = firstOf.get(key);
    if (first !== undefined) return first;
    firstOf.set(key, i);
    return i;
  });
}

/**
 * What a race query can tell of an access: its mode, and its points as
 * encoded for both threads, with the helper variables, definitions and
 * declarations the encoding made, in a builder of its own (so that a name
 * means the same in two keys only where it is defined the same).
 */
function accessKey(spec: RaceQuerySpec, shared: ReadonlyMap<string, Range>, a: AccessPoints, intern: (value: unknown) => string): string {
  const b = new Builder(spec.map, spec.vars, shared, spec.launch, spec.level !== 'grid');
  const points = a.points.map((p, i) => {
    const q = encodedPoint(b, p, i, [1, 2]);
    return [q.path, q.element];
  });
  return intern([a.access.mode, points, b.definitions, b.havocs, [...b.declarations], [...b.types]]);
}

/**
 * A key per value, equal for structurally equal values: each distinct node
 * gets a number from its kind and its children's numbers, memoised per
 * object. Terms are DAGs (a chain of lets shares its subterms), which a
 * printed key would expand exponentially; this stays linear in the nodes.
 */
function interner(): (value: unknown) => string {
  const ids = new Map<string, number>();
  const memo = new WeakMap<object, string>();
  const keyOf = (v: unknown): string => {
    if (typeof v === 'bigint') return `${v}n`;
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'undefined';
    const known = memo.get(v);
    if (known !== undefined) return known;
    const children = v instanceof Map ? [...v].map(keyOf) : v instanceof Set ? [...v].map(keyOf) : Array.isArray(v) ? v.map(keyOf) : Object.entries(v).map(([k, x]) => `${k}=${keyOf(x)}`);
    const shape = `${v instanceof Map ? 'M' : v instanceof Set ? 'S' : Array.isArray(v) ? 'A' : 'O'}(${children.join(',')})`;
    let id = ids.get(shape);
    if (id === undefined) {
      id = ids.size;
      ids.set(shape, id);
    }
    const key = `#${id}`;
    memo.set(v, key);
    return key;
  };
  return keyOf;
}
