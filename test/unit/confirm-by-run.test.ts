/**
 * Possible races confirmed by a run (src/verify/witness-run.ts): an alarm
 * left possible by values read from memory is confirmed when the
 * interpreter, running its witness's launch with every array zero-filled,
 * finds the two threads racing at its two sites; otherwise it stays
 * possible. Every confirmed alarm replays.
 */
import { describe, expect, it } from 'vitest';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { checkedKernels } from '../../src/api/check.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { verifyKernel } from '../../src/verify/verify.js';
import { kernelJson } from '../../src/report/json.js';
import { textReport } from '../../src/report/text.js';
import type { KernelResult } from '../../src/verify/result.js';
import type { KernelMap } from '../../src/map/map.js';

const options = { launch: NO_LAUNCH, timeoutMs: 60_000, maxRaces: 8, solver: z3Wasm };

async function verified(text: string): Promise<{ map: KernelMap; result: KernelResult }> {
  const checked = checkedKernels('k.cu', text, undefined, undefined, await frontEndsFor('k.cu', text, {}));
  if (!checked.ok || checked.kernels.length !== 1) throw new Error('one kernel expected');
  const map = checked.kernels[0]!;
  return { map, result: await verifyKernel(map, options) };
}

const confidences = (r: KernelResult): string[] => r.races.map((race) => `${race.confidence}${race.confirmedBy === 'run' ? ' by a run' : ''}`);

describe('possible races confirmed by running the witness', () => {
  it('a race through an index read from memory: zero-filled memory sends both threads to element 0', async () => {
    const { map, result } = await verified(`
__global__ void k(const int *in, int *out) {
  __shared__ int bins[64];
  bins[threadIdx.x] = 0;
  atomicAdd(&bins[in[threadIdx.x] % 64], 1);
  __syncthreads();
  out[threadIdx.x] = bins[threadIdx.x];
}`);
    expect(result.status).toBe('racy');
    expect(confidences(result)).toContain('confirmed by a run');
    const race = result.races.find((r) => r.confirmedBy === 'run')!;
    expect(race.index).toEqual([0n]);
    // the doubts the run decided stay on record
    expect(race.doubts.every((d) => d.kind === 'data')).toBe(true);
    const text = textReport([{ ok: true, path: 'k.cu', kernels: [result] }], { colour: false });
    expect(text).toContain('confirmed by a run: every array zero-filled');
    const json = kernelJson(result);
    expect(json.races.some((r) => r.confirmedBy === 'run' && r.confidence === 'confirmed')).toBe(true);
    const { failures, result: replayed } = await replayAlarms(map, result, options);
    expect(failures).toEqual([]);
    expect(replayed.races.filter((r) => r.confirmedBy === 'run').every((r) => r.replay?.replayed === true)).toBe(true);
  });

  it('a sum of values read that may overflow: the zero-filled run does not, and shows the race', async () => {
    const { result } = await verified(`
__global__ void k(int *s) {
  unsigned t = threadIdx.x;
  if (t < 16) { s[t] += s[t + 8]; s[t] += s[t + 4]; }
}`);
    expect(result.status).toBe('racy');
    expect(result.races.length).toBeGreaterThan(0);
    // each needs the values read by the first statement not to overflow its sum
    expect(confidences(result).every((c) => c === 'confirmed by a run')).toBe(true);
  });

  it('stays possible where zero-filled memory does not reach the race', async () => {
    const { result } = await verified(`
__global__ void k(const int *in, int *out) {
  if (in[0] == 5) out[0] = threadIdx.x;
}`);
    expect(result.status).toBe('racy');
    expect(confidences(result)).toEqual(['possible']);
  });

  it('stays possible where a value the kernel does not determine decides the race (a run would choose it)', async () => {
    const { result } = await verified(`
__global__ void k(const int *in, int *out) {
  int w = __shfl_sync(0xffffffff, in[threadIdx.x], 0);
  out[w] = threadIdx.x;
}`);
    expect(result.status).toBe('racy');
    expect(result.races.length).toBeGreaterThan(0);
    expect(result.races.every((r) => r.confidence === 'possible')).toBe(true);
  });
});
