/** Lockstep warps are a model of GPUs before sm_70: --arch decides whether --warp-size can mean lockstep, and a DRF that needs it says so. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from './helpers.js';

// DRF in lockstep, racy with independent threads
const LOOP = 'examples/warps/last-warp-loop.bcu';
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-lockstep-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('lockstep warps and the architecture', () => {
  it('verifies lockstep warps before sm_70, and says in every format that the DRF holds only there', async () => {
    const text = await cliResult(['verify', LOOP, '--arch', 'sm_60', '--warp-size', '32']);
    expect(text.exitCode).toBe(0);
    expect(text.stdout).toContain('execution: warp size 32 (lockstep, which holds only before sm_70)');
    expect(text.stdout).toContain('DRF only with lockstep warps: with independent threads (sm_70 and later) the kernel is racy');
    const json = JSON.parse((await cliResult(['verify', LOOP, '--arch', 'sm_60', '--warp-size', '32', '--json'])).stdout);
    expect(json.kernels[0]).toMatchObject({ status: 'drf', lockstepOnly: true, execution: 'warp size 32 (lockstep, which holds only before sm_70)' });
    const sarif = JSON.parse((await cliResult(['verify', LOOP, '--arch', 'sm_60', '--warp-size', '32', '--sarif'])).stdout);
    const results = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId === 'faial/lockstep-only');
    expect(results).toHaveLength(1);
    expect(results[0].level).toBe('warning');
  });

  it('does not call a kernel lockstep-only when it is DRF with independent threads too', async () => {
    const r = await cliResult(['verify', 'examples/warps/warp-xor-sum.bcu', '--arch', 'sm_60', '--warp-size', '32', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).kernels[0].lockstepOnly).toBeUndefined();
  });

  it('verifies independent threads for --warp-size 32 on sm_70 and later (the default), with a note', async () => {
    for (const arch of [[], ['--arch', 'sm_70'], ['--arch', '90']]) {
      const r = await cliResult(['verify', LOOP, '--warp-size', '32', ...arch]);
      expect(r.exitCode).toBe(1);
      expect(r.stdout).toContain('execution: independent threads');
      expect(r.stderr).toMatch(/^note: --warp-size 32 on sm_(70|90): warps do not run in lockstep since sm_70/);
    }
  });

  it('refuses other warp sizes on sm_70 and later, and an architecture it cannot read', async () => {
    const r = await cliResult(['verify', LOOP, '--warp-size', '16']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('--warp-size 16 on sm_90: a warp has 32 threads there');
    const bad = await cliResult(['verify', LOOP, '--arch', 'volta']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('--arch volta: expected sm_XX');
  });

  it("honours a test header's --warp-sync, and names the header and the architecture it holds on", async () => {
    const path = join(dir, 'header.cu');
    // within the first warp every read of the statement happens before its write in lockstep; independent threads race
    await writeFile(path, `//pass
//--blockDim=64 --gridDim=1 --warp-sync=32
__global__ void shift(int *out) {
  __shared__ volatile int s[64];
  if (threadIdx.x < 32) s[threadIdx.x] = s[threadIdx.x + 1];
}
`);
    const r = await cliResult(['verify', path]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('warp size 32 (lockstep, as the header asks: this holds only before sm_70)) comes from the GPUVerify test header');
    expect(r.stdout).toContain('DRF only with lockstep warps');
  });
});
