/**
 * Loops. A loop of a canonical shape becomes the core's exact `for`: its
 * variable moves by a loop-invariant `+= k`/`-= k` (`++`, `--`), `*= k`/`<<= k`
 * or `/= k`/`>>= k`, is not assigned in the body, and is compared with a
 * loop-invariant bound by `<`, `<=`, `>`, `>=` or `!=`. A `while` loop whose
 * body ends with such an update is the same loop. Other loops are
 * approximated: they run an unknown number of times. Locals a loop's body
 * assigns are unknown at its head and after it (approximations, each with
 * what, where and why), but for a local that moves by a constant step each
 * iteration alongside an additive loop variable (an induction variable),
 * whose value the front end computes.
 */
import type { Node } from './parse.js';
import type { BExpr, DownStep, Expr, MachineType, Stmt, UpStep } from '../../core/ast.js';
import { located, positionAt, type Span } from '../../core/source.js';
import { and, arith, castTo, compare, constant, ite } from './build.js';
import { branch, emitIf, FALSE, fresh, havocked, isPointer, mapPointers, slotMachine, spanOf, TRUE, type Ctx, type LoopFrame, type Slot, type Value } from './context.js';
import { commonType, isInteger, isSigned, leavesOf, partAt, rangeOf, widthOf, type CType } from './ctypes.js';
import { launchMax } from './limits.js';
import { binaryValue, condition, convert, hasEffects, intOf, named, placeType, rvalue, slotValue } from './expr.js';
import { exitCondition, lowerStatement, lowerStatements, setFlag, withScope } from './stmt.js';
import { fileFunctions, parametersOf } from './calls.js';
import { baseType, declared } from './types.js';
import { not } from './build.js';
import { cellsNamed } from './locals.js';
import { objectsChangedIn } from './members.js';

type Op = UpStep | DownStep;
type Cmp = '<' | '<=' | '>' | '>=' | '!=';

interface Shape {
  readonly slot: Slot;
  readonly op: Op;
  /** the step amount's node; null for ++/-- */
  readonly amount: Node | null;
  /** `<<=`/`>>=`: the amount is an exponent of 2 */
  readonly shift: boolean;
  readonly cmp: Cmp;
  readonly bound: Node;
  /**
   * The test and the step as written (for a `while`, the expression inside
   * its parentheses and the body's last statement): where the loop is not
   * exact after all, the approximation runs these, never the loop node's
   * fields (a `while` has no update, and its condition field is the clause).
   */
  readonly test: Node;
  readonly step: Node;
}

const FLIP: Record<string, Cmp> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=', '!=': '!=' };

export function forLoop(ctx: Ctx, n: Node): void {
  withScope(ctx, () => {
    const init = n.childForFieldName('initializer');
    if (init !== null) {
      if (init.type === 'declaration') lowerStatement(ctx, init);
      else rvalue(ctx, init);
    }
    const cond = n.childForFieldName('condition');
    const update = n.childForFieldName('update');
    const body = n.childForFieldName('body')!;
    const exact = cond === null || update === null ? null : commaLoop(ctx, cond, update, body);
    if (exact !== null) exactLoop(ctx, exact.shape, exact.body, n);
    else approximateLoop(ctx, { cond, body: [body], update, first: 'cond' }, n, cond === null ? 'it has no condition' : 'its shape is not one faial-ts makes exact');
  });
}

/**
 * A `for` whose update is one canonical step (`i += k`), or a comma list of
 * steps one of which is the loop variable's (`a += aStep, b += bStep`, the
 * tiled matrix product's loop): the others run after the body, as C runs the
 * whole update after it, which is the same where they do not name the loop
 * variable and the body has no `continue` (which would skip them). Null when
 * the loop is not one faial-ts makes exact.
 */
function commaLoop(ctx: Ctx, cond: Node, update: Node, body: Node): { shape: Shape; body: readonly Node[] } | null {
  const u = bare(update);
  if (u.type !== 'comma_expression') {
    const shape = canonical(ctx, cond, update, [body]);
    return shape === null ? null : { shape, body: [body] };
  }
  if (contains(body, 'continue_statement')) return null;
  const parts = commaParts(u);
  for (const [i, part] of parts.entries()) {
    const step = stepOf(bare(part));
    if (step === null) continue;
    const others = parts.filter((_, j) => j !== i);
    if (others.some((o) => identifiers(o).has(step.name))) continue;
    const shape = canonical(ctx, cond, part, [body, ...others]);
    if (shape !== null) return { shape, body: [body, ...others] };
  }
  return null;
}

/** The expressions of a comma list, in order. */
function commaParts(n: Node): Node[] {
  return n.type === 'comma_expression' ? [...commaParts(n.childForFieldName('left')!), ...commaParts(n.childForFieldName('right')!)] : [n];
}

export function whileLoop(ctx: Ctx, n: Node): void {
  const cond = named(n.childForFieldName('condition')!)[0]!;
  const body = n.childForFieldName('body')!;
  const exact = whileShape(ctx, cond, body);
  if (exact !== null) return withScope(ctx, () => exactLoop(ctx, exact.shape, exact.rest, n));
  approximateLoop(ctx, { cond, body: [body], update: null, first: 'cond' }, n, 'its shape is not one faial-ts makes exact');
}

/** A `while (cond) body` whose body ends with its variable's canonical step: the shape and the statements before the step; else null. */
function whileShape(ctx: Ctx, cond: Node, body: Node): { shape: Shape; rest: readonly Node[] } | null {
  const stmts = body.type === 'compound_statement' ? named(body) : [body];
  const last = stmts[stmts.length - 1];
  const update = last?.type === 'expression_statement' ? named(last)[0] : undefined;
  const rest = stmts.slice(0, -1);
  if (update === undefined || rest.some((s) => contains(s, 'continue_statement'))) return null;
  const shape = canonical(ctx, cond, update, rest);
  return shape === null ? null : { shape, rest };
}

