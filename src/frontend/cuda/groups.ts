/**
 * CUDA's cooperative groups (<cooperative_groups.h>, which is not read: the
 * front end knows its names, under `cooperative_groups::`, a namespace alias
 * of it, or unqualified after `using namespace cooperative_groups`). A group
 * is a value the front end follows exactly: which threads it holds. Its
 * ranks and sizes are arithmetic on the thread and block ids; a block's
 * `sync` is the block barrier `__syncthreads()` is, a tile of a warp's 32
 * threads syncs like `__syncwarp()`; what the core has no barrier for (a
 * smaller tile, coalesced threads, the grid) is rejected by name, and the
 * values of coalesced threads, which depend on which threads are active,
 * are unknown.
 */
import type { Node } from './parse.js';
import type { Expr, MachineType } from '../../core/ast.js';
import { exprBuiltins } from '../../core/exprs.js';
import type { SourceFile, Span } from '../../core/source.js';
import { arith, castTo, constant } from './build.js';
import { reject, spanOf, unsupported, type Ctx, type Value } from './context.js';
import { BOOL, INT, UINT, vectorType, type CType } from './ctypes.js';
import { child, named, rvalue } from './expr.js';
import { WARP_SIZE } from './builtins.js';

/** The threads a group holds. */
export type Group =
  | { readonly kind: 'block' }
  /** `tiled_partition<size>(parent)`: the parent's threads in runs of `size` consecutive ranks */
  | { readonly kind: 'tile'; readonly size: bigint; readonly parent: Group }
  /** `coalesced_threads()`: the threads of the warp active here */
  | { readonly kind: 'coalesced' }
  | { readonly kind: 'grid' };

/** The C++ type of a group, for messages and for `auto` locals. */
export function groupTypeName(g: Group): string {
  switch (g.kind) {
    case 'block':
      return 'cooperative_groups::thread_block';
    case 'tile':
      return `cooperative_groups::thread_block_tile<${g.size}>`;
    case 'coalesced':
      return 'cooperative_groups::coalesced_group';
    case 'grid':
      return 'cooperative_groups::grid_group';
  }
}

const NAMESPACE = 'cooperative_groups';

interface Spelling {
  /** the names that mean `cooperative_groups` (the namespace, its aliases) */
  readonly namespaces: ReadonlySet<string>;
  /** whether `using namespace cooperative_groups` makes its names usable unqualified */
  readonly unqualified: boolean;
}

const spellings = new WeakMap<SourceFile, Spelling>();

/** How the file spells the namespace: its aliases (`namespace cg = cooperative_groups;`) and using-directives, wherever they are written. */
function spellingOf(file: SourceFile): Spelling {
  const known = spellings.get(file);
  if (known !== undefined) return known;
  const namespaces = new Set([NAMESPACE]);
  for (const m of file.text.matchAll(/\bnamespace\s+(\w+)\s*=\s*(?:::\s*)?cooperative_groups\s*;/g)) namespaces.add(m[1]!);
  const unqualified = /\busing\s+namespace\s+(?:::\s*)?cooperative_groups\s*;/.test(file.text);
  const spelling = { namespaces, unqualified };
  spellings.set(file, spelling);
  return spelling;
}

/** The free functions of cooperative groups the front end knows. */
const FUNCTIONS = new Set(['this_thread_block', 'this_grid', 'coalesced_threads', 'tiled_partition', 'sync', 'thread_rank', 'group_size', 'reduce', 'inclusive_scan', 'exclusive_scan']);

/**
 * The member of cooperative_groups a called name means (`cg::sync` →
 * `sync`), or null for a name of something else. Any name qualified by the
 * namespace is its member (one the front end does not know is rejected by
 * name where it is called); an unqualified name only when the file uses the
 * namespace and the name is one the front end knows.
 */
