/**
 * Shared subterms named once. The protocol inlines a kernel's pure lets, so
 * a chain of lets that each use the one before (`cy = y < h ? y : h - 1;
 * up = cy > 0 ? cy - 1 : 0; …`), a cast's case split and an operation's
 * definedness all repeat their operands: written out as a tree, a query
 * grows exponentially in the length of the chain, though as built it is a
 * small graph of shared nodes. Here equal nodes are merged (hash-consing) and
 * each large term or formula that the tree would write more than once becomes
 * a fresh constant with its defining equation: `share.N = t` (a formula F as
 * `share.N = ite(F, 1, 0)`, used as `share.N = 1`). This is an equivalence:
 * every term is a total function of the variables, so the definitions only
 * name values, and a model extends to the constants by evaluating their
 * terms. Each constant is declared over a range its term's values always lie
 * in (natural when the term cannot be negative), so the declaration adds
 * nothing either.
 */
import { declaredRange, termBits, type Declaration } from './smtlib.js';
import { eq, num, type Formula, type Term } from './term.js';

/** Terms and formulas written fewer times, or smaller than this many nodes, stay as they are. */
export const MIN_SHARED_SIZE = 16;

export interface Shared {
  readonly assertions: readonly Formula[];
  /** the new constants, declared after the query's own variables */
  readonly declarations: readonly Declaration[];
  /** one equation per constant, among `assertions` */
  readonly names: readonly string[];
}

type Node = Term | Formula;

interface Canonical {
  readonly node: Node;
  readonly isTerm: boolean;
  readonly children: readonly number[];
  /** nodes of the tree the node writes out (capped: a tree can be astronomically large) */
  readonly size: number;
}

const SIZE_CAP = 1e12;

/**
 * Hash-consing: equal terms and formulas get one id, computed once per node
 * object from its children's ids (nodes are immutable), so that comparing
 * two nodes costs nothing after they were seen once, however large.
 */
