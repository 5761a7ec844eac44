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
}

/** Sizes and untyped (BabyCUDA) parameters are below this bound in every query and run, as CUDA's sizes are. */
export const INPUT_BOUND = 1n << 32n;

/** No launch facts: every parameter and size is symbolic. */
export const NO_LAUNCH: Launch = { params: new Map(), blockDim: null, gridDim: null };

/** The launch facts that concern one kernel: parameters it does not have are left out. */
export function launchFor(params: readonly string[], given: Launch): Launch {
  const own = new Map([...given.params].filter(([name]) => params.includes(name)));
  return { params: own, blockDim: given.blockDim, gridDim: given.gridDim };
}
