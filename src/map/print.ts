/**
 * MAPs in the paper's notation: `rd A[i]`, `wr A[i]` (and `atomic add A[i]`, an atomic read-modify-write), `sync`, conditionals
 * and loops over their exact ranges, one statement a line. Where machine
 * integers are, types are shown on binders (`n: i32`, `for i: i32 ∈ …`,
 * `havoc h: u32`), and `defined e` marks values whose evaluation is in scope
 * only when defined.
 */
import type { IntType } from '../core/ast.js';
import { showBExpr, showExpr } from '../core/exprs.js';
import { MACHINE_SCOPE } from '../core/types.js';
import { userLineColumn } from '../core/source.js';
import { assertNever } from '../util/assert.js';
import type { Access, KernelMap, Proto, Range } from './map.js';

export function showAccess(a: Access): string {
  const kind = a.mode === 'read' ? 'rd' : a.mode === 'write' ? 'wr' : `atomic ${a.op ?? ''}`;
  return `${kind} ${a.array}${a.index.map((i) => `[${showExpr(i)}]`).join('')}`;
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
    case 'syncwarp':
      return [`${indent}${p.kind}`];
    case 'assume':
      return [`${indent}assume ${showBExpr(p.cond)}`];
    case 'defined':
      return [`${indent}defined ${p.exprs.map((e) => showExpr(e)).join(', ')}`];
    case 'havoc':
      return [`${indent}havoc ${p.var}`];
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
      return [`${indent}for ${typedName(p.var, p.range.type)} ∈ ${showRange(p.range)} {`, ...protoLines(p.body, inner), `${indent}}`];
    default:
      return assertNever(p);
  }
}

/** `x`, or `x: i32` for a machine-typed binder. */
export function typedName(name: string, type: IntType | undefined): string {
  return type === undefined || type === 'nat' ? name : `${name}: ${type}`;
}

export function showMap(map: KernelMap): string {
  const params = map.params.map((p) => {
    const info = map.vars.get(p);
    return typedName(p, info?.kind === 'param' ? info.type : undefined);
  });
  const lines = [`kernel ${map.name}(${params.join(', ')})`];
  for (const c of map.preconditions) lines.push(`  requires ${showBExpr(c)}`);
  for (const a of map.arrays) lines.push(`  ${a.scope} ${a.name} (${a.dims} ${a.dims === 1 ? 'dimension' : 'dimensions'})`);
  for (const [name, info] of map.vars) {
    if (info.kind === 'data') {
      lines.push(`  data-dependent: ${name} (read from ${info.origin.array} at ${userLineColumn(map.file, info.origin.span)})`);
    } else if (info.kind === 'unknown') {
      const what = info.origin.kind === 'value' ? info.origin.what : `approximated: ${info.origin.what}, ${info.origin.why}`;
      lines.push(`  data-dependent: ${typedName(name, info.type)} (${what} at ${userLineColumn(map.file, info.origin.span)})`);
    }
  }
  if (map.machineIntegers) lines.push(`  scope: ${MACHINE_SCOPE}`);
  lines.push('  protocol:', ...protoLines(map.body, '    '));
  return lines.join('\n');
}