export function doLoop(ctx: Ctx, n: Node): void {
  const cond = n.childForFieldName('condition')!;
  const body = n.childForFieldName('body')!;
  const jumps = contains(body, 'break_statement') || contains(body, 'continue_statement');
  // `do { … } while (0)`, the statement-like macro's idiom (`#define SYNC() do { __syncthreads(); } while (0)`), runs
  // its body once: approximated, a barrier in it was a possible divergence; with a break or continue it stays a loop
  const test = bare(named(cond)[0] ?? cond);
  const once = (test.type === 'number_literal' && /^0+[uUlL]*$/.test(test.text)) || test.type === 'false';
  if (once && !jumps) return withScope(ctx, () => lowerStatement(ctx, body));
  // `do { …; s >>= 1; } while (s > 0)` is its body once, then `while (s > 0) { …; s >>= 1; }`: exact where that
  // loop is (a break or continue would have to leave the first copy too, so those stay approximated). The shape
  // is syntax and bindings of names declared before the loop, which the first copy does not change.
  const exact = jumps ? null : whileShape(ctx, named(cond)[0] ?? cond, body);
  if (exact !== null) {
    withScope(ctx, () => lowerStatement(ctx, body));
    return withScope(ctx, () => exactLoop(ctx, exact.shape, exact.rest, n));
  }
  approximateLoop(ctx, { cond: named(cond)[0] ?? cond, body: [n.childForFieldName('body')!], update: null, first: 'body' }, n, 'faial-ts does not make do-while loops exact');
}

// ---------------------------------------------------------------- shapes

/*
 * Every loop asks these questions of its whole body, and a loop nested d deep
 * is in the body of d loops: scanning again at each level made lowering
 * quadratic in the depth (issue 30). The answers are facts of the syntax
 * alone, so each node's are computed once (the tree's nodes are objects that
 * live as long as the parse) and a loop combines its statements' answers.
 */
const containsBelow = new WeakMap<Node, Map<string, boolean>>();
const assignedBelowOf = new WeakMap<Node, ReadonlySet<string>>();
const assignmentCountsOf = new WeakMap<Node, ReadonlyMap<string, number>>();
const aliasSitesOf = new WeakMap<Node, readonly Node[]>();
const declaredBelowOf = new WeakMap<Node, ReadonlySet<string>>();

const NONE: ReadonlySet<string> = new Set();

function contains(n: Node, type: string): boolean {
  let known = containsBelow.get(n);
  if (known === undefined) containsBelow.set(n, (known = new Map()));
  const answer = known.get(type);
  if (answer !== undefined) return answer;
  const found = containsUncached(n, type);
  known.set(type, found);
  return found;
}

function containsUncached(n: Node, type: string): boolean {
  if (n.type === type) return true;
  // a nested loop has its own break and continue
  if ((type === 'continue_statement' || type === 'break_statement') && (n.type === 'for_statement' || n.type === 'while_statement' || n.type === 'do_statement')) return false;
  // a switch has its own break
  if (type === 'break_statement' && n.type === 'switch_statement') return false;
  return named(n).some((c) => contains(c, type));
}

/**
 * The union of the children's answers and the node's own: a node that adds
 * nothing to a single child's answer shares it, so a chain of nested
 * statements costs no copies.
 */
function unionOf<T>(own: readonly T[], parts: readonly ReadonlySet<T>[]): ReadonlySet<T> {
  const nonEmpty = parts.filter((p) => p.size > 0);
  if (own.length === 0 && nonEmpty.length <= 1) return nonEmpty[0] ?? (NONE as ReadonlySet<T>);
  const out = new Set<T>(own);
  for (const p of nonEmpty) for (const x of p) out.add(x);
  return out;
}

/** The names the code below n assigns (=, op=, ++, --) or takes the address of, by their root identifier. */
function assignedBelow(n: Node): ReadonlySet<string> {
  const known = assignedBelowOf.get(n);
  if (known !== undefined) return known;
  const own: string[] = [];
  if (n.type === 'assignment_expression' || n.type === 'update_expression') {
    const target = n.childForFieldName(n.type === 'assignment_expression' ? 'left' : 'argument');
    let root = target;
    while (root !== null && (root.type === 'field_expression' || root.type === 'parenthesized_expression')) {
      root = root.type === 'field_expression' && root.child(1)?.type === '.' ? root.childForFieldName('argument') : root.type === 'parenthesized_expression' ? named(root)[0]! : null;
    }
    if (root?.type === 'identifier') own.push(root.text);
  }
  if (n.type === 'pointer_expression' && n.child(0)?.type === '&') {
    const arg = n.childForFieldName('argument');
    if (arg?.type === 'identifier') own.push(arg.text);
  }
  const names = unionOf(own, named(n).map(assignedBelow));
  assignedBelowOf.set(n, names);
  return names;
}

/**
 * The names the code below n declares (a superset: every identifier of a
 * declarator but its initialiser). A body that declares `j` may shadow the
 * loop's `j`: its `j++` is not the outer one's step, and taking it for one
 * read `a[i - j]` as `a[0]` in every iteration (a racy kernel found benign).
 */
function declaredBelow(n: Node): ReadonlySet<string> {
  const known = declaredBelowOf.get(n);
  if (known !== undefined) return known;
  const own: string[] = [];
  if (n.type === 'declaration') {
    for (const d of n.childrenForFieldName('declarator')) {
      const target = d.type === 'init_declarator' ? d.childForFieldName('declarator') : d;
      if (target !== null) own.push(...identifiers(target));
    }
  }
  const names = unionOf(own, named(n).map(declaredBelow));
  declaredBelowOf.set(n, names);
  return names;
}

const declaresAny = (nodes: readonly Node[], name: string): boolean => nodes.some((n) => declaredBelow(n).has(name));

/** The names a piece of code assigns (=, op=, ++, --), by their root identifier. */
function assignedNames(nodes: readonly Node[], out = new Set<string>()): Set<string> {
  for (const n of nodes) for (const name of assignedBelow(n)) out.add(name);
  return out;
}

/** How many assignments and updates below n have each bare identifier as their target. */
function assignmentCounts(n: Node): ReadonlyMap<string, number> {
  const known = assignmentCountsOf.get(n);
  if (known !== undefined) return known;
  let own: string | null = null;
  if (n.type === 'assignment_expression' || n.type === 'update_expression') {
    const t = bare(n.childForFieldName(n.type === 'assignment_expression' ? 'left' : 'argument')!);
    if (t.type === 'identifier') own = t.text;
  }
  const parts = named(n).map(assignmentCounts).filter((p) => p.size > 0);
  let counts: ReadonlyMap<string, number>;
  if (own === null && parts.length <= 1) counts = parts[0] ?? new Map();
  else {
    const sum = new Map<string, number>(own === null ? [] : [[own, 1]]);
    for (const p of parts) for (const [name, c] of p) sum.set(name, (sum.get(name) ?? 0) + c);
    counts = sum;
  }
  assignmentCountsOf.set(n, counts);
  return counts;
}

