/**
 * Every solver query of a kernel as a named script: the divergence checks,
 * whether some launch can be in scope (fig3.assumptions, when the kernel has
 * an assumption or an operation that may be undefined), the loop-completion
 * checks the phase split asks, and the race checks (as first asked, before
 * any race is blocked). `faial-ts smt --out` writes them
 * and the solver agreement test runs them. Names are the query ids with `.`
 * for `/` (fig3.phase0.A, fig3.grid.g, fig3.sync0); the completion checks,
 * which have no place of their own, are numbered in the order asked.
 */
import type { Launch } from '../core/launch.js';
import { assumptionsQuery, type Query } from '../encode/query.js';
import { printScript } from '../encode/smtlib.js';
import type { KernelMap } from '../map/map.js';
import type { Solver } from '../solve/solver.js';
import { divergenceQueries, hasScopeConditions, phasesOf, raceQueries } from './verify.js';

export interface NamedScript {
  readonly name: string;
  /** declarations and assertions, as solvers are given them */
  readonly script: string;
  /** null for the phase split's completion checks */
  readonly query: Query | null;
}

const namedScript = (q: Query): NamedScript => ({ name: q.id.replaceAll('/', '.'), script: printScript(q.declarations, q.assertions, q.encoding), query: q });

/** Throws EncodingLimit when some query cannot be encoded. */
export async function queryScripts(map: KernelMap, launch: Launch, timeoutMs: number, solver: Solver): Promise<NamedScript[]> {
  const completions: string[] = [];
  const recording: Solver = {
    name: solver.name,
    check: (script, ms) => {
      completions.push(script);
      return solver.check(script, ms);
    },
  };
  const divergences = divergenceQueries(map, launch).map(namedScript);
  const split = await phasesOf(map, launch, timeoutMs, recording);
  return [
    ...divergences,
    ...(hasScopeConditions(map) ? [namedScript(assumptionsQuery(map, launch, 'pass'))] : []),
    ...completions.map((script, i) => ({ name: `${map.name}.completes${i}`, script, query: null })),
    ...raceQueries(map, split, launch).map((r) => namedScript(r.query)),
  ];
}
