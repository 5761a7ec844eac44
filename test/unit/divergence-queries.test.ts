// The divergence queries of a kernel's barriers (src/encode/query.ts, divergenceQueriesOf): one per barrier the code
// reaches, in the barriers' order, and false as built exactly where the two threads' paths to the barrier are one formula.
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../src/api/check.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { decidedUnsat } from '../../src/encode/query.js';
import { generatedKernel } from '../../src/gen/families.js';
import type { KernelMap } from '../../src/map/map.js';
import { divergenceQueries } from '../../src/verify/verify.js';

function mapOf(text: string): KernelMap {
  const checked = checkedKernels('t.bcu', text);
  if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
  return checked.kernels[0]!;
}

/** Whether the query's disjunction was false before any simplification (the query as built says so). */
const falseAsBuilt = (assertions: readonly { k: string; v?: boolean }[]): boolean => assertions.some((f) => f.k === 'const' && f.v === false);

describe('divergence queries', () => {
  it('one per barrier, in order; a barrier under uniform loops and conditions is false as built', () => {
    const map = mapOf(generatedKernel('seq-sync-loops', 3, false).source);
    const qs = divergenceQueries(map, NO_LAUNCH);
    expect(qs.map((q) => q.id)).toEqual(map.syncs.map((s) => `${map.name}/sync${s.id}`));
    expect(qs).toHaveLength(6);
    for (const q of qs) {
      expect(decidedUnsat(q)).toBe(true);
      expect(falseAsBuilt(q.built.assertions)).toBe(true);
    }
  });

  it('a barrier the threads may reach apart is asked, not folded', () => {
    const map = mapOf('kernel k(n, m) { shared A; for i in 0..m { sync }; if (tid < n) { sync }; for j in 0..tid { sync } }');
    const qs = divergenceQueries(map, NO_LAUNCH);
    expect(qs.map((q) => q.id)).toEqual(['k/sync0', 'k/sync1', 'k/sync2']);
    const [uniform, conditional, ownLoop] = qs;
    expect(falseAsBuilt(uniform!.built.assertions)).toBe(true);
    // tid < n holds for one thread and not another: the paths differ, the query stays (and is not unsat)
    expect(falseAsBuilt(conditional!.built.assertions)).toBe(false);
    expect(decidedUnsat(conditional!)).toBe(false);
    // a loop bounded by the thread's own id: each thread's path has its own bound
    expect(falseAsBuilt(ownLoop!.built.assertions)).toBe(false);
  });
});