/** The declarations with an initialiser and the calls with arguments below n: where aliasedSlots looks for references. */
function aliasSites(n: Node): readonly Node[] {
  const known = aliasSitesOf.get(n);
  if (known !== undefined) return known;
  const own =
    (n.type === 'declaration' && n.childrenForFieldName('declarator').some((d) => d.type === 'init_declarator')) ||
    (n.type === 'call_expression' && named(n.childForFieldName('arguments')!).length > 0);
  const parts = named(n).map(aliasSites).filter((p) => p.length > 0);
  const sites = !own && parts.length <= 1 ? (parts[0] ?? []) : [...(own ? [n] : []), ...parts.flat()];
  aliasSitesOf.set(n, sites);
  return sites;
}

/** The local an lvalue's root names: `x`, `x.f`, `(x)`, or the local a reference `r` names; null for memory. */
function rootSlot(ctx: Ctx, n: Node | null): Slot | null {
  let root = n;
  while (root !== null && (root.type === 'parenthesized_expression' || (root.type === 'field_expression' && root.child(1)?.type === '.'))) {
    root = root.type === 'parenthesized_expression' ? (named(root)[0] ?? null) : root.childForFieldName('argument');
  }
  if (root?.type !== 'identifier') return null;
  const b = ctx.scope.lookup(root.text);
  if (b?.kind === 'local') return b.slot;
  return b?.kind === 'alias' && b.place.kind === 'slot' ? b.place.slot : null;
}

/** Whether a function of the file may take its i-th argument by reference: a reference parameter there, or a template with explicit arguments (which may be references). */
function takesReference(ctx: Ctx, call: Node, i: number): boolean {
  const fn = call.childForFieldName('function');
  if (fn === null) return false;
  if (fn.type === 'template_function') return true;
  const found = fn.type === 'identifier' || fn.type === 'qualified_identifier' ? fileFunctions(ctx, fn, call) : null;
  if (found === null) return false;
  if (found.templateArgs.length > 0) return true;
  return found.defs.some((d) => {
    const p = parametersOf(d)[i];
    if (p === undefined) return false;
    // a parameter without a type does not parse (the call is rejected where it is inlined): it may be anything
    const type = p.childForFieldName('type');
    return type === null || declared(baseType({ unit: ctx.unit, scope: null }, type), p.childForFieldName('declarator')).reference;
  });
}

/**
 * The locals a loop's code may change through a reference, which their names
 * do not show: assigned through a reference declared before the loop, named
 * by a reference declared inside it, or passed to a function taking references.
 */
function aliasedSlots(ctx: Ctx, nodes: readonly Node[]): Set<Slot> {
  const out = new Set<Slot>();
  for (const name of assignedNames(nodes)) {
    const b = ctx.scope.lookup(name);
    if (b?.kind === 'alias' && b.place.kind === 'slot') out.add(b.place.slot);
  }
  // a type defined inside the loop is not in scope yet: any named type may then be a reference
  const localTypes = nodes.some((n) => contains(n, 'type_definition') || contains(n, 'alias_declaration'));
  const site = (n: Node): void => {
    if (n.type === 'declaration') {
      const typeNode = n.childForFieldName('type');
      const primitive = typeNode?.type === 'primitive_type' || typeNode?.type === 'sized_type_specifier' || typeNode?.type === 'placeholder_type_specifier';
      const reference = typeNode !== null && (localTypes ? !primitive : baseType(ctx, typeNode).kind === 'reference');
      for (const d of n.childrenForFieldName('declarator')) {
        if (d?.type !== 'init_declarator' || (!reference && !contains(d, 'reference_declarator'))) continue;
        const s = rootSlot(ctx, d.childForFieldName('value'));
        if (s !== null) out.add(s);
      }
    }
    if (n.type === 'call_expression') {
      named(n.childForFieldName('arguments')!).forEach((a, i) => {
        const s = takesReference(ctx, n, i) ? rootSlot(ctx, a) : null;
        if (s !== null) out.add(s);
      });
    }
  };
  for (const n of nodes) aliasSites(n).forEach(site);
  return out;
}

function identifiers(n: Node, out = new Set<string>()): Set<string> {
  if (n.type === 'identifier') out.add(n.text);
  for (const c of named(n)) identifiers(c, out);
  return out;
}

/**
 * Whether `n` has one value in every iteration of a loop: it reads no memory,
 * and no name in it is assigned by the loop, nor a local the loop changes
 * without naming it (`changed`: through a reference, or an object through its
 * members; a data member's name in a member function is a place of the object).
 */
function invariant(ctx: Ctx, n: Node, assigned: ReadonlySet<string>, changed: ReadonlySet<Slot>): boolean {
  if (hasEffects(ctx, n)) return false;
  for (const name of identifiers(n)) {
    if (assigned.has(name)) return false;
    const b = ctx.scope.lookup(name);
    const slot = b?.kind === 'local' ? b.slot : b?.kind === 'alias' && b.place.kind === 'slot' ? b.place.slot : null;
    if (slot !== null && changed.has(slot)) return false;
  }
  return true;
}

/** The locals a loop's code changes without assigning them by name. */
function changedUnnamed(ctx: Ctx, body: readonly Node[]): Set<Slot> {
  return new Set([...aliasedSlots(ctx, body), ...objectsChangedIn(ctx, body), ...fieldTargetSlots(ctx, body)]);
}

/** A target that is part of a variable through its fields: `z.keys[0]` (an element of an array field), `z.y` whose address is taken. */
interface FieldTarget {
  readonly root: string;
  /** the field path from the variable (`keys`, `in.keys`) */
  readonly path: string;
  /** an element of the field at `path` (then the field must be an array field for the variable to change) */
  readonly element: boolean;
}

const fieldTargetsOf = new WeakMap<Node, readonly FieldTarget[]>();

/**
 * The targets below n that assignedBelow's names do not show: an element of
 * an array field of a variable assigned or incremented (`z.keys[0] = 1`), or
 * a field whose address is taken (`f(&z.y)`, `&z.keys[j]`). Syntax alone,
 * computed once per node (see above).
 */
