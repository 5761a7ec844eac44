/**
 * What CUDA's own names mean to the analysis. The front end knows them
 * itself: system headers (<cuda.h>, <cuda_runtime.h>…) are not read.
 */
import type { AtomicOp } from '../../core/ast.js';

/** Calls and the one meaning each has in the core. */
export type BuiltinCall =
  | { readonly kind: 'barrier' }
  /** __syncwarp(mask): the core's syncwarp, for the full mask only */
  | { readonly kind: 'warp-barrier' }
  /** a barrier that also returns an unknown value (__syncthreads_count/_and/_or) */
  | { readonly kind: 'barrier-value' }
  /** no effect on data races within one launch (memory fences, prints, hints) */
  | { readonly kind: 'no-effect'; readonly why: string }
  /** a value the analysis does not follow: warp intrinsics, textures, math, clocks */
  | { readonly kind: 'unknown'; readonly what: string }
  /** a read of the memory its pointer argument names (__ldg) */
  | { readonly kind: 'load' }
  | { readonly kind: 'min' | 'max' | 'abs' }
  /** `__mul24` / `__umul24`: the low 32 bits of the product of the operands' low 24 bits */
  | { readonly kind: 'mul24'; readonly signed: boolean }
  /** a GPUVerify annotation we honour */
  | { readonly kind: 'requires' | 'assume' }
  /** a GPUVerify annotation we read and ignore, with a notice */
  | { readonly kind: 'ignored-annotation' }
  /** assert(c): not checked, with a notice */
  | { readonly kind: 'assert' }
  /** atomicAdd(&A[i], v) and the like (also their _block and _system forms): the core's atomic */
  | { readonly kind: 'atomic'; readonly op: AtomicOp }
  | { readonly kind: 'rejected'; readonly construct: string; readonly hint?: string };

const table = new Map<string, BuiltinCall>();
const set = (names: readonly string[], meaning: BuiltinCall): void => {
  for (const n of names) table.set(n, meaning);
};

set(['__syncthreads'], { kind: 'barrier' });
set(['__syncthreads_count', '__syncthreads_and', '__syncthreads_or'], { kind: 'barrier-value' });
set(['__threadfence', '__threadfence_block', '__threadfence_system'], {
  kind: 'no-effect',
  why: 'a memory fence orders one thread\'s accesses for other threads; it does not synchronise threads, so it changes no data race in this model',
});
set(['printf'], { kind: 'no-effect', why: 'printing does not access the kernel\'s arrays' });
set(['__prof_trigger', '__trap', '__brkpt', '__nanosleep'], { kind: 'no-effect', why: 'it does not access the kernel\'s arrays' });
set(
  [
    '__shfl', '__shfl_up', '__shfl_down', '__shfl_xor', '__shfl_sync', '__shfl_up_sync', '__shfl_down_sync', '__shfl_xor_sync',
    '__ballot', '__ballot_sync', '__any', '__all', '__any_sync', '__all_sync', '__uni_sync', '__activemask', '__match_any_sync', '__match_all_sync',
    '__reduce_add_sync', '__reduce_min_sync', '__reduce_max_sync', '__reduce_and_sync', '__reduce_or_sync', '__reduce_xor_sync',
  ],
  { kind: 'unknown', what: 'a warp intrinsic\'s result' },
);
set(['tex1Dfetch', 'tex1D', 'tex2D', 'tex3D', 'tex1DLayered', 'tex2DLayered', 'texCubemap', 'tex2Dgather', 'surf1Dread', 'surf2Dread'], {
  kind: 'unknown',
  what: 'a texture fetch',
});
set(['clock', 'clock64', '__clock', 'globaltimer'], { kind: 'unknown', what: 'a clock value' });
set(['__popc', '__popcll', '__clz', '__clzll', '__ffs', '__ffsll', '__brev', '__brevll', '__byte_perm', '__funnelshift_l', '__funnelshift_r', '__mulhi', '__umulhi', '__mul64hi', '__umul64hi', '__sad', '__usad', '__hadd', '__uhadd', '__rhadd', '__urhadd'], {
  kind: 'unknown',
  what: 'a bit-manipulation intrinsic\'s result',
});
set(['__ldg', '__ldca', '__ldcg', '__ldcs', '__ldlu', '__ldcv'], { kind: 'load' });
set(['__mul24'], { kind: 'mul24', signed: true });
set(['__umul24'], { kind: 'mul24', signed: false });
set(['min', 'umin', 'llmin', 'ullmin', 'std::min'], { kind: 'min' });
set(['max', 'umax', 'llmax', 'ullmax', 'std::max'], { kind: 'max' });
set(['abs', 'labs', 'llabs', 'std::abs'], { kind: 'abs' });
set(['__requires'], { kind: 'requires' });
set(['__assume'], { kind: 'assume' });
set(
  [
    '__invariant', '__global_invariant', '__ensures', '__global_ensures', '__global_requires', '__assert', '__global_assert', '__function_wide_invariant',
    '__candidate_invariant', '__candidate_global_invariant', '__reads_from', '__writes_to', '__read', '__write', '__read_offset', '__write_offset',
    '__no_read', '__no_write', '__ptr_base', '__ptr_offset', '__implies', '__enabled', '__other_int', '__other_bool', '__uniform_int', '__uniform_bool',
    '__distinct_int', '__distinct_bool', '__at_most_one', '__non_temporal', '__array_snapshot', '__atomic_has_taken_value', '__add_noovfl',
    '__barrier_invariant', '__barrier_invariant_binary', '__return_val_int', '__return_val_bool', '__old_int', '__old_bool', '__same_group', '__function_wide_candidate_invariant',
  ],
  { kind: 'ignored-annotation' },
);
set(['assert'], { kind: 'assert' });
set(['__syncwarp'], { kind: 'warp-barrier' });
// memcpy and memset are memops.ts's
set(['memmove', '__builtin_memmove', 'cudaMemcpyAsync', 'cudaMemsetAsync'], { kind: 'rejected', construct: 'device memcpy/memset' });
set(['malloc', 'free', 'new', 'delete'], { kind: 'rejected', construct: 'dynamic allocation on the device' });
set(['__pipeline_memcpy_async', '__pipeline_commit', '__pipeline_wait_prior', 'cuda::memcpy_async'], { kind: 'rejected', construct: 'asynchronous copies' });
for (const grid of ['this_grid', 'grid_group', 'sync_grids', 'this_multi_grid']) table.set(grid, { kind: 'rejected', construct: 'cooperative-groups grid synchronisation' });

