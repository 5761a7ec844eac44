/** The phase split, each phase as the unsynchronised code between two barriers. */
import { showBExpr, showExpr } from '../core/exprs.js';
import { userLineColumn } from '../core/source.js';
import type { KernelMap, SyncSite } from '../map/map.js';
import { showAccess, showRange, typedName } from '../map/print.js';
import { assertNever } from '../util/assert.js';
import type { Code } from './code.js';
import type { Phase, PhaseSplit } from './split.js';

function codeLines(c: Code, indent: string): string[] {
  const inner = `${indent}  `;
  switch (c.kind) {
    case 'skip':
      return [];
    case 'access':
      return [`${indent}${showAccess(c.access)}`];
    case 'seq':
      return c.items.flatMap((i) => codeLines(i, indent));
    case 'if':
      return [`${indent}if ${showBExpr(c.cond)} {`, ...codeLines(c.then, inner), `${indent}} else {`, ...codeLines(c.else, inner), `${indent}}`];
    case 'loop':
      return [`${indent}for ${typedName(c.var, c.range.type)} ∈ ${showRange(c.range)} {`, ...codeLines(c.body, inner), `${indent}}`];
    case 'bind': {
      const rel = c.relation.kind === 'next' ? `the iteration after ${c.relation.prev}` : c.relation.kind === 'member' ? 'any iteration' : `the ${c.relation.kind} iteration`;
      return [`${indent}shared ${typedName(c.var, c.range.type)} ∈ ${showRange(c.range)}, ${rel} {`, ...codeLines(c.body, inner), `${indent}}`];
    }
    case 'assume':
      return [`${indent}assume ${showBExpr(c.cond)}`];
    case 'defined':
      return [`${indent}defined ${c.exprs.map((e) => showExpr(e)).join(', ')}`];
    case 'havoc':
      return [`${indent}havoc ${c.var}`];
    case 'empty':
      return [`${indent}assume ${showRange(c.range)} is empty`];
    case 'choice':
      return c.options.flatMap((o, i) => [`${indent}${i === 0 ? 'either' : 'or'} {`, ...codeLines(o, inner), `${indent}}`]);
    case 'mark':
      return [`${indent}(barrier)`];
    case 'erased':
      return [`${indent}(barriers of the next loop erased: over-approximated)`];
    default:
      return assertNever(c);
  }
}

/** A line of the phase listing; a phase's heading line (`  phase 0: from … to …`) comes with its phase. */
export interface PhaseLine {
  readonly text: string;
  readonly phase?: Phase;
}

/** The listing `infer --phases` prints, line by line: the split's heading, then each phase's heading and code. */
export function phaseLines(map: KernelMap, split: PhaseSplit): PhaseLine[] {
  const where = (syncs: readonly SyncSite[], none: string): string =>
    syncs.length === 0
      ? none
      : syncs.map((s) => `${s.scope === 'warp' ? 'syncwarp' : 'sync'} at ${userLineColumn(map.file, s.span)}`).join(' or ');
  const listed = (s: PhaseSplit, name: string, lines: PhaseLine[]): void => {
    for (const ph of s.phases) {
      lines.push({ text: `  ${name} ${ph.id}: from ${where(ph.opens, 'the start')} to ${where(ph.closes, 'the end')}`, phase: ph });
      const body = codeLines(ph.code, '    ');
      lines.push(...(body.length === 0 ? ['    (no accesses)'] : body).map((text) => ({ text })));
    }
  };
  const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;
  const lines: PhaseLine[] = [{ text: `kernel ${map.name}: ${count(split.phases.length, 'phase')}${split.warp === undefined ? '' : ' (for threads of different warps)'}` }];
  listed(split, 'phase', lines);
  if (split.warp !== undefined) {
    lines.push({ text: `kernel ${map.name}: ${count(split.warp.phases.length, 'warp phase')} (for threads of one warp: syncwarp splits too)` });
    listed(split.warp, 'warp phase', lines);
  }
  return lines;
}

export function showPhases(map: KernelMap, split: PhaseSplit): string {
  return phaseLines(map, split)
    .map((l) => l.text)
    .join('\n');
}