export class Interner {
  readonly nodes: Canonical[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly seen = new WeakMap<object, number>();

  private intern(node: Node, isTerm: boolean, key: string, children: readonly number[]): number {
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const size = Math.min(SIZE_CAP, children.reduce((s, c) => s + this.nodes[c]!.size, 1));
    this.nodes.push({ node, isTerm, children, size });
    this.byKey.set(key, this.nodes.length - 1);
    return this.nodes.length - 1;
  }

  /** ids are given children first, so a parent's id is above its children's */
  term(t: Term): number {
    const done = this.seen.get(t);
    if (done !== undefined) return done;
    let id: number;
    switch (t.k) {
      case 'num':
        id = this.intern(t, true, `n${t.v}`, []);
        break;
      case 'var':
        id = this.intern(t, true, `v${t.name}`, []);
        break;
      case 'op': {
        const c = [this.term(t.a), this.term(t.b)];
        id = this.intern(t, true, `o${t.op} ${c.join(' ')}`, c);
        break;
      }
      case 'mop': {
        const c = [this.term(t.a), this.term(t.b)];
        id = this.intern(t, true, `m${t.op} ${t.type} ${c.join(' ')}`, c);
        break;
      }
      case 'cast': {
        const c = [this.term(t.a)];
        id = this.intern(t, true, `c${t.type} ${c[0]}`, c);
        break;
      }
      case 'ite': {
        const c = [this.formula(t.c), this.term(t.a), this.term(t.b)];
        id = this.intern(t, true, `i${c.join(' ')}`, c);
        break;
      }
    }
    this.seen.set(t, id);
    return id;
  }

  formula(f: Formula): number {
    const done = this.seen.get(f);
    if (done !== undefined) return done;
    let id: number;
    switch (f.k) {
      case 'const':
        id = this.intern(f, false, `k${f.v}`, []);
        break;
      case 'cmp': {
        const c = [this.term(f.a), this.term(f.b)];
        id = this.intern(f, false, `p${f.op} ${c.join(' ')}`, c);
        break;
      }
      case 'and':
      case 'or': {
        // a conjunct or disjunct said twice is said once (the constructors flatten nested ones into one list)
        const c = [...new Set(f.args.map((g) => this.formula(g)))];
        id = this.intern(f, false, `${f.k} ${c.join(' ')}`, c);
        break;
      }
      case 'not': {
        const c = [this.formula(f.arg)];
        id = this.intern(f, false, `!${c[0]}`, c);
        break;
      }
    }
    this.seen.set(f, id);
    return id;
  }
}

/** The assertions with their large repeated subterms named (see the module comment); `declarations` are the query's variables. */
export function shareSubterms(declarations: readonly Declaration[], assertions: readonly Formula[]): Shared {
  const interner = new Interner();
  const nodes = interner.nodes;
  const roots = assertions.map((f) => interner.formula(f));

  // how often the tree writes each node, once the nodes above it that are named are written once
  const occurrences = new Array<number>(nodes.length).fill(0);
  for (const r of roots) occurrences[r]! += 1;
  const named = new Array<boolean>(nodes.length).fill(false);
  for (let id = nodes.length - 1; id >= 0; id--) {
    const n = nodes[id]!;
    named[id] = n.children.length > 0 && occurrences[id]! >= 2 && n.size >= MIN_SHARED_SIZE;
    const times = named[id] ? 1 : occurrences[id]!;
    for (const c of n.children) occurrences[c]! += times;
  }
  // a node whose children are named may be small itself: written out each time, it costs less than a name
  const written = new Array<number>(nodes.length).fill(0);
  for (let id = 0; id < nodes.length; id++) {
    written[id] = nodes[id]!.children.reduce((s, c) => s + (named[c] ? 1 : written[c]!), 1);
    if (named[id] && written[id]! < MIN_SHARED_SIZE) named[id] = false;
  }
  if (!named.some((x) => x)) return { assertions, declarations: [], names: [] };

  // rebuilt children first: a node's children are then written as their names where named
  const taken = new Set(declarations.map((d) => d.name));
  const bits = new Map(declarations.map((d) => [d.name, d]));
  const newDeclarations: Declaration[] = [];
  const definitions: Formula[] = [];
  const names: string[] = [];
  const out: Node[] = [];
  let counter = 0;
  const freshName = (): string => {
    let name: string;
    do name = `share.${counter++}`;
    while (taken.has(name));
    taken.add(name);
    return name;
  };
  for (let id = 0; id < nodes.length; id++) {
    const n = nodes[id]!;
    const body = rebuilt(n.node, n.children.map((c) => out[c]!));
    if (!named[id]) {
      out.push(body);
      continue;
    }
    const name = freshName();
    const value: Term = n.isTerm ? (body as Term) : { k: 'ite', c: body as Formula, a: num(1), b: num(0) };
    const d = declarationOf(name, value, bits);
    bits.set(name, d);
    newDeclarations.push(d);
    names.push(name);
    const v: Term = { k: 'var', name };
    definitions.push(eq(v, value));
    out.push(n.isTerm ? v : eq(v, num(1)));
  }
  return { assertions: [...definitions, ...roots.map((r) => out[r] as Formula)], declarations: newDeclarations, names };
}

/** The node with its children replaced, in order. */
function rebuilt(node: Node, c: readonly Node[]): Node {
  switch (node.k) {
    case 'num':
    case 'var':
    case 'const':
      return node;
    case 'op':
      return { k: 'op', op: node.op, a: c[0] as Term, b: c[1] as Term };
    case 'mop':
      return { k: 'mop', op: node.op, type: node.type, a: c[0] as Term, b: c[1] as Term };
    case 'cast':
      return { k: 'cast', type: node.type, a: c[0] as Term };
    case 'ite':
      return { k: 'ite', c: c[0] as Formula, a: c[1] as Term, b: c[2] as Term };
    case 'cmp':
      return { k: 'cmp', op: node.op, a: c[0] as Term, b: c[1] as Term };
    case 'and':
    case 'or':
      // one argument left once repeated ones are dropped
      return c.length === 1 ? c[0]! : { k: node.k, args: c as Formula[] };
    case 'not':
      return { k: 'not', arg: c[0] as Formula };
  }
}

/** A declaration every value of the term satisfies: a natural when the term cannot be negative, else an integer of its magnitude's bits. */
function declarationOf(name: string, t: Term, declared: ReadonlyMap<string, Declaration>): Declaration {
  const bits = termBits(t, (n) => declared.get(n)?.bits ?? 32);
  return nonNegative(t, declared) ? { name, bits } : { name, bits, type: 'int' };
}

/** Whether the term is never negative: a natural variable, and natural arithmetic on such terms. */
export function nonNegative(t: Term, declared: ReadonlyMap<string, Declaration>): boolean {
  switch (t.k) {
    case 'num':
      return t.v >= 0n;
    case 'var': {
      const d = declared.get(t.name);
      return d !== undefined && declaredRange(d).min >= 0n;
    }
    case 'op':
      return nonNegative(t.a, declared) && nonNegative(t.b, declared);
    case 'ite':
      return nonNegative(t.a, declared) && nonNegative(t.b, declared);
    case 'mop':
    case 'cast':
      return false;
  }
}