function fieldTargets(n: Node): readonly FieldTarget[] {
  const known = fieldTargetsOf.get(n);
  if (known !== undefined) return known;
  const own: FieldTarget[] = [];
  const target =
    n.type === 'assignment_expression' ? n.childForFieldName('left') : n.type === 'update_expression' ? n.childForFieldName('argument') : n.type === 'pointer_expression' && n.child(0)?.type === '&' ? n.childForFieldName('argument') : null;
  const t = target === null ? null : fieldTarget(target);
  if (t !== null && (t.element || n.type === 'pointer_expression')) own.push(t);
  const parts = named(n).map(fieldTargets).filter((p) => p.length > 0);
  const out = own.length === 0 && parts.length <= 1 ? (parts[0] ?? []) : [...own, ...parts.flat()];
  fieldTargetsOf.set(n, out);
  return out;
}

/** `z.in.keys[j]` → z, `in.keys`, an element; `z.y` → z, `y`; null when the target is not reached from a variable through `.` fields. */
function fieldTarget(n: Node): FieldTarget | null {
  let x = bare(n);
  let element = false;
  if (x.type === 'subscript_expression') {
    element = true;
    x = bare(x.childForFieldName('argument')!);
  }
  const path: string[] = [];
  while (x.type === 'field_expression' && x.child(1)?.type === '.') {
    path.unshift(x.childForFieldName('field')!.text);
    x = bare(x.childForFieldName('argument')!);
  }
  return x.type === 'identifier' && path.length > 0 ? { root: x.text, path: path.join('.'), element } : null;
}

/** The locals changed through a field target (`fieldTargets`): an element of an array field, or a field whose address is taken. */
function fieldTargetSlots(ctx: Ctx, nodes: readonly Node[]): Set<Slot> {
  const out = new Set<Slot>();
  for (const t of nodes.flatMap(fieldTargets)) {
    const b = ctx.scope.lookup(t.root);
    const slot = b?.kind === 'local' ? b.slot : b?.kind === 'alias' && b.place.kind === 'slot' ? b.place.slot : null;
    if (slot === null || !ctx.values.has(slot)) continue;
    // an element through a pointer member (`s.p[i] = v`) writes memory, not the variable
    if (t.element && partAt(b?.kind === 'alias' ? placeType(b.place) : slot.ctype, t.path)?.length === undefined) continue;
    out.add(slot);
  }
  return out;
}

const bare = (n: Node): Node => (n.type === 'parenthesized_expression' ? bare(named(n)[0]!) : n);

/** The loop's shape when it is canonical (see the module comment), else null. */
function canonical(ctx: Ctx, cond: Node, update: Node, body: readonly Node[]): Shape | null {
  const c = bare(cond);
  if (c.type !== 'binary_expression') return null;
  const cmpOp = c.childForFieldName('operator')!.type;
  if (!(cmpOp in FLIP)) return null;
  const step = stepOf(bare(update));
  if (step === null) return null;
  const left = bare(c.childForFieldName('left')!);
  const right = bare(c.childForFieldName('right')!);
  const [cmp, bound] = left.type === 'identifier' && left.text === step.name ? [cmpOp as Cmp, right] : right.type === 'identifier' && right.text === step.name ? [FLIP[cmpOp]!, left] : [null, null];
  if (cmp === null || bound === null) return null;
  const binding = ctx.scope.lookup(step.name);
  if (binding?.kind !== 'local' || !isInteger(binding.slot.ctype) || aliasedSlots(ctx, body).has(binding.slot)) return null;
  const assigned = assignedNames(body);
  if (assigned.has(step.name) || declaresAny(body, step.name)) return null;
  assigned.add(step.name);
  const changed = changedUnnamed(ctx, body);
  if (!invariant(ctx, bound, assigned, changed) || (step.amount !== null && !invariant(ctx, step.amount, assigned, changed))) return null;
  const up = step.op === '+' || step.op === '*';
  const fits = up ? cmp === '<' || cmp === '<=' || cmp === '!=' : cmp === '>' || cmp === '>=' || cmp === '!=';
  if (!fits) return null;
  return { slot: binding.slot, op: step.op, amount: step.amount, shift: step.shift, cmp, bound, test: cond, step: update };
}

function stepOf(u: Node): { name: string; op: Op; amount: Node | null; shift: boolean } | null {
  if (u.type === 'update_expression') {
    const arg = bare(u.childForFieldName('argument')!);
    if (arg.type !== 'identifier') return null;
    return { name: arg.text, op: u.childForFieldName('operator')!.type === '++' ? '+' : '-', amount: null, shift: false };
  }
  if (u.type !== 'assignment_expression') return null;
  const target = bare(u.childForFieldName('left')!);
  if (target.type !== 'identifier') return null;
  const op = u.childForFieldName('operator')!.type;
  const right = u.childForFieldName('right')!;
  const compound: Record<string, [Op, boolean]> = { '+=': ['+', false], '-=': ['-', false], '*=': ['*', false], '/=': ['/', false], '<<=': ['*', true], '>>=': ['/', true] };
  if (op in compound) return { name: target.text, op: compound[op]![0], amount: right, shift: compound[op]![1] };
  if (op !== '=') return null;
  const r = bare(right);
  if (r.type !== 'binary_expression') return null;
  const bop = r.childForFieldName('operator')!.type;
  const a = bare(r.childForFieldName('left')!);
  const b = r.childForFieldName('right')!;
  const simple: Record<string, [Op, boolean]> = { '+': ['+', false], '-': ['-', false], '*': ['*', false], '/': ['/', false], '<<': ['*', true], '>>': ['/', true] };
  if (a.type === 'identifier' && a.text === target.text && bop in simple) return { name: target.text, op: simple[bop]![0], amount: b, shift: simple[bop]![1] };
  const bb = bare(b);
  if (bb.type === 'identifier' && bb.text === target.text && (bop === '+' || bop === '*')) return { name: target.text, op: simple[bop]![0], amount: r.childForFieldName('left')!, shift: false };
  return null;
}

// ---------------------------------------------------------------- exact loops

/** The line a span was written on, as the user knows it: the unit's own lines are those of the preprocessed text, its headers inlined. */
const lineOf = (ctx: Ctx, span: Span): string => {
  const at = located(ctx.file, span);
  const line = positionAt(at.file, at.span.start).line;
  return at.file.path === ctx.file.path ? String(line) : `${line} of ${at.file.path}`;
};

