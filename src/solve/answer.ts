/**
 * A solver binary's answer to check-sat and get-value, read as S-expressions:
 * the first sat/unsat/unknown decides, the values of a sat answer make the
 * model. Integers (also `(- n)`) and bit-vectors (`#b…`, `#x…`, `(_ bvN W)`)
 * are understood; anything else makes the answer unknown, never unsat.
 */
import type { Verdict } from './solver.js';

export type SExpr = string | readonly SExpr[];

/** Tokens: parentheses, string literals, |quoted symbols| and atoms; comments dropped. */
function tokens(text: string): string[] {
  return [...text.matchAll(/;[^\n]*|"(?:[^"]|"")*"|\|[^|]*\||[()]|[^\s()";|]+/g)].map((m) => m[0]).filter((t) => !t.startsWith(';'));
}

/** Every complete top-level S-expression of the text; an unfinished one at the end is dropped. */
export function sexprs(text: string): SExpr[] {
  const top: SExpr[] = [];
  const stack: SExpr[][] = [];
  for (const t of tokens(text)) {
    if (t === '(') {
      stack.push([]);
    } else if (t === ')') {
      const done = stack.pop();
      if (done === undefined) continue;
      (stack.at(-1) ?? top).push(done);
    } else {
      (stack.at(-1) ?? top).push(t);
    }
  }
  return top;
}

const unquoted = (symbol: string): string => (symbol.startsWith('|') && symbol.endsWith('|') ? symbol.slice(1, -1) : symbol);

/** The natural or integer an SMT-LIB value denotes, or null. */
export function valueOf(v: SExpr): bigint | null {
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return BigInt(v);
    if (/^#b[01]+$/.test(v)) return BigInt(`0b${v.slice(2)}`);
    if (/^#x[0-9a-fA-F]+$/.test(v)) return BigInt(`0x${v.slice(2)}`);
    return null;
  }
  if (v.length === 2 && v[0] === '-') {
    const n = valueOf(v[1]!);
    return n === null ? null : -n;
  }
  if (v.length === 3 && v[0] === '_' && typeof v[1] === 'string' && /^bv\d+$/.test(v[1])) return BigInt(v[1].slice(2));
  return null;
}

/** `((x 1) (y #b01))` as a map, or null when it is not a get-value answer. */
function modelOf(v: SExpr): Map<string, bigint> | null {
  if (typeof v === 'string') return null;
  const model = new Map<string, bigint>();
  for (const pair of v) {
    if (typeof pair === 'string' || pair.length !== 2 || typeof pair[0] !== 'string') return null;
    const value = valueOf(pair[1]!);
    if (value === null) return null;
    model.set(unquoted(pair[0]), value);
  }
  return model;
}

const isError = (v: SExpr): v is readonly [string, string] => typeof v !== 'string' && v[0] === 'error' && typeof v[1] === 'string';

const stringOf = (literal: string): string => (literal.startsWith('"') ? literal.slice(1, -1).replace(/""/g, '"') : literal);

/** The reason a solver gave with `(get-info :reason-unknown)`, if it did. */
function reasonOf(answers: readonly SExpr[]): string | null {
  for (const a of answers) {
    if (typeof a !== 'string' && a[0] === ':reason-unknown' && a[1] !== undefined) return typeof a[1] === 'string' ? stringOf(a[1]) : 'unknown';
  }
  return null;
}

/** The resource units Z3 says it spent, from `(get-info :rlimit)`, or null. */
export function spentOf(stdout: string): number | null {
  for (const a of sexprs(stdout)) {
    if (typeof a !== 'string' && a[0] === ':rlimit' && typeof a[1] === 'string' && /^\d+$/.test(a[1])) return Number(a[1]);
  }
  return null;
}

/**
 * The verdict in a solver's output. `expectsModel` is false for a query
 * without constants, whose script asks for no values.
 */
export function verdictOfAnswer(stdout: string, expectsModel: boolean): Verdict {
  const answers = sexprs(stdout);
  const at = answers.findIndex((a) => a === 'sat' || a === 'unsat' || a === 'unknown');
  const errors = answers.filter(isError).map((e) => stringOf(e[1]));
  if (at < 0) {
    const said = errors[0] ?? (stdout.trim() === '' ? 'no output' : stdout.trim().split('\n')[0]!);
    return { status: 'unknown', reason: `no answer from the solver: ${said}` };
  }
  // Z3 goes on after a command it rejects: its verdict would be on part of the query
  const rejected = answers.slice(0, at).find(isError);
  if (rejected !== undefined) return { status: 'unknown', reason: `the solver rejected the query: ${stringOf(rejected[1])}` };
  switch (answers[at]) {
    case 'unsat':
      return { status: 'unsat' };
    case 'sat': {
      if (!expectsModel) return { status: 'sat', model: new Map() };
      const model = answers.slice(at + 1).map(modelOf).find((m) => m !== null) ?? null;
      if (model === null) return { status: 'unknown', reason: `sat, but no values: ${errors[0] ?? 'the get-value answer was not understood'}` };
      return { status: 'sat', model };
    }
    default:
      return { status: 'unknown', reason: reasonOf(answers.slice(at + 1)) ?? 'unknown' };
  }
}
