/**
 * Typing and MAP inference, the paper's judgement V ⊢ b ▶ u (Fig. 6) extended
 * to the whole language. V holds parameters, builtins, loop variables and pure
 * lets over them; a variable bound by a read is outside V. Instead of
 * rejecting an ill-typed kernel, inference records each use of a variable
 * outside V (a typing violation) and keeps the variable in the protocol as a
 * per-thread unknown, which over-approximates the kernel's accesses.
 */
import type { AtomicOp, Axis, BExpr, BuiltinName, Dim3, Expr, Kernel, Stmt } from '../core/ast.js';
import type { SourceFile, Span } from '../core/source.js';
import { bexprBuiltins, bexprVars, exprBuiltins, exprVars, substBExpr, substExpr } from '../core/exprs.js';
import { mayBeUndefined, usesMachineIntegers } from '../core/types.js';
import { assertNever } from '../util/assert.js';
import {
  isDataDependent,
  seq,
  type Access,
  type Approximation,
  type ArrayInfo,
  type DimName,
  type KernelMap,
  type Proto,
  type Range,
  type SyncSite,
  type TypingViolation,
  type Use,
  type VarInfo,
} from './map.js';

export function inferMap(file: SourceFile, kernel: Kernel): KernelMap {
  const vars = new Map<string, VarInfo>();
  const violations: TypingViolation[] = [];
  const syncs: SyncSite[] = [];
  const accesses: Access[] = [];
  const arrays: ArrayInfo[] = kernel.arrays.map((a) => ({
    name: a.name.text,
    scope: a.scope,
    dims: a.sizes.length,
    span: a.span,
  }));
  const dimsOf = new Map<string, number>(arrays.map((a) => [a.name, a.dims]));
  const builtins = new Set<`${BuiltinName}.${Axis}`>();
  const approximations: Approximation[] = [];
  for (const p of kernel.params) vars.set(p.text, p.type === undefined ? { kind: 'param' } : { kind: 'param', type: p.type });

  // Source names map to what they stand for: a pure let to its inlined value,
  // a loop variable or a read's local to a variable named once in the kernel
  // (a name may be bound again after its scope ends: the later binding is
  // renamed x@2, x@3, ...). Blocks restore the map when they end.
  let sub = new Map<string, Expr>();
  const bindings = new Map<string, number>();
  const nextName = (name: string): string => {
    const n = (bindings.get(name) ?? 0) + 1;
    return n === 1 ? name : `${name}@${n}`;
  };
  const bind = (name: string, span: Expr['span']): string => {
    const internal = nextName(name);
    bindings.set(name, (bindings.get(name) ?? 0) + 1);
    sub.set(name, { kind: 'var', name: internal, span });
    return internal;
  };
  const locals: { name: string; value: Expr }[] = [];
  const loops: string[] = [];

  const checkUse = (free: Set<string>, use: Use, span: { start: number; end: number }): void => {
    for (const v of free) {
      const info = vars.get(v);
      if (isDataDependent(info)) violations.push({ variable: info.source, origin: info.origin, use, span });
    }
  };
  const expr = (e: Expr, use: Use): Expr => {
    exprBuiltins(e, builtins);
    const out = substExpr(e, sub);
    checkUse(exprVars(out), use, e.span);
    return out;
  };
  const cond = (c: BExpr, use: Use): BExpr => {
    bexprBuiltins(c, builtins);
    const out = substBExpr(c, sub);
    checkUse(bexprVars(out), use, c.span);
    return out;
  };
  const access = (array: string, mode: Access['mode'], index: readonly Expr[], span: Access['span'], local: string | null, op?: AtomicOp, value?: Expr): Proto => {
    if (!dimsOf.get(array)) dimsOf.set(array, index.length);
    const a: Access = {
      id: accesses.length,
      array,
      mode,
      index: index.map((ix) => expr(ix, 'index')),
      span,
      local,
      ...(op === undefined ? {} : { op }),
      ...(value === undefined ? {} : { value: substExpr(value, sub) }),
      locals: [...locals],
      loops: [...loops],
    };
    accesses.push(a);
    return { kind: 'access', access: a };
  };

  /**
   * A `defined` step for the values the protocol drops, when evaluating them
   * may be undefined: whether the thread goes on then depends on them, so a
   * data-dependent value in them is used outside V.
   */
  const evaluated = (values: readonly Expr[], span: Span): Proto => {
    const risky = values.filter(mayBeUndefined).map((e) => {
      const out = substExpr(e, sub);
      checkUse(exprVars(out), 'definedness', e.span);
      return out;
    });
    return risky.length === 0 ? { kind: 'skip' } : { kind: 'defined', exprs: risky, span };
  };

  const block = (stmts: readonly Stmt[]): Proto => {
    const saved = new Map(sub);
    const mark = locals.length;
    const out = seq(stmts.map(stmt));
    sub = saved;
    locals.length = mark;
    return out;
  };

  const stmt = (s: Stmt): Proto => {
    switch (s.kind) {
      case 'skip':
        return { kind: 'skip' };
      case 'write':
        exprBuiltins(s.value, builtins);
        return seq([evaluated([s.value], s.value.span), access(s.array.text, 'write', s.index, s.target, null, undefined, s.value)]);
      case 'read': {
        // the index is read before the local is bound
        const local = nextName(s.local.text);
        const read = access(s.array.text, 'read', s.index, s.source, local);
        bind(s.local.text, s.local.span);
        vars.set(local, { kind: 'data', source: s.local.text, origin: { array: s.array.text, span: s.source } });
        return seq([read, stmt(s.body)]);
      }
      case 'atomic': {
        // the operands are evaluated first (C's arguments); the old value is unknown, as a value read is
        for (const e of s.operands) exprBuiltins(e, builtins);
        const check = evaluated(s.operands, s.span);
        const source = s.local?.text ?? 'old';
        const local = nextName(source);
        const update = access(s.array.text, 'atomic', s.index, s.target, local, s.op);
        if (s.local !== null) bind(s.local.text, s.local.span);
        else bindings.set(source, (bindings.get(source) ?? 0) + 1);
        const what = `the old value of the atomic ${s.op} on ${s.array.text}`;
        vars.set(local, { kind: 'unknown', source, origin: { kind: 'value', what, span: s.target }, type: s.type ?? 'nat' });
        return seq([check, update, stmt(s.body)]);
      }
      case 'let': {
        exprBuiltins(s.value, builtins);
        const check = evaluated([s.value], s.value.span);
        const value = substExpr(s.value, sub);
        sub.set(s.local.text, value);
        locals.push({ name: s.local.text, value });
        return seq([check, stmt(s.body)]);
      }
      case 'havoc': {
        const local = nextName(s.local.text);
        bind(s.local.text, s.local.span);
        vars.set(local, { kind: 'unknown', source: s.local.text, origin: s.origin, type: s.type });
        if (s.origin.kind === 'approximation') approximations.push({ what: s.origin.what, why: s.origin.why, span: s.origin.span });
        return seq([{ kind: 'havoc', var: local, span: s.span }, stmt(s.body)]);
      }
      case 'if': {
        const c = cond(s.cond, 'condition');
        const thenP = block(s.then);
        const elseP = s.else ? block(s.else) : ({ kind: 'skip' } as const);
        return { kind: 'if', cond: c, then: thenP, else: elseP };
      }
      case 'for': {
        const range: Range = {
          from: expr(s.from, 'loop bound'),
          to: expr(s.to, 'loop bound'),
          direction: s.direction,
          step: s.step
            ? { op: s.step.op, amount: expr(s.step.amount, 'loop step') }
            : { op: s.direction === 'up' ? '+' : '-', amount: s.type === undefined ? { kind: 'nat', value: 1n, span: s.var.span } : { kind: 'int', value: 1n, type: s.type, span: s.var.span } },
          ...(s.type === undefined ? {} : { type: s.type }),
        };
        const saved = new Map(sub);
        const x = bind(s.var.text, s.var.span);
        vars.set(x, { kind: 'loop', source: s.var.text });
        loops.push(x);
        const body = block(s.body);
        loops.pop();
        sub = saved;
        return { kind: 'loop', var: x, range, body, span: s.span };
      }
      case 'sync':
      case 'syncwarp': {
        const site: SyncSite = { id: syncs.length, span: s.span, scope: s.kind === 'sync' ? 'block' : 'warp' };
        syncs.push(site);
        return { kind: s.kind, sync: site };
      }
      case 'assume':
        return { kind: 'assume', cond: cond(s.cond, 'assumption'), span: s.span };
      default:
        return assertNever(s);
    }
  };

  const body = block(kernel.body);
  const preconditions: BExpr[] = [...kernel.requires];
  for (const r of kernel.requires) bexprBuiltins(r, builtins);
  if (kernel.launch) {
    preconditions.push(...dimEqualities('gridDim', kernel.launch.grid), ...dimEqualities('blockDim', kernel.launch.block));
  }
  const symbolicDims = new Set<`${DimName}.${Axis}`>(['blockDim.x']);
  for (const b of builtins) {
    const [name, axis] = b.split('.') as [string, Axis];
    if (name === 'threadIdx' || name === 'blockDim') symbolicDims.add(`blockDim.${axis}`);
    if (name === 'blockIdx' || name === 'gridDim') symbolicDims.add(`gridDim.${axis}`);
  }
  if (kernel.launch) {
    for (const axis of ['x', 'y', 'z'] as const) {
      symbolicDims.add(`blockDim.${axis}`);
      symbolicDims.add(`gridDim.${axis}`);
    }
  }
  return {
    file,
    source: kernel,
    name: kernel.name.text,
    span: kernel.span,
    params: kernel.params.map((p) => p.text),
    arrays: arrays.map((a) => ({ ...a, dims: dimsOf.get(a.name) || 1 })),
    vars,
    preconditions,
    symbolicDims,
    body,
    violations,
    syncs,
    accesses,
    approximations,
    machineIntegers: usesMachineIntegers(kernel),
  };
}

function dimEqualities(name: DimName, d: Dim3): BExpr[] {
  const one: Expr = { kind: 'nat', value: 1n, span: d.span };
  const parts: [Axis, Expr][] = [
    ['x', d.x],
    ['y', d.y ?? one],
    ['z', d.z ?? one],
  ];
  return parts.map(([axis, e]) => ({
    kind: 'cmp',
    op: '==',
    left: { kind: 'builtin', name, axis, span: e.span },
    right: e,
    span: e.span,
  }));
}

export function isWellTyped(map: KernelMap): boolean {
  return map.violations.length === 0;
}