function exactLoop(ctx: Ctx, shape: Shape, body: readonly Node[], n: Node): void {
  const span = spanOf(n);
  const vType = slotMachine(shape.slot.ctype)!;
  const from = intOf(ctx, slotValue(ctx, shape.slot, span), span);
  const bound = intOf(ctx, rvalue(ctx, shape.bound), spanOf(shape.bound));
  // the loop runs in the type C compares in
  const t = commonType(commonType(from.type, vType), bound.type);
  const amountValue = shape.amount === null ? { expr: constant(1n, t, span), type: t } : intOf(ctx, rvalue(ctx, shape.amount), spanOf(shape.amount));
  const amount = shape.shift ? arith('<<', constant(1n, t, span), amountValue.expr, t, span) : castTo(amountValue.expr, t, span);
  const start = castTo(from.expr, t, span);
  const limit = castTo(bound.expr, t, span);
  const one = constant(1n, t, span);
  const up = shape.op === '+' || shape.op === '*';
  const inclusiveUp = shape.cmp === '<=';
  const exclusiveDown = shape.cmp === '>' || (shape.cmp === '!=' && shape.op === '-');
  let to = limit;
  // the exclusive bound limit + 1 wraps around to 0 at an unsigned type's maximum, where C's loop runs forever (up) or never (down)
  let bumped = false;
  if ((up && inclusiveUp) || (!up && exclusiveDown)) {
    to = arith('+', limit, one, t, span);
    bumped = !isSigned(t);
  }
  let guard: BExpr | null = null;
  let why = `its variable ${shape.slot.name} may never equal the bound of !=`;
  if (shape.cmp === '!=') {
    if (shape.op === '+') guard = and(compare('<=', start, limit, span), divides(amount, arith('-', limit, start, t, span), t, span));
    else if (shape.op === '-') guard = and(compare('>=', start, limit, span), divides(amount, arith('-', start, limit, t, span), t, span));
    else if (shape.op === '/' && limit.kind === 'int' && limit.value === 0n) {
      to = one;
      guard = isSigned(t) ? compare('>=', start, constant(0n, t, span), span) : null;
    } else return approximateFallback(ctx, shape, body, n, why);
  } else if (shape.op === '-' && !isSigned(t)) {
    // unsigned subtraction wraps: below the step, the variable jumps to a huge value and the loop goes on (`i >= 0; i--` never ends)
    guard = compare('>=', to, amount, span);
    why = `its unsigned variable ${shape.slot.name} may wrap around below the step instead of passing the bound`;
  } else if (shape.op === '*' && !isSigned(t)) {
    // unsigned multiplication wraps too: a value above max / c times c drops below the bound and the loop goes on
    // (`i < n; i *= 2` with n > 2^31 reaches 2^31, then 0, forever). Below the bound every value v < to steps to
    // v · c ≤ (to − 1) · c ≤ max exactly when to ≤ max / c + 1; a step that is no constant is not bounded so.
    const c = amount.kind === 'int' ? amount.value : null;
    if (c === null) guard = { kind: 'bool', value: false, span };
    else if (c >= 2n) {
      const most = rangeOf(t).max / c + 1n;
      // `s < blockDim.x; s *= 2`: the launch limits (every kernel's preconditions) keep the bound below it
      const below = launchMax(to);
      guard = below !== null && below <= most ? { kind: 'bool', value: true, span } : compare('<=', to, constant(most, t, span), span);
    }
    why = `its unsigned variable ${shape.slot.name} may wrap around above the type's maximum when multiplied by the step instead of passing the bound`;
  }
  if (bumped) {
    const below = compare('<', limit, constant(rangeOf(t).max, t, span), span);
    if (!(below.kind === 'bool' && below.value)) {
      const wraps = `its bound may be the unsigned type's maximum, where bound + 1 wraps around to 0`;
      why = guard === null ? wraps : `${wraps}, or ${why}`;
    }
    guard = guard === null ? below : and(below, guard);
  }
  const loop = (): void => emitFor(ctx, shape, body, { from: start, to, direction: up ? 'up' : 'down', op: shape.op, amount, type: t, vType }, n);
  if (guard === null || (guard.kind === 'bool' && guard.value)) loop();
  else if (guard.kind === 'bool') approximateFallback(ctx, shape, body, n, why);
  else {
    const exact = branch(ctx, loop);
    const rough = branch(ctx, () => approximateFallback(ctx, shape, body, n, why));
    emitIf(ctx, guard, exact, rough, span);
  }
}

function divides(k: Expr, e: Expr, t: MachineType, span: Span): BExpr {
  if (k.kind === 'int' && k.value === 1n) return { kind: 'bool', value: true, span };
  return compare('==', arith('%', e, k, t, span), constant(0n, t, span), span);
}

function approximateFallback(ctx: Ctx, shape: Shape, body: readonly Node[], n: Node, why: string): void {
  approximateLoop(ctx, { cond: shape.test, body, update: shape.step, first: 'cond', stepOf: shape }, n, why);
}

interface ForPlan {
  readonly from: Expr;
  readonly to: Expr;
  readonly direction: 'up' | 'down';
  readonly op: Op;
  readonly amount: Expr;
  readonly type: MachineType;
  readonly vType: MachineType;
}

