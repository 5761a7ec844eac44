/** Reading a solver's model back into source terms, and checking it. */
import { AXES } from '../core/ast.js';
import type { Query, QueryPoint, Thread } from '../encode/query.js';
import { evalFormula, evalTerm, type Valuation } from '../encode/evaluate.js';
import type { Doubt, ThreadWitness, Witness } from './result.js';
import { isDataDependent, type VarInfo } from '../map/map.js';
import { declaredRange } from '../encode/smtlib.js';
import { sourceName } from '../phases/split.js';
import { termVars, type Formula } from '../encode/term.js';
import { completeModel } from '../encode/simplify.js';

/** Variables a solver left out of its model can take any value; 0 is the one we show. */
export function valuation(model: ReadonlyMap<string, bigint>): Valuation {
  return (name) => model.get(name) ?? 0n;
}

/**
 * A model that fails its own query means the encoding and the evaluator
 * disagree: a bug to report, not a verdict. The model, completed with the
 * simplifier's eliminated variables, must satisfy the query as built too
 * (else the simplifier changed the question).
 */
export function modelSatisfies(q: Pick<Query, 'declarations' | 'assertions' | 'built'>, model: ReadonlyMap<string, bigint>, extra: readonly Formula[] = []): boolean {
  const value = valuation(model);
  const holds = (declarations: Query['declarations'], assertions: readonly Formula[]): boolean =>
    assertions.every((a) => evalFormula(a, value)) &&
    declarations.every((d) => {
      const v = value(d.name);
      const { min, max } = declaredRange(d);
      return v >= min && v <= max;
    });
  return holds(q.declarations, q.assertions) && holds(q.built.declarations, [...q.built.assertions, ...extra]);
}

/** The solver's model of a query (decoded) with the values of the variables the simplifier eliminated. */
export function completedModel(q: Query, model: ReadonlyMap<string, bigint>): ReadonlyMap<string, bigint> {
  return completeModel(q.eliminated, model, evalTerm);
}

function dims(q: Query, value: Valuation, kind: 'blockDim' | 'gridDim'): bigint[] {
  return AXES.map((a) => (q.roles.has(`${kind}.${a}`) ? value(`${kind}.${a}`) : 1n));
}

function threadWitness(q: Query, value: Valuation, thread: Thread, point: QueryPoint | null): ThreadWitness {
  // a block-level query's threads share one block id, named without a thread
  const ids = (kind: 'threadIdx' | 'blockIdx'): bigint[] =>
    AXES.map((a) => [`t${thread}.${kind}.${a}`, `${kind}.${a}`].find((name) => q.roles.has(name))).map((name) => (name === undefined ? 0n : value(name)));
  const locals = new Map<string, bigint>();
  if (point?.point.target.kind === 'access') {
    const access = point.point.target.access;
    // the loop variables of the access's own iteration (a phase may hold two)
    for (const v of access.loops) locals.set(sourceName(v), value(loopVariable(q, thread, point.index, v)));
    for (const l of point.locals[thread - 1]!) locals.set(l.name, evalTerm(l.term, value));
    // values read that decide the element
    const used = new Set<string>();
    for (const t of [...point.element[thread - 1]!, ...point.locals[thread - 1]!.map((l) => l.term)]) termVars(t, used);
    for (const name of used) {
      const role = q.roles.get(name);
      if (role?.role === 'local' && isDataDependent(role.info)) locals.set(sourceName(role.var), value(name));
    }
  } else if (point) {
    for (const step of point.point.path) {
      if (step.kind === 'bind') locals.set(sourceName(step.var), value(loopVariable(q, thread, point.index, step.var)));
    }
  }
  return { threadIdx: ids('threadIdx'), blockIdx: ids('blockIdx'), locals };
}

/** A loop variable's name in the query: shared by the threads, or the thread's own at the point (a loop of its own, or a barrier loop whose range depends on the thread). */
function loopVariable(q: Query, thread: Thread, point: number, v: string): string {
  return q.roles.has(`s.${v}`) ? `s.${v}` : `t${thread}.p${point}.${v}`;
}

export function witnessOf(q: Query, model: ReadonlyMap<string, bigint>, points: readonly [QueryPoint | null, QueryPoint | null]): Witness {
  const value = valuation(model);
  const parameters = new Map<string, bigint>();
  for (const [name, role] of q.roles) if (role.role === 'param') parameters.set(role.source, value(name));
  return {
    parameters,
    blockDim: dims(q, value, 'blockDim'),
    gridDim: dims(q, value, 'gridDim'),
    threads: [threadWitness(q, value, 1, points[0]), threadWitness(q, value, 2, points[1])],
  };
}

/** The point each thread of a race query selected. */
export function selectedPoints(q: Query, model: ReadonlyMap<string, bigint>): [QueryPoint, QueryPoint] {
  const pick = (t: Thread): QueryPoint => {
    const choices = q.choices?.[t - 1];
    // a thread with one point to be at has no selector
    const index = choices?.length === 1 ? choices[0]! : Number(model.get(`t${t}.point`) ?? 0n);
    const p = q.points[index];
    if (!p) throw new Error(`witness: thread ${t} selected no access`);
    return p;
  };
  return [pick(1), pick(2)];
}

/** The data-dependent variables among the source variables an alarm depends on, with the reads (or unknown values) they come from. */
export function dataDoubts(vars: ReadonlyMap<string, VarInfo>, sources: Iterable<string>): Doubt[] {
  const seen = new Map<string, Doubt>();
  for (const v of sources) {
    const info = vars.get(v);
    if (!isDataDependent(info) || seen.has(info.source)) continue;
    seen.set(info.source, info.kind === 'data' ? { kind: 'data', variable: info.source, origin: info.origin } : { kind: 'unknown', variable: info.source, origin: info.origin });
  }
  return [...seen.values()];
}

/** A witness that relies on a shift the encoding left unconstrained is only possible. */
export function shiftDoubts(q: Query, model: ReadonlyMap<string, bigint>): Doubt[] {
  const value = valuation(model);
  return q.havocs.some((h) => !evalFormula(h.exact, value)) ? [{ kind: 'large-shift' }] : [];
}
