/**
 * Redundant barriers. A barrier is redundant when the kernel without it is
 * still proved DRF and free of barrier divergence, for every launch the
 * kernel's requires (and the command line) allow. Only a proof counts: an
 * unanswered query or a possible alarm leaves the barrier `not-proved`, never
 * redundant. Each barrier is checked alone, so two barriers that are each
 * redundant may not be redundant together.
 */
import { replaceBarriers, type KernelMap, type Proto, type SyncSite } from '../map/map.js';
import type { BarrierCheck, BarrierVerdict, KernelResult } from './result.js';
import { verifyKernel, type VerifyOptions } from './verify.js';

/** A copy of the protocol in which the barrier `id` is not. */
export function protoWithoutSync(p: Proto, id: number): Proto {
  return replaceBarriers(p, (b) => (b.sync.id === id ? { kind: 'skip' } : b));
}

export function mapWithoutSync(map: KernelMap, sync: SyncSite): KernelMap {
  return { ...map, body: protoWithoutSync(map.body, sync.id), syncs: map.syncs.filter((s) => s.id !== sync.id) };
}

/** A confirmed alarm is a real execution of the kernel without the barrier, so the barrier is needed. */
export function barrierVerdictOf(without: KernelResult): BarrierVerdict {
  if (without.status === 'drf') return 'redundant';
  const confirmed = [...without.races, ...without.divergences].some((a) => a.confidence === 'confirmed');
  return confirmed ? 'needed' : 'not-proved';
}

/**
 * The result with a verdict for each of its barriers. A kernel that is not
 * DRF gets none: whether it stays DRF without a barrier says nothing.
 */
export async function withBarrierChecks(map: KernelMap, result: KernelResult, options: VerifyOptions): Promise<KernelResult> {
  if (result.status !== 'drf') return { ...result, barriers: null };
  const barriers: BarrierCheck[] = [];
  // One alarm is enough to deny redundancy; the search for more is wasted.
  const once: VerifyOptions = { ...options, maxRaces: 1 };
  for (const sync of map.syncs) {
    const without = await verifyKernel(mapWithoutSync(map, sync), once);
    barriers.push({ sync, verdict: barrierVerdictOf(without), without });
  }
  return { ...result, barriers };
}