function emitFor(ctx: Ctx, shape: Shape, body: readonly Node[], plan: ForPlan, n: Node): void {
  const span = spanOf(n);
  const x = fresh(ctx, shape.slot.name);
  const xVar: Expr = { kind: 'var', name: x, type: plan.type, span: shape.slot.span };
  const assigned = assignedSlots(ctx, body);
  assigned.delete(shape.slot);
  const inductions = plan.op === '+' || plan.op === '-' ? inductionSteps(ctx, body, assigned) : new Map<Slot, Node>();
  const toggles = toggleSteps(ctx, body, assigned);
  const before = new Map([...assigned].map((s) => [s, ctx.values.get(s)!] as const));
  const frame: LoopFrame = { broke: { name: 'break', ctype: { kind: 'bool' }, span }, continued: { name: 'continue', ctype: { kind: 'bool' }, span } };
  const savedLoop = ctx.loop;
  const inner = branch(ctx, () => {
    ctx.loop = frame;
    brokeAtHead(ctx, frame, body, n);
    setFlag(ctx, frame.continued, FALSE);
    ctx.k.defs.set(x, null);
    const value = plan.type === plan.vType ? xVar : castTo(xVar, plan.vType, span);
    ctx.values.set(shape.slot, { kind: 'int', expr: value, type: plan.vType });
    if (plan.type !== plan.vType) {
      // iterations where the variable left its own type are past C's overflow: outside the scope of the proof
      const own = rangeOf(plan.vType);
      const loop = rangeOf(plan.type);
      const above = own.min > loop.min ? compare('>=', xVar, constant(own.min, plan.type, span), span) : TRUE;
      const below = own.max < loop.max ? compare('<=', xVar, constant(own.max, plan.type, span), span) : TRUE;
      const inRange = and(above, below);
      if (inRange.kind !== 'bool') ctx.b.stmt({ kind: 'assume', cond: inRange, span });
    }
    const k = iterationCount(xVar, plan, span);
    const even = toggles.size > 0 ? evenIteration(xVar, k, plan, span) : null;
    for (const slot of assigned) {
      const step = inductions.get(slot);
      const toggle = toggles.get(slot);
      const start = before.get(slot)!;
      if (step !== undefined && start.kind === 'int' && k !== null) {
        ctx.values.set(slot, inductionValue(ctx, slot, start, step, k, span));
      } else if (toggle !== undefined && start.kind === 'int' && even !== null) {
        ctx.values.set(slot, toggleValue(ctx, slot, start, toggle, even, span));
      } else {
        unknownAtHead(ctx, slot, n, `${slot.name} is updated in the loop in a way faial-ts does not solve`);
      }
    }
    withScope(ctx, () => lowerStatements(ctx, body));
  });
  ctx.loop = savedLoop;
  const stmt: Stmt = {
    kind: 'for',
    var: { text: x, span: shape.slot.span },
    from: plan.from,
    to: plan.to,
    direction: plan.direction,
    step: isDefaultStep(plan) ? null : { op: plan.op, amount: plan.amount },
    type: plan.type,
    body: inner.stmts.length > 0 ? inner.stmts : [{ kind: 'skip', span }],
    span,
  };
  ctx.b.stmt(stmt);
  afterLoop(ctx, [...assigned, shape.slot], n);
}

function isDefaultStep(plan: ForPlan): boolean {
  const unit = plan.amount.kind === 'int' && plan.amount.value === 1n;
  return unit && ((plan.direction === 'up' && plan.op === '+') || (plan.direction === 'down' && plan.op === '-'));
}

/** The iteration number of loop value x: (x - from) / k up, (from - x) / k down; null for a multiplicative loop. */
function iterationCount(x: Expr, plan: ForPlan, span: Span): Expr | null {
  if (plan.op === '*' || plan.op === '/') return null;
  const distance = plan.op === '+' ? arith('-', x, plan.from, plan.type, span) : arith('-', plan.from, x, plan.type, span);
  return arith('/', distance, plan.amount, plan.type, span);
}

/**
 * What tells that a top-level statement of a loop's body runs once per
 * iteration and is the only assignment of its name: the body's top-level
 * statements, how often it assigns each name, the locals it reaches through
 * references. Null when a break, continue or return could skip a statement.
 */
function runsOnce(ctx: Ctx, body: readonly Node[]): { stmts: readonly Node[]; counts: ReadonlyMap<string, number>; aliased: ReadonlySet<Slot> } | null {
  if (body.some((b) => contains(b, 'break_statement') || contains(b, 'continue_statement') || contains(b, 'return_statement'))) return null;
  const stmts = body.flatMap((b) => (b.type === 'compound_statement' ? named(b) : [b]));
  const counts = new Map<string, number>();
  for (const b of body) for (const [name, c] of assignmentCounts(b)) counts.set(name, (counts.get(name) ?? 0) + c);
  return { stmts, counts, aliased: aliasedSlots(ctx, body) };
}

/** Locals a loop moves by a constant step once per iteration, unconditionally (`s += k` at the body's top level), and by nothing else. */
function inductionSteps(ctx: Ctx, body: readonly Node[], assigned: ReadonlySet<Slot>): Map<Slot, Node> {
  const out = new Map<Slot, Node>();
  const once = runsOnce(ctx, body);
  if (once === null) return out;
  const { stmts, counts, aliased } = once;
  const names = new Set([...assigned].map((s) => s.name));
  for (const s of stmts) {
    // a statement of the body, or a step of a comma update run after it (commaLoop)
    const e = s.type === 'expression_statement' ? named(s)[0] : s.type.endsWith('_expression') ? s : undefined;
    const step = e === undefined ? null : stepOf(bare(e));
    if (step === null || (step.op !== '+' && step.op !== '-') || counts.get(step.name) !== 1 || !names.has(step.name) || declaresAny(body, step.name)) continue;
    const binding = ctx.scope.lookup(step.name);
    if (binding?.kind !== 'local' || !assigned.has(binding.slot) || !isInteger(binding.slot.ctype) || aliased.has(binding.slot)) continue;
    const assignedHere = assignedNames(body);
    if (step.amount !== null && !invariant(ctx, step.amount, assignedHere, changedUnnamed(ctx, body))) continue;
    out.set(binding.slot, step.op === '-' ? negativeStep(e!) : (step.amount ?? e!));
  }
  return out;
}

/** Marks a decreasing step; the amount node is looked up again when the value is computed. */
const NEGATIVE = new WeakSet<Node>();
function negativeStep(e: Node): Node {
  NEGATIVE.add(e);
  return e;
}

function inductionValue(ctx: Ctx, slot: Slot, start: Value & { kind: 'int' }, step: Node, k: Expr, span: Span): Value {
  const t = start.type;
  const negative = NEGATIVE.has(step);
  const s = bare(step);
  const amountNode = s.type === 'update_expression' ? null : s.type === 'assignment_expression' ? stepOf(s)!.amount : s;
  const amount = amountNode === null ? { expr: constant(1n, t, span), type: t } : intOf(ctx, rvalue(ctx, amountNode), span);
  const stepType = commonType(t, amount.type);
  const moved = arith('*', castTo(k, stepType, span), castTo(amount.expr, stepType, span), stepType, span);
  const value = castTo(arith(negative || (s.type === 'update_expression' && s.childForFieldName('operator')!.type === '--') ? '-' : '+', castTo(start.expr, stepType, span), moved, stepType, span), t, span);
  void slot;
  return { kind: 'int', expr: value, type: t };
}

/**
 * The locals the body toggles between two values, one statement of its own
 * each iteration: `p = c - p` (the double-buffered scan's `pout = 1 - pout`),
 * `p ^= c`, `p = p ^ c`, `p = c ^ p`, with `c` loop-invariant. Each is an
 * involution (modulo 2^w, so in every integer type), so at the head of
 * iteration k the local holds its value before the loop where k is even, the
 * toggled one where k is odd. The same conditions as an induction's: one
 * assignment of the name in the body, at its top level, no break, continue or
 * return, no reference to the local, no declaration of its name. Each maps
 * to the assignment's right-hand side.
 */