export function groupFunction(file: SourceFile, name: string): string | null {
  const spelling = spellingOf(file);
  const parts = name.replace(/\s+/g, '').replace(/^::/, '').split('::');
  if (parts.length === 1) return spelling.unqualified && FUNCTIONS.has(parts[0]!) ? parts[0]! : null;
  return spelling.namespaces.has(parts[0]!) ? parts.slice(1).join('::') : null;
}

/** The called name and its template arguments: `f<N>`, `ns::f<N>` (a qualified name around a template function). */
function calledName(fn: Node): { name: string; templateArgs: readonly Node[] } {
  const last = fn.type === 'qualified_identifier' ? named(fn)[named(fn).length - 1] : fn;
  if (last?.type !== 'template_function') return { name: fn.text, templateArgs: [] };
  const base = child(last, 'name').text;
  const scope = fn === last ? '' : fn.text.slice(0, last.startIndex - fn.startIndex);
  return { name: `${scope}${base}`, templateArgs: named(child(last, 'arguments')) };
}

/** A call of a free function of cooperative groups; null when `fn` names something else. */
export function groupFunctionCall(ctx: Ctx, fn: Node, args: readonly Node[], n: Node): Value | null {
  const { name, templateArgs } = calledName(fn);
  const member = groupFunction(ctx.file, name);
  return member === null ? null : groupCall(ctx, member, templateArgs, args, n);
}

/** A call of cooperative groups' free function `member` (groupFunction's answer). */
function groupCall(ctx: Ctx, member: string, templateArgs: readonly Node[], args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  const group = (g: Group): Value => ({ kind: 'group', group: g, span });
  switch (member) {
    case 'this_thread_block':
      return group({ kind: 'block' });
    case 'this_grid':
      return group({ kind: 'grid' });
    case 'coalesced_threads':
      return group({ kind: 'coalesced' });
    case 'tiled_partition': {
      // tiled_partition<N>(g), or the dynamic tiled_partition(g, n)
      const sizeNode = templateArgs[0] ?? args[1];
      if (sizeNode === undefined || args.length !== (templateArgs.length > 0 ? 1 : 2)) return reject(ctx, 'misuse', n, 'tiled_partition takes a group and a tile size: tiled_partition<N>(g) or tiled_partition(g, N)');
      const parent = groupArgument(ctx, args[0]!, member);
      return group(tileOf(ctx, parent, sizeNode));
    }
    case 'sync':
      return groupMethodCall(ctx, groupArgument(ctx, onlyArgument(ctx, args, n, member), member), 'sync', [], n);
    case 'thread_rank':
      return groupMethodCall(ctx, groupArgument(ctx, onlyArgument(ctx, args, n, member), member), 'thread_rank', [], n);
    case 'group_size':
      return groupMethodCall(ctx, groupArgument(ctx, onlyArgument(ctx, args, n, member), member), 'num_threads', [], n);
    case 'reduce':
    case 'inclusive_scan':
    case 'exclusive_scan': {
      // cg::reduce(tile, v, cg::plus<int>()): a value of the tile's threads' values, not followed; the operation is a type's object, not evaluated
      if (args.length < 2) return reject(ctx, 'misuse', n, `cooperative_groups::${member} takes a group and a value`);
      groupArgument(ctx, args[0]!, member);
      rvalue(ctx, args[1]!);
      return { kind: 'unknown', ctype: INT, what: `the result of cooperative_groups::${member}`, span };
    }
    default:
      return unsupported(ctx, n.childForFieldName('function') ?? n, `cooperative_groups::${member}`, [
        'faial-ts knows this_thread_block, tiled_partition, this_grid, coalesced_threads, sync, thread_rank, group_size, reduce and the scans',
      ]);
  }
}

function onlyArgument(ctx: Ctx, args: readonly Node[], n: Node, member: string): Node {
  if (args.length !== 1) return reject(ctx, 'misuse', n, `cooperative_groups::${member} takes one group`);
  return args[0]!;
}

