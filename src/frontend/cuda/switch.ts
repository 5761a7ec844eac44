/**
 * `switch`, lowered exactly to guarded segments. A thread enters the body at
 * one label (the case equal to the scrutinee, else `default`, else none) and
 * runs every statement after it, across the later labels (fallthrough), until
 * `break`, `continue` or `return` sets its flag. So the statements after the
 * k-th label run under "a label up to the k-th was entered, and no exit was
 * taken since": one `if` per segment, the exits joined like any branch's.
 * `break` leaves the switch (a frame of its own), `continue` the enclosing
 * loop (whose flag the switch's frame shares).
 */
import type { Node } from './parse.js';
import type { BExpr } from '../../core/ast.js';
import { and, castTo, compare, not, or } from './build.js';
import { branch, emitIf, FALSE, isFalse, TRUE, letBound, reject, spanOf, unsupported, type Ctx, type LoopFrame } from './context.js';
import { hasEffects, intOf, named, rvalue } from './expr.js';
import { clauseSubject, exitCondition, lowerStatements, setFlag, withScope } from './stmt.js';

interface Segment {
  /** the label's value node; null for `default` */
  readonly label: Node | null;
  readonly node: Node;
  readonly stmts: readonly Node[];
}

export function switchStatement(ctx: Ctx, n: Node): void {
  const span = spanOf(n);
  withScope(ctx, () => {
    const subjectNode = clauseSubject(ctx, n);
    // C promotes the scrutinee and converts each case's constant to its type
    const x = intOf(ctx, rvalue(ctx, subjectNode), spanOf(subjectNode));
    const subject = letBound(ctx, 'switch', x.expr, x.type, spanOf(subjectNode));
    const segments = segmentsOf(ctx, n.childForFieldName('body')!);
    const matches = segments.map((s): BExpr | null => {
      if (s.label === null) return null;
      if (hasEffects(ctx, s.label)) return reject(ctx, 'misuse', s.label, 'a case label must be a constant expression');
      const v = intOf(ctx, rvalue(ctx, s.label), spanOf(s.label));
      return compare('==', subject, castTo(v.expr, x.type, spanOf(s.label)), spanOf(s.label));
    });
    const none = not(matches.reduce<BExpr>((acc, m) => (m === null ? acc : or(acc, m)), FALSE));
    const frame: LoopFrame = { broke: { name: 'break', ctype: { kind: 'bool' }, span }, continued: ctx.loop?.continued ?? { name: 'continue', ctype: { kind: 'bool' }, span } };
    if (ctx.loop === null) {
      const stray = continueOf(n.childForFieldName('body')!);
      if (stray !== null) return reject(ctx, 'misuse', stray, 'continue outside a loop');
    }
    const savedLoop = ctx.loop;
    ctx.loop = frame;
    setFlag(ctx, frame.broke, FALSE);
    if (savedLoop === null) setFlag(ctx, frame.continued, FALSE);
    try {
      let reached: BExpr = FALSE;
      let entries = 0;
      segments.forEach((s, k) => {
        // once every label has been passed, every thread has entered
        reached = ++entries === segments.length && segments.some((x) => x.label === null) ? TRUE : or(reached, matches[k] ?? none);
        const guard = and(reached, not(exitCondition(ctx)));
        if (isFalse(guard) || s.stmts.length === 0) return;
        const flags = [ctx.fn.returned, frame.broke, frame.continued];
        const body = branch(ctx, () => {
          for (const f of flags) setFlag(ctx, f, FALSE);
          lowerStatements(ctx, s.stmts);
        });
        emitIf(ctx, guard, body, branch(ctx, () => undefined), spanOf(s.node));
      });
    } finally {
      ctx.loop = savedLoop;
      ctx.values.delete(frame.broke);
      if (savedLoop === null) ctx.values.delete(frame.continued);
    }
  });
}

/** The body's labelled segments, in order; what C cannot reach or faial-ts does not follow is rejected. */
function segmentsOf(ctx: Ctx, body: Node): Segment[] {
  const items = body.type === 'compound_statement' ? named(body) : [body];
  const out: Segment[] = [];
  let defaults = 0;
  for (const item of items) {
    if (item.type !== 'case_statement') return unsupported(ctx, item, 'a statement before the first case label of a switch');
    const label = item.childForFieldName('value');
    if (label === null && ++defaults > 1) return reject(ctx, 'misuse', item, 'a switch with two default labels');
    const stmts = named(item).filter((c) => c !== label);
    for (const s of stmts) {
      const nested = labelInside(s);
      if (nested !== null) return unsupported(ctx, nested, 'a case label inside a statement nested in the switch (as in Duff\'s device)');
    }
    out.push({ label, node: item, stmts });
  }
  return out;
}

/** A case label below `n` that belongs to this switch (not to a nested one). */
function labelInside(n: Node): Node | null {
  if (n.type === 'case_statement') return n;
  if (n.type === 'switch_statement') return null;
  for (const c of named(n)) {
    const found = labelInside(c);
    if (found !== null) return found;
  }
  return null;
}

/** A `continue` below `n` that no loop inside `n` takes. */
function continueOf(n: Node): Node | null {
  if (n.type === 'continue_statement') return n;
  if (n.type === 'for_statement' || n.type === 'while_statement' || n.type === 'do_statement' || n.type === 'for_range_loop') return null;
  for (const c of named(n)) {
    const found = continueOf(c);
    if (found !== null) return found;
  }
  return null;
}