function toggleSteps(ctx: Ctx, body: readonly Node[], assigned: ReadonlySet<Slot>): Map<Slot, Node> {
  const out = new Map<Slot, Node>();
  const once = runsOnce(ctx, body);
  if (once === null) return out;
  const { stmts, counts, aliased } = once;
  const assignedHere = assignedNames(body);
  const changed = changedUnnamed(ctx, body);
  for (const s of stmts) {
    const e = s.type === 'expression_statement' ? named(s)[0] : undefined;
    const u = e === undefined ? null : bare(e);
    if (u === null || u.type !== 'assignment_expression') continue;
    const target = bare(u.childForFieldName('left')!);
    if (target.type !== 'identifier' || counts.get(target.text) !== 1 || declaresAny(body, target.text)) continue;
    const other = toggledBy(u, target.text);
    if (other === null || !invariant(ctx, other, assignedHere, changed)) continue;
    const binding = ctx.scope.lookup(target.text);
    if (binding?.kind !== 'local' || !assigned.has(binding.slot) || binding.slot.ctype.kind !== 'int' || aliased.has(binding.slot)) continue;
    out.set(binding.slot, u);
  }
  return out;
}

/** In `p = c - p`, `p ^= c`, `p = p ^ c` or `p = c ^ p`, the operand `c`; null for any other assignment. */
function toggledBy(u: Node, name: string): Node | null {
  const op = u.childForFieldName('operator')!.type;
  const right = u.childForFieldName('right')!;
  if (op === '^=') return right;
  if (op !== '=') return null;
  const r = bare(right);
  if (r.type !== 'binary_expression') return null;
  const bop = r.childForFieldName('operator')!.type;
  const a = r.childForFieldName('left')!;
  const b = r.childForFieldName('right')!;
  const isName = (x: Node): boolean => bare(x).type === 'identifier' && bare(x).text === name;
  if (bop === '-' && isName(b) && !isName(a)) return a;
  if (bop === '^' && isName(a) !== isName(b)) return isName(a) ? b : a;
  return null;
}

/**
 * Whether the loop value x is at an even iteration: `k % 2 == 0` for an
 * additive loop; for a multiplicative one from a positive constant by a
 * constant power of two 2^s (`o = 1; o < n; o *= 2`), x = from · 2^(s·k), so
 * k is even exactly where x / from has a bit at a multiple of 2s; dividing
 * down from a power of two 2^p, x = 2^(p − s·k) (the loop's last value at
 * least 1) has a bit at p − 2s·j. Null where faial-ts does not know
 * (a multiplicative loop from a value or by a step not constant).
 */
function evenIteration(x: Expr, k: Expr | null, plan: ForPlan, span: Span): BExpr | null {
  const t = plan.type;
  const zero = constant(0n, t, span);
  if (k !== null) return compare('==', arith('%', k, constant(2n, t, span), t, span), zero, span);
  const from = plan.from.kind === 'int' ? plan.from.value : null;
  const amount = plan.amount.kind === 'int' ? plan.amount.value : null;
  if (from === null || amount === null || from <= 0n || amount < 2n || (amount & (amount - 1n)) !== 0n) return null;
  const s = BigInt(amount.toString(2).length - 1);
  const width = BigInt(widthOf(t)) - (isSigned(t) ? 1n : 0n);
  let mask = 0n;
  if (plan.op === '*') {
    for (let bit = 0n; bit < width; bit += 2n * s) mask |= 1n << bit;
    const scaled = from === 1n ? x : arith('/', x, constant(from, t, span), t, span);
    return compare('!=', arith('&', scaled, constant(mask, t, span), t, span), zero, span);
  }
  // dividing: exact only from a power of two, down to at least 1 (below, x would stay 0)
  const to = plan.to.kind === 'int' ? plan.to.value : null;
  if ((from & (from - 1n)) !== 0n || to === null || to < 1n) return null;
  const p = BigInt(from.toString(2).length - 1);
  for (let bit = p; bit >= 0n; bit -= 2n * s) mask |= 1n << bit;
  return compare('!=', arith('&', x, constant(mask, t, span), t, span), zero, span);
}

/** A toggled local's value at the head of an iteration: its value before the loop where the iteration is even, else the assignment's right-hand side of it. */
function toggleValue(ctx: Ctx, slot: Slot, start: Value & { kind: 'int' }, assignment: Node, even: BExpr, span: Span): Value {
  const saved = ctx.values.get(slot);
  ctx.values.set(slot, start);
  const op = assignment.childForFieldName('operator')!.type;
  const right = assignment.childForFieldName('right')!;
  // `p ^= c` is `p = p ^ c`: the operands promoted and converted as C's compound assignment does
  const rhs = op === '^=' ? intOf(ctx, binaryValue(ctx, '^', start, rvalue(ctx, right), span), span) : intOf(ctx, rvalue(ctx, right), span);
  ctx.values.set(slot, saved!);
  const toggled = intOf(ctx, convert(ctx, { kind: 'int', expr: rhs.expr, type: rhs.type }, slot.ctype, span), span);
  return { kind: 'int', expr: ite(even, start.expr, toggled.expr, start.type, span), type: start.type };
}

// ---------------------------------------------------------------- approximated loops

interface RoughLoop {
  readonly cond: Node | null;
  readonly body: readonly Node[];
  readonly update: Node | null;
  /** `while`/`for` test first; `do` runs the body first */
  readonly first: 'cond' | 'body';
  readonly stepOf?: Shape;
}

/**
 * A loop run an unknown number of times, each iteration with the locals it
 * assigns unknown at its start: every execution of the real loop is one of
 * these, so a proof still holds, and the alarms that depend on it are possible.
 */