/** CUDA's atomic functions; the scope suffix (_block, _system) changes nothing within one launch of one kernel. */
const ATOMICS = /^atomic(Add|Sub|Exch|Min|Max|Inc|Dec|CAS|And|Or|Xor)(?:_block|_system)?$/;
/** libcu++'s and the compiler's atomics: other memory orders and types */
const OTHER_ATOMICS = /^(?:__nv_atomic\w*|atomic_\w+)$/;

/** What the call of `name` means, or null for a name the front end does not know (a function of the file, or an unknown one). */
export function builtinCall(name: string): BuiltinCall | null {
  const known = table.get(name);
  if (known) return known;
  const atomic = ATOMICS.exec(name);
  if (atomic !== null) return { kind: 'atomic', op: atomic[1]!.toLowerCase() as AtomicOp };
  if (OTHER_ATOMICS.test(name)) return { kind: 'rejected', construct: `${name} (only CUDA's atomicAdd … atomicXor functions are modelled)`, hint: 'use atomicAdd, atomicCAS, … on an element of an array' };
  if (/^__(?:[a-z0-9]+_)?(?:sync|shfl)/.test(name) && name.includes('shfl')) return { kind: 'unknown', what: 'a warp intrinsic\'s result' };
  if (MATH.test(name)) return { kind: 'unknown', what: `the result of ${name}` };
  return null;
}

/** Floating-point math of CUDA's math API (sqrtf, __expf, fmaf, __fdividef…): values the analysis does not follow. */
const MATH =
  /^(?:std::)?(?:__)?(?:sqrt|rsqrt|cbrt|rcbrt|exp|exp2|exp10|expm1|log|log2|log10|log1p|pow|sin|cos|tan|sincos|asin|acos|atan|atan2|sinh|cosh|tanh|asinh|acosh|atanh|fabs|fmin|fmax|fma|fmod|floor|ceil|round|rint|trunc|lrint|llrint|lround|llround|nearbyint|hypot|erf|erfc|lgamma|tgamma|copysign|fdim|ldexp|frexp|modf|isnan|isinf|isfinite|signbit|saturate|fdivide|frcp|fsqrt|fadd|fsub|fmul|fmaf|fdiv|float2int|int2float|float_as_int|int_as_float|uint2float|float2uint|double2int|int2double|half2float|float2half|sinpi|cospi|norm\d?d?|rnorm\d?d?)(?:f|l)?(?:_r[nzud])?$/;

/** __syncwarp's mask naming every lane of the warp, its default. */
export const FULL_WARP_MASK = 0xffffffffn;

/** Builtin variables: threadIdx, blockIdx, blockDim, gridDim (the core's builtins) and warpSize. */
export const BUILTIN_VARS = new Set(['threadIdx', 'blockIdx', 'blockDim', 'gridDim']);
export const WARP_SIZE = 32n;