function groupArgument(ctx: Ctx, a: Node, member: string): Group {
  const v = rvalue(ctx, a);
  if (v.kind !== 'group') return reject(ctx, 'misuse', a, `cooperative_groups::${member} takes a group: '${a.text}' is not one faial-ts can follow`);
  return v.group;
}

/** A tile of `size` threads of `parent`; the size is a constant power of two no larger than the parent (CUDA's rule). */
function tileOf(ctx: Ctx, parent: Group, sizeNode: Node): Group {
  const v = rvalue(ctx, sizeNode);
  const size = v.kind === 'int' && v.expr.kind === 'int' ? v.expr.value : null;
  if (size === null) return unsupported(ctx, sizeNode, 'a tile whose size is not a constant');
  if (size <= 0n || (size & (size - 1n)) !== 0n || size > 1024n) return reject(ctx, 'misuse', sizeNode, `a tile's size is a power of two up to 1024, not ${size}`);
  switch (parent.kind) {
    case 'block':
      return { kind: 'tile', size, parent };
    case 'tile':
      if (size > parent.size) return reject(ctx, 'misuse', sizeNode, `a tile of ${size} threads of a tile of ${parent.size}`);
      return { kind: 'tile', size, parent };
    case 'coalesced':
      return unsupported(ctx, sizeNode, 'a tile of coalesced_threads() (its threads depend on which are active)');
    case 'grid':
      return reject(ctx, 'misuse', sizeNode, 'tiled_partition of a grid_group: only blocks and their tiles are partitioned');
  }
}

/**
 * `g.member(args)` where the object is a group (a local or parameter that
 * holds one, or a call that makes one); null when it is not, so the caller
 * rejects the method call as before. The object is lowered only when it
 * names a group, so nothing else is evaluated twice.
 */
export function groupMethod(ctx: Ctx, fn: Node, args: readonly Node[], n: Node): Value | null {
  if (fn.child(1)?.type !== '.') return null;
  const object = unparenthesised(child(fn, 'argument'));
  const holds = object.type === 'identifier' ? identifierHoldsGroup(ctx, object.text) : object.type === 'call_expression' ? callMakesGroup(ctx, object) : false;
  if (!holds) return null;
  const v = rvalue(ctx, object);
  if (v.kind !== 'group') return null;
  return groupMethodCall(ctx, v.group, child(fn, 'field').text, args, n);
}

const unparenthesised = (n: Node): Node => (n.type === 'parenthesized_expression' ? unparenthesised(named(n)[0]!) : n);

function identifierHoldsGroup(ctx: Ctx, name: string): boolean {
  const b = ctx.scope.lookup(name);
  return b?.kind === 'local' && ctx.values.get(b.slot)?.kind === 'group';
}

function callMakesGroup(ctx: Ctx, call: Node): boolean {
  const f = call.childForFieldName('function');
  if (f === null) return false;
  const member = groupFunction(ctx.file, calledName(f).name);
  return member === 'this_thread_block' || member === 'this_grid' || member === 'coalesced_threads' || member === 'tiled_partition';
}

/** The members of a tile (and of coalesced threads) that exchange values among its threads: values the analysis does not follow, as the warp intrinsics. */
const EXCHANGES = new Set(['shfl', 'shfl_up', 'shfl_down', 'shfl_xor', 'any', 'all', 'ballot', 'match_any', 'match_all']);

