/**
 * Every solver query of a kernel as a named script: the divergence checks,
 * whether some launch can be in scope (fig3.assumptions, when the kernel has
 * an assumption or an operation that may be undefined), the loop-completion
 * checks the phase split asks, and the race checks (one per pair of
 * accesses, but none for the pairs of a class whose first pair is unsat,
 * and none at all where the simplifier decides the question of every pair
 * of the array and phase unsat, which is printed instead:
 * src/encode/grouped.ts; as in verify, the first pairs of classes are
 * asked for it; fig3.phase0.A is the question of array A in phase 0). `faial-ts smt --out` writes them and the solver agreement test
 * runs them. Names are the query ids with `.` for `/`
 * (fig3.phase0.A.11.13-12.5: the pair of accesses at 11:13 and 12:5;
 * fig3.grid.g.…, fig3.sync0); the completion checks, which have no place of
 * their own, are numbered in the order asked, those the simplifier decides
 * included.
 */
import type { Launch } from '../core/launch.js';
import { assumptionsQuery, decidedUnsat, type Query } from '../encode/query.js';
import { printScript } from '../encode/smtlib.js';
import { searchedModel } from '../encode/search.js';
import type { KernelMap } from '../map/map.js';
import type { PhaseSplit } from '../phases/split.js';
import type { Solver } from '../solve/solver.js';
import { ask } from './ask.js';
import { divergenceQueries, hasScopeConditions, phasesOf, raceGroups } from './verify.js';

export interface NamedScript {
  readonly name: string;
  /** declarations and assertions, as solvers are given them */
  readonly script: string;
  /** null for the phase split's completion checks */
  readonly query: Query | null;
}

/**
 * The query's script, as solved; one that verify decides without a solver
 * says so: unsat by the simplifier, or sat by a model found by evaluation
 * (src/encode/search.ts), which is shown.
 */
export function queryText(q: Query): string {
  return `${decisionComment(q)}${printScript(q.declarations, q.assertions, q.encoding)}`;
}

function decisionComment(q: Query): string {
  if (decidedUnsat(q)) return '; decided unsat by the simplifier: no solver is asked\n';
  const model = searchedModel(q.declarations, q.assertions);
  if (model === null) return '';
  const values = [...model].map(([name, v]) => `${name} = ${v}`).join(', ');
  return `; decided sat by evaluation: no solver is asked; model: ${values === '' ? '(no variables)' : values}\n`;
}

const namedScript = (q: Query): NamedScript => ({ name: q.id.replaceAll('/', '.'), script: queryText(q), query: q });

/** Throws EncodingLimit when some query cannot be encoded. */
export async function queryScripts(map: KernelMap, launch: Launch, timeoutMs: number, solver: Solver): Promise<NamedScript[]> {
  const completions: Query[] = [];
  const divergences = divergenceQueries(map, launch).map(namedScript);
  const split = await phasesOf(map, launch, timeoutMs, solver, undefined, (q) => completions.push(q));
  return [
    ...divergences,
    ...(hasScopeConditions(map) ? [namedScript(assumptionsQuery(map, launch, 'pass'))] : []),
    ...completions.map((q, i) => ({ name: `${map.name}.completes${i}`, script: queryText(q), query: null })),
    ...(await raceScripts(map, split, launch, timeoutMs, solver)),
  ];
}

/**
 * The race checks as verify asks them: the group's question of all its
 * pairs alone where the simplifier decides it; else the first pair of a class of alike
 * pairs says for how many it stands, and the others follow only where it is
 * not unsat (it is asked as verify asks it).
 */
async function raceScripts(map: KernelMap, split: PhaseSplit, launch: Launch, timeoutMs: number, solver: Solver): Promise<NamedScript[]> {
  const out: NamedScript[] = [];
  for (const { group } of raceGroups(map, split, launch)) {
    // the question of all the pairs, asked of the simplifier alone: printed where it decides it (the pairs then are not asked)
    const question = group.question();
    if (question !== null && decidedUnsat(question)) {
      out.push({ ...namedScript(question), script: `; the question of all ${group.pairs.length} pairs of ${group.spec.array} here: unsat, so none of them is asked\n${queryText(question)}` });
      continue;
    }
    const size = new Map<number, number>();
    for (const c of group.classOf) size.set(c, (size.get(c) ?? 0) + 1);
    const unsat = new Set<number>();
    for (const [i, pair] of group.pairs.entries()) {
      const c = group.classOf[i]!;
      if (unsat.has(c)) continue;
      const q = group.pairQuery(pair);
      const others = c === i ? size.get(c)! - 1 : 0;
      if (others === 0) {
        out.push(namedScript(q));
        continue;
      }
      out.push({ ...namedScript(q), script: `; the question of ${others} more pair${others === 1 ? '' : 's'} of alike accesses, asked only where this one is not unsat\n${queryText(q)}` });
      if ((await ask(q, [], { solver, timeoutMs, reads: 'verdict' })).verdict.status === 'unsat') unsat.add(i);
    }
  }
  return out;
}
