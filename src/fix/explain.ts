/**
 * Why `fix` leaves a kernel as it is: the races no barrier can order, known
 * before any search, and what the search found when it found nothing.
 */
import type { Span } from '../core/source.js';
import { accessNoun, plural } from '../report/describe.js';
import { assertNever } from '../util/assert.js';
import type { Doubt, KernelResult, Race } from '../verify/result.js';
import { loopsAround, type Block, type Layout, type Point } from './layout.js';
import { disjointRaces, sameIteration, type Constraint, type Limits, type SearchResult, type Verdict } from './search.js';

/** `line:col` of a span of the text being repaired, in the file as given. */
export type Locate = (span: Span) => string;

function doubtText(d: Doubt, at: Locate): string {
  switch (d.kind) {
    case 'data':
      return `it depends on ${d.variable}, read at ${at(d.origin.span)}`;
    case 'unknown':
      return `it depends on ${d.variable}, ${d.origin.what} at ${at(d.origin.span)}`;
    case 'approximated-loop':
      return `the barriers of the loop at ${at(d.span)} were over-approximated`;
    case 'large-shift':
      return 'it relies on an over-approximated shift';
    case 'divergence-unknown':
      return `divergence at the barrier at ${at(d.sync.span)} was not ruled out`;
    case 'assumption':
      return `its launch may fail the assumption at ${at(d.span)}`;
    case 'undefined-operation':
      return d.span === null ? 'its launch may evaluate an undefined operation' : `its launch may evaluate an undefined operation at ${at(d.span)}`;
    case 'scope-unknown':
      return 'its launch was not proved to be in scope';
    default:
      return assertNever(d);
  }
}

function possibleText(race: Race, at: Locate): string {
  return race.confidence === 'possible' ? ` (a possible race: ${race.doubts.map((d) => doubtText(d, at)).join('; ')})` : '';
}

/** The race's accesses in source order, which does not depend on which thread the solver called the first. */
function raceText(c: Constraint, at: Locate): string {
  const [i, j] = c.spans[0].start <= c.spans[1].start ? ([0, 1] as const) : ([1, 0] as const);
  const [first, second] = [c.race.accesses[i], c.race.accesses[j]];
  const between = c.spans[i].start === c.spans[j].start ? `two runs of the ${accessNoun(first)} at ${at(c.spans[i])}` : `the ${accessNoun(first)} at ${at(c.spans[i])} and the ${accessNoun(second)} at ${at(c.spans[j])}`;
  return `the ${c.race.kind} race on ${c.race.array} between ${between}`;
}

/**
 * Races no barrier can order, or null: a race between blocks (a barrier
 * orders one block), or two threads running the same access in the same
 * iteration of every loop around it (no barrier separates a statement from
 * itself: it is in the same phase for every thread).
 */
export function hopelessText(result: KernelResult, layout: Layout, at: Locate): string | null {
  if (result.races.some((r) => r.level === 'grid')) {
    return 'a race between threads of different blocks: a barrier orders only the threads of one block';
  }
  for (const r of result.races) {
    const [a, b] = r.accesses;
    const loops = loopsAround(layout, a.span);
    if (a.id !== b.id || !sameIteration(r, loops)) continue;
    const values = [...loops].reverse().map((l) => `${l.var} = ${r.witness.threads[0].locals.get(l.var)}`);
    const iteration = loops.length === 0 ? '' : ` in the same iteration (${values.join(', ')})`;
    return `two threads run the same ${accessNoun(a)} at ${at(a.span)} on the same element${iteration}: no barrier separates a statement from itself; the index must differ between threads${possibleText(r, at)}`;
  }
  return null;
}

/** Why a barrier at the point diverges: a loop it cannot leave whose trip count depends on the thread, or a thread-dependent branch around its loop. */
export function stuckText(block: Block, at: Locate): string | null {
  const loop = block.loops.find((l) => !l.uniform);
  if (loop !== undefined) return `it is in the loop at ${at(loop.span)}, whose bounds depend on the thread, so threads run different numbers of iterations (and a barrier cannot be moved out of a loop)`;
  if (block.guard !== null) return `it is in a loop under the thread-dependent branch at ${at(block.guard)}, and hoisting it out of the branch would take it out of the loop`;
  return null;
}

function excludedText(points: readonly Point[], excluded: ReadonlyMap<number, Verdict>, at: Locate): string {
  const reasons = new Set<string>();
  for (const p of points) {
    const v = excluded.get(p.id);
    if (v?.kind === 'invalid') {
      const branch = p.block.splits[p.block.splits.length - 1];
      reasons.add(
        branch === undefined
          ? `the kernel with a barrier there is not valid (${v.message})`
          : `hoisting the barrier out of the thread-dependent branch at ${at(branch.span)} there leaves a name out of scope (${v.message})`,
      );
    } else if (v?.kind === 'divergent') {
      reasons.add(`a barrier there diverges: ${stuckText(p.block, at) ?? 'some threads do not reach it'}`);
    }
  }
  return [...reasons].join('; ');
}

function verdictCounts(result: Exclude<SearchResult, { kind: 'found' }>): string {
  const count = (kind: Verdict['kind']): number => result.tried.filter((t) => t.verdict.kind === kind).length;
  const parts = [
    [count('racy'), 'still racy'],
    [count('divergent'), 'divergent'],
    [count('unknown'), 'not proved'],
    [count('invalid'), 'with a name out of scope'],
  ] as const;
  const shown = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return `${plural(result.tried.length, 'set')} tried${shown.length === 0 ? '' : `: ${shown.join(', ')}`}`;
}

/** Why the search found no set: a race whose every place fails alone, or what the sets tried gave. */
export function searchFailureText(result: Exclude<SearchResult, { kind: 'found' }>, limits: Limits, at: Locate): string {
  const bySource = [...result.constraints].sort((x, y) => Math.min(x.spans[0].start, x.spans[1].start) - Math.min(y.spans[0].start, y.spans[1].start));
  for (const c of bySource) {
    if (c.places.length === 0) return `no candidate place is between the accesses of ${raceText(c, at)}, nor in a loop around them`;
    if (c.places.every((p) => result.excluded.has(p.id))) {
      const where = c.places.length === 1 ? 'at the one place that could' : `at each of the ${c.places.length} places that could`;
      return `no barrier can order ${raceText(c, at)}${possibleText(c.race, at)}: ${where}, ${excludedText(c.places, result.excluded, at)}`;
    }
  }
  const places = new Set(result.constraints.flatMap((c) => c.places.map((p) => p.id))).size;
  const needed = disjointRaces(result.constraints, (p) => !result.excluded.has(p.id));
  if (needed > limits.maxBarriers) {
    return `the races need at least ${plural(needed, 'barrier')} (${needed} of them have no candidate place in common), more than the ${limits.maxBarriers} fix tries`;
  }
  const stopped = result.kind === 'limit' ? `; the search stopped after ${plural(limits.maxVerifications, 'verification')}` : '';
  const lastRacy = [...result.tried].reverse().find((t) => t.verdict.kind === 'racy')?.verdict;
  const possible =
    lastRacy?.kind === 'racy' && lastRacy.races.every((r) => r.race.confidence === 'possible')
      ? '; the races left are possible (they depend on data read from memory), which the verifier cannot rule out'
      : '';
  return `no set of at most ${plural(limits.maxBarriers, 'barrier')} at the ${plural(places, 'candidate place')} that could order the races makes the kernel DRF (${verdictCounts(result)})${stopped}${possible}`;
}