/** What `member` of a group means. */
export function groupMethodCall(ctx: Ctx, g: Group, member: string, args: readonly Node[], n: Node): Value {
  const span = spanOf(n);
  const at = n.childForFieldName('function') ?? n;
  const int = (expr: Expr, type: MachineType): Value => ({ kind: 'int', expr, type });
  const noArguments = (): void => {
    if (args.length > 0) reject(ctx, 'misuse', n, `${member}() of a ${groupTypeName(g)} takes no arguments`);
  };
  if ((g.kind === 'tile' || g.kind === 'coalesced') && EXCHANGES.has(member)) {
    for (const a of args) rvalue(ctx, a);
    return { kind: 'unknown', ctype: member === 'any' || member === 'all' ? BOOL : INT, what: `a warp intrinsic's result (${groupTypeName(g)}::${member})`, span };
  }
  if (member === 'sync') {
    noArguments();
    return groupSync(ctx, g, at, span);
  }
  if (member === 'is_valid') {
    noArguments();
    return g.kind === 'grid' ? { kind: 'unknown', ctype: BOOL, what: 'whether the grid was launched cooperatively (grid_group::is_valid)', span } : { kind: 'bool', cond: { kind: 'bool', value: true, span } };
  }
  if (g.kind === 'coalesced' && (member === 'thread_rank' || member === 'size' || member === 'num_threads' || member === 'meta_group_rank' || member === 'meta_group_size')) {
    noArguments();
    return { kind: 'unknown', ctype: UINT, what: `coalesced_group::${member}(), which depends on the threads active here`, span };
  }
  const value = exactMember(g, member, span);
  if (value === null) return unsupported(ctx, at, `${groupTypeName(g)}::${member}`, [`faial-ts knows a group's sync, thread_rank, size, num_threads and (by kind) dim_threads, group_index, thread_index, meta_group_rank, meta_group_size, block_rank, block_index, num_blocks, shfl*, any, all, ballot`]);
  noArguments();
  for (const e of value.kind === 'dim3' ? value.fields : [value.expr]) exprBuiltins(e, ctx.k.builtins);
  return value.kind === 'dim3' ? dim3Of(value.fields) : int(value.expr, value.type);
}

type Exact = { readonly kind: 'number'; readonly expr: Expr; readonly type: MachineType } | { readonly kind: 'dim3'; readonly fields: readonly Expr[] };

const AXES = ['x', 'y', 'z'] as const;

function builtin(name: 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim', axis: 'x' | 'y' | 'z', span: Span): Expr {
  return { kind: 'cast', type: 'u32', operand: { kind: 'builtin', name, axis, span }, span };
}

