/**
 * MAPs in the paper's notation: `rd A[i]`, `wr A[i]`, `sync`, conditionals
 * and loops over their exact ranges, one statement a line.
 */
import { showBExpr, showExpr } from '../core/exprs.js';
import { positionAt } from '../core/source.js';
import { assertNever } from '../util/assert.js';
import type { Access, KernelMap, Proto, Range } from './map.js';

export function showAccess(a: Access): string {
  return `${a.mode === 'read' ? 'rd' : 'wr'} ${a.array}${a.index.map((i) => `[${showExpr(i)}]`).join('')}`;
}

export function showRange(r: Range): string {
  const step = r.step.amount.kind === 'nat' && r.step.amount.value === 1n && (r.step.op === '+' || r.step.op === '-') ? '' : ` step ${r.step.op} ${showExpr(r.step.amount)}`;
  return r.direction === 'up' ? `[${showExpr(r.from)}, ${showExpr(r.to)})${step}` : `[${showExpr(r.from)} downto ${showExpr(r.to)}]${step}`;
}

export function protoLines(p: Proto, indent = ''): string[] {
  const inner = `${indent}  `;
  switch (p.kind) {
    case 'skip':
      return [`${indent}skip`];
    case 'access':
      return [`${indent}${showAccess(p.access)}`];
    case 'sync':
      return [`${indent}sync`];
    case 'assume':
      return [`${indent}assume ${showBExpr(p.cond)}`];
    case 'seq':
      return p.items.flatMap((i) => protoLines(i, indent));
    case 'if':
      return [
        `${indent}if ${showBExpr(p.cond)} {`,
        ...protoLines(p.then, inner),
        ...(p.else.kind === 'skip' ? [] : [`${indent}} else {`, ...protoLines(p.else, inner)]),
        `${indent}}`,
      ];
    case 'loop':
      return [`${indent}for ${p.var} ∈ ${showRange(p.range)} {`, ...protoLines(p.body, inner), `${indent}}`];
    default:
      return assertNever(p);
  }
}

export function showMap(map: KernelMap): string {
  const lines = [`kernel ${map.name}(${map.params.join(', ')})`];
  for (const c of map.preconditions) lines.push(`  requires ${showBExpr(c)}`);
  for (const a of map.arrays) lines.push(`  ${a.scope} ${a.name} (${a.dims} ${a.dims === 1 ? 'dimension' : 'dimensions'})`);
  const data = [...map.vars].filter(([, v]) => v.kind === 'data');
  for (const [name, info] of data) {
    if (info.kind !== 'data') continue;
    const at = positionAt(map.file, info.origin.span.start);
    lines.push(`  data-dependent: ${name} (read from ${info.origin.array} at ${at.line}:${at.column})`);
  }
  lines.push('  protocol:', ...protoLines(map.body, '    '));
  return lines.join('\n');
}