export function approximateLoop(ctx: Ctx, loop: RoughLoop, n: Node, why: string): void {
  const span = spanOf(n);
  const line = lineOf(ctx, span);
  const all = [...loop.body, ...(loop.cond === null ? [] : [loop.cond]), ...(loop.update === null ? [] : [loop.update])];
  const assigned = assignedSlots(ctx, all);
  const count = havocked(ctx, 'iterations', 'u32', { kind: 'approximation', what: `the number of iterations of the loop at line ${line}`, why, span }, span);
  if (loop.first === 'body') ctx.b.stmt({ kind: 'assume', cond: compare('>=', count, constant(1n, 'u32', span), span), span });
  const j = fresh(ctx, 'iteration');
  ctx.k.defs.set(j, null);
  const frame: LoopFrame = { broke: { name: 'break', ctype: { kind: 'bool' }, span }, continued: { name: 'continue', ctype: { kind: 'bool' }, span } };
  const savedLoop = ctx.loop;
  const inner = branch(ctx, () => {
    ctx.loop = frame;
    for (const slot of assigned) unknownAtHead(ctx, slot, n, why);
    brokeAtHead(ctx, frame, loop.body, n);
    setFlag(ctx, frame.continued, FALSE);
    const iterate = (): void => {
      withScope(ctx, () => lowerStatements(ctx, loop.body));
      if (loop.update !== null) {
        setFlag(ctx, frame.continued, FALSE);
        const exit = exitCondition(ctx);
        const update = loop.update;
        if (exit.kind === 'bool' && !exit.value) rvalue(ctx, update);
        else emitIf(ctx, not(exit), branch(ctx, () => void rvalue(ctx, update)), branch(ctx, () => undefined), spanOf(update));
      }
    };
    if (loop.first === 'cond' && loop.cond !== null) {
      const c = condition(ctx, loop.cond);
      emitIf(ctx, c, branch(ctx, iterate), branch(ctx, () => undefined), span);
    } else {
      iterate();
      if (loop.cond !== null) {
        const exit = exitCondition(ctx);
        const cond = loop.cond;
        if (exit.kind === 'bool' && !exit.value) condition(ctx, cond);
        else emitIf(ctx, not(exit), branch(ctx, () => void condition(ctx, cond)), branch(ctx, () => undefined), spanOf(cond));
      }
    }
  });
  ctx.loop = savedLoop;
  ctx.b.stmt({
    kind: 'for',
    var: { text: j, span },
    from: constant(0n, 'u32', span),
    to: count,
    direction: 'up',
    step: null,
    type: 'u32',
    body: inner.stmts.length > 0 ? inner.stmts : [{ kind: 'skip', span }],
    span,
  });
  afterLoop(ctx, [...assigned], n);
}

/** The slots of locals (and exit flags) declared outside a loop that its code assigns. */
function assignedSlots(ctx: Ctx, nodes: readonly Node[]): Set<Slot> {
  const out = new Set<Slot>();
  for (const name of assignedNames(nodes)) {
    const b = ctx.scope.lookup(name);
    if (b?.kind === 'local' && ctx.values.has(b.slot)) out.add(b.slot);
  }
  for (const slot of aliasedSlots(ctx, nodes)) if (ctx.values.has(slot)) out.add(slot);
  for (const slot of cellsNamed(ctx, nodes)) out.add(slot);
  for (const slot of objectsChangedIn(ctx, nodes)) out.add(slot);
  for (const slot of fieldTargetSlots(ctx, nodes)) out.add(slot);
  if (nodes.some((x) => contains(x, 'return_statement'))) {
    out.add(ctx.fn.returned);
    if (ctx.fn.result !== null) out.add(ctx.fn.result);
  }
  return out;
}

/**
 * Whether an earlier iteration broke out of the loop: false for a loop without
 * `break`; else unknown (an approximation), so every iteration may not run.
 */
function brokeAtHead(ctx: Ctx, frame: LoopFrame, body: readonly Node[], n: Node): void {
  if (!body.some((b) => contains(b, 'break_statement'))) return setFlag(ctx, frame.broke, FALSE);
  ctx.values.set(frame.broke, approximated(ctx, { ...frame.broke, name: 'broke', what: 'whether an earlier iteration left the loop' }, `whether an earlier iteration left the loop at line ${lineOf(ctx, spanOf(n))} by break`, 'faial-ts does not follow which iteration breaks', spanOf(n)));
}

/** A local at a loop's head: unknown, an approximation. */
function unknownAtHead(ctx: Ctx, slot: Slot, n: Node, why: string): void {
  const span = spanOf(n);
  ctx.values.set(slot, approximated(ctx, slot, `${slot.name} in the loop at line ${lineOf(ctx, span)}`, why, span));
}

function afterLoop(ctx: Ctx, slots: readonly Slot[], n: Node): void {
  const span = spanOf(n);
  for (const slot of slots) {
    // a variable the loop itself declares ends with it
    if (!ctx.values.has(slot) || (slot.span.start >= span.start && slot.span.end <= span.end)) continue;
    ctx.values.set(slot, approximated(ctx, slot, `${slot.name} after the loop at line ${lineOf(ctx, span)}`, 'faial-ts does not compute the values a loop leaves behind', span));
  }
}

function approximated(ctx: Ctx, slot: Slot, what: string, why: string, span: Span): Value {
  return approximatedValue(ctx, slot, ctx.values.get(slot), what, why, span);
}

/** A slot's value approximated from what it held: a struct (a local object, `float3 acc`) leaf by leaf, each named. */
function approximatedValue(ctx: Ctx, slot: Slot, v: Value | undefined, what: string, why: string, span: Span): Value {
  const type = slotMachine(slot.ctype);
  // a reference member is never rebound: the object it names stays the same
  if (slot.ctype.kind === 'reference' && v !== undefined) return v;
  if (slot.ctype.kind === 'struct' && v?.kind === 'struct') {
    const leaves = leavesOf(slot.ctype);
    // `acc in the loop at line 3` → `acc.x in the loop at line 3`
    const leafWhat = (path: string): string => (what.startsWith(slot.name) ? `${slot.name}.${path}${what.slice(slot.name.length)}` : `${path} of ${what}`);
    return { ...v, fields: v.fields.map((f, i) => approximatedValue(ctx, { ...slot, name: `${slot.name}_${leaves[i]!.path.replace(/\W+/g, '_')}`, ctype: leaves[i]!.type }, f, leafWhat(leaves[i]!.path), why, span)) };
  }
  if (slot.ctype.kind === 'pointer') {
    if (v !== undefined && isPointer(v)) {
      return mapPointers(v, (q) => ({ ...q, offset: havocked(ctx, `${slot.name}_off`, 'i64', { kind: 'approximation', what: `the offset of ${what}`, why, span }, span) }));
    }
  }
  if (type === null) return { kind: 'unknown', ctype: slot.ctype as CType, what, span };
  const x = havocked(ctx, slot.name, type, { kind: 'approximation', what, why, span }, span);
  return slot.ctype.kind === 'bool' ? { kind: 'bool', cond: compare('!=', x, constant(0n, type, span), span) } : { kind: 'int', expr: x, type };
}