/** x + y·X + z·X·Y of a builtin id over a builtin size, in `type`. */
function linear(id: 'threadIdx' | 'blockIdx', size: 'blockDim' | 'gridDim', type: MachineType, span: Span): Expr {
  const c = (axis: 'x' | 'y' | 'z', name: 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim'): Expr => castTo(builtin(name, axis, span), type, span);
  const sx = c('x', size);
  const sxy = arith('*', sx, c('y', size), type, span);
  return arith('+', arith('+', c('x', id), arith('*', c('y', id), sx, type, span), type, span), arith('*', c('z', id), sxy, type, span), type, span);
}

function product(size: 'blockDim' | 'gridDim', type: MachineType, span: Span): Expr {
  const c = (axis: 'x' | 'y' | 'z'): Expr => castTo(builtin(size, axis, span), type, span);
  return arith('*', arith('*', c('x'), c('y'), type, span), c('z'), type, span);
}

/** The thread's rank in the group and the group's size, exactly (coalesced threads have neither). */
function rankAndSize(g: Exclude<Group, { kind: 'coalesced' }>, span: Span): { rank: Expr; size: Expr; type: MachineType } {
  switch (g.kind) {
    case 'block':
      return { rank: linear('threadIdx', 'blockDim', 'u32', span), size: product('blockDim', 'u32', span), type: 'u32' };
    case 'grid': {
      const block = product('blockDim', 'u64', span);
      const rank = arith('+', arith('*', linear('blockIdx', 'gridDim', 'u64', span), block, 'u64', span), linear('threadIdx', 'blockDim', 'u64', span), 'u64', span);
      return { rank, size: arith('*', product('gridDim', 'u64', span), block, 'u64', span), type: 'u64' };
    }
    case 'tile': {
      const parent = g.parent.kind === 'coalesced' ? null : rankAndSize(g.parent, span);
      if (parent === null) throw new Error('a tile of coalesced threads is rejected where it is made');
      return { rank: arith('%', castTo(parent.rank, 'u32', span), constant(g.size, 'u32', span), 'u32', span), size: constant(g.size, 'u32', span), type: 'u32' };
    }
  }
}

function exactMember(g: Group, member: string, span: Span): Exact | null {
  if (g.kind === 'coalesced') return null;
  const number = (expr: Expr, type: MachineType): Exact => ({ kind: 'number', expr, type });
  const dims = (name: 'threadIdx' | 'blockIdx' | 'blockDim' | 'gridDim'): Exact => ({ kind: 'dim3', fields: AXES.map((a) => builtin(name, a, span)) });
  const { rank, size, type } = rankAndSize(g, span);
  switch (member) {
    case 'thread_rank':
      return number(rank, type);
    case 'size':
    case 'num_threads':
      return number(size, type);
  }
  switch (g.kind) {
    case 'block':
      if (member === 'group_index') return dims('blockIdx');
      if (member === 'thread_index') return dims('threadIdx');
      if (member === 'dim_threads' || member === 'group_dim') return dims('blockDim');
      return null;
    case 'grid':
      if (member === 'block_rank') return number(linear('blockIdx', 'gridDim', 'u64', span), 'u64');
      if (member === 'num_blocks') return number(product('gridDim', 'u64', span), 'u64');
      if (member === 'block_index') return dims('blockIdx');
      if (member === 'dim_blocks' || member === 'group_dim') return dims('gridDim');
      return null;
    case 'tile': {
      if (g.parent.kind === 'coalesced') return null;
      const parent = rankAndSize(g.parent, span);
      const n = constant(g.size, 'u32', span);
      if (member === 'meta_group_rank') return number(arith('/', castTo(parent.rank, 'u32', span), n, 'u32', span), 'u32');
      // the parent's tiles, the last one partial when the parent's size is not a multiple of the tile's
      if (member === 'meta_group_size') return number(arith('/', arith('+', castTo(parent.size, 'u32', span), constant(g.size - 1n, 'u32', span), 'u32', span), n, 'u32', span), 'u32');
      return null;
    }
  }
}

function dim3Of(fields: readonly Expr[]): Value {
  return { kind: 'struct', ctype: vectorType('uint3')!, fields: fields.map((expr) => ({ kind: 'int', expr, type: 'u32' })) };
}

/** A group's barrier: the block's is `sync`, a tile of a whole warp's is `syncwarp`; the others have none in the core. */
function groupSync(ctx: Ctx, g: Group, at: Node, span: Span): Value {
  switch (g.kind) {
    case 'block':
      ctx.b.stmt({ kind: 'sync', span });
      return { kind: 'void' };
    case 'tile':
      if (g.size === WARP_SIZE && warpAligned(g.parent)) {
        ctx.b.stmt({ kind: 'syncwarp', span });
        return { kind: 'void' };
      }
      return unsupported(ctx, at, `the barrier of a tile of ${g.size} threads (${groupTypeName(g)}::sync)`, [
        `faial-ts models barriers of a whole block and of a whole warp (a tile of ${WARP_SIZE}), as it models __syncwarp() with the full mask only`,
      ]);
    case 'coalesced':
      return unsupported(ctx, at, 'the barrier of coalesced_threads() (coalesced_group::sync): its threads depend on which are active');
    case 'grid':
      return unsupported(ctx, at, 'grid synchronisation (grid_group::sync): a barrier of every thread of the grid, which faial-ts does not model');
  }
}

/** Whether the group's tiles of 32 threads are the block's warps: the block itself, or a tile of 32 or more of it. */
function warpAligned(g: Group): boolean {
  return g.kind === 'block' || (g.kind === 'tile' && g.size >= WARP_SIZE && warpAligned(g.parent));
}

/** The opaque type a group local declared `auto` has. */
export function groupCType(g: Group): CType {
  return { kind: 'opaque', name: groupTypeName(g) };
}

