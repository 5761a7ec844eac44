/**
 * The launch facts a user fixes from outside the kernel (the command line, a
 * GPUVerify test header, the playground's options): parameter values and the
 * block and grid dimensions. Every stage reads this one type.
 */

export interface Launch {
  /** extra facts from the command line: parameter values and dimensions */
  readonly params: ReadonlyMap<string, bigint>;
  readonly blockDim: readonly bigint[] | null;
  readonly gridDim: readonly bigint[] | null;
  /**
   * `--warp-size N`: the threads of a warp (N consecutive linear thread ids
   * of a block) run in lockstep (src/map/lockstep.ts); absent: every thread
   * is scheduled independently (Volta and later)
   */
  readonly warpSize?: number;
}

/** Sizes and untyped (BabyCUDA) parameters are below this bound in every query and run, as CUDA's sizes are. */
export const INPUT_BOUND = 1n << 32n;

/** No launch facts: every parameter and size is symbolic. */
export const NO_LAUNCH: Launch = { params: new Map(), blockDim: null, gridDim: null };

/** The launch facts that concern one kernel: parameters it does not have are left out. */
export function launchFor(params: readonly string[], given: Launch): Launch {
  const own = new Map([...given.params].filter(([name]) => params.includes(name)));
  return { params: own, blockDim: given.blockDim, gridDim: given.gridDim, ...(given.warpSize === undefined ? {} : { warpSize: given.warpSize }) };
}

/** `__syncwarp()`'s warp size when the threads are not in lockstep: CUDA's `warpSize`. */
export const DEFAULT_WARP_SIZE = 32;

/** The warp of a thread of a block: its linear id (x + y·bx + z·bx·by) divided by the warp size. */
export function warpOf(thread: readonly bigint[], blockDim: readonly bigint[], warpSize: number): bigint {
  const [x, y, z] = [thread[0] ?? 0n, thread[1] ?? 0n, thread[2] ?? 0n];
  const [bx, by] = [blockDim[0] ?? 1n, blockDim[1] ?? 1n];
  return (x + y * bx + z * bx * by) / BigInt(warpSize);
}

