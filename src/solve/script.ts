/**
 * A query as a standalone SMT-LIB 2 script: what a solver binary reads, and
 * what `faial-ts smt` writes. Models are asked for with `get-value` on the
 * declared constants only, because `get-model` output differs between
 * solvers while `get-value` answers are standard.
 */

/** The declared constants of a script, as written (quoted when they need it). */
export function declaredSymbols(script: string): string[] {
  return [...script.matchAll(/^\(declare-const (\|[^|]*\||[^\s()|]+) /gm)].map((m) => m[1]!);
}

/**
 * The script, made runnable: models switched on (before the logic, where
 * SMT-LIB allows it), then check-sat (or the command given in its place, such
 * as Z3's check-sat-using) and the values of every constant.
 */
export function standaloneScript(script: string, checkSat = '(check-sat)'): string {
  const names = declaredSymbols(script);
  const models = '(set-option :produce-models true)';
  // after the leading comments, which name the query and its fragment
  const withModels = /^\(set-logic /m.test(script) ? script.replace(/^(?=\(set-logic )/m, `${models}\n`) : `${models}\n${script}`;
  return [
    withModels,
    checkSat,
    ...(names.length === 0 ? [] : [`(get-value (${names.join(' ')}))`]),
  ].join('\n');
}
