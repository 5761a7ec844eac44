/**
 * A kernel's own requires and assumes (BabyCUDA `requires`/`assume`, CUDA
 * `__requires`/`__assume`) are named in its verdict, in text, JSON and SARIF:
 * a proof under them is not a proof "for all parameters and launches".
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult, decoded } from './helpers.js';

let dir = '';

const FILES: Record<string, string> = {
  // DRF only because offset >= blockDim.x: thread t's write to buf[t + offset] misses every read buf[u]
  'offset.bcu': `kernel offset(offset) requires offset >= blockDim.x {
  shared buf;
  let v = buf[tid] in
  assume tid != 7;
  buf[tid + offset] := v
}
`,
  'offset.cu': `__global__ void offset(int *buf, unsigned offset) {
  __requires(offset >= blockDim.x);
  __assume(offset < 65536);
  int v = buf[threadIdx.x];
  buf[threadIdx.x + offset] = v;
}
`,
  'racy.cu': `__global__ void racy(int *A, int n) {
  __requires(n > 0);
  A[threadIdx.x % n] = threadIdx.x;
}
`,
  'plain.cu': `__global__ void plain(int *A) {
  A[threadIdx.x] = 1;
}
`,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-stated-'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(join(dir, name), text);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the verdict names the assumptions it was proved under', () => {
  it('BabyCUDA requires and assume, in the text verdict', async () => {
    const r = await cliResult(['verify', join(dir, 'offset.bcu')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('DRF — proved for all parameters and launches, assuming offset >= blockDim.x (at 1:32) and tid != 7 (at 4:10):');
  });

  it('CUDA __requires and __assume, with the launch the command line fixes', async () => {
    const r = await cliResult(['verify', join(dir, 'offset.cu'), '--block-dim', '32']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('DRF — proved for all parameters, at blockDim = 32, assuming offset >= blockDim.x (at 2:14) and offset < 65536 (at 3:12):');
  });

  it('an alarm is found under them too', async () => {
    const r = await cliResult(['verify', join(dir, 'racy.cu')]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/racy — 1 data race found, assuming n > 0 \(at 2:14\):/);
  });

  it('a kernel without any keeps the plain wording', async () => {
    const r = await cliResult(['verify', join(dir, 'plain.cu')]);
    expect(r.stdout).toContain('DRF — proved for all parameters and launches:');
  });

  it('JSON lists them with their kind, text and place', async () => {
    const r = await cliResult(['verify', '--json', join(dir, 'offset.cu')]);
    const kernel = decoded(r.stdout).kernels[0]!;
    expect(kernel.status).toBe('drf');
    expect(kernel.assumptions).toEqual([
      { kind: 'requires', text: 'offset >= blockDim.x', line: 2, column: 14, endLine: 2, endColumn: 34 },
      { kind: 'assume', text: 'offset < 65536', line: 3, column: 12, endLine: 3, endColumn: 26 },
    ]);
    const plain = decoded((await cliResult(['verify', '--json', join(dir, 'plain.cu')])).stdout).kernels[0]!;
    expect(plain.assumptions).toBeUndefined();
  });

  it('SARIF states them in the scope note of a BabyCUDA kernel (which has no other scope)', async () => {
    const r = await cliResult(['verify', '--sarif', join(dir, 'offset.bcu')]);
    const results = (JSON.parse(r.stdout) as { runs: { results: { ruleId: string; message: { text: string }; properties: Record<string, unknown> }[] }[] }).runs[0]!.results;
    const scope = results.find((x) => x.ruleId === 'faial/scope');
    expect(scope?.message.text).toBe('Kernel offset: its verdict (DRF) holds for all parameters and launches, assuming offset >= blockDim.x (at 1:32) and tid != 7 (at 4:10).');
    expect(scope?.properties['assumptions']).toEqual([
      { kind: 'requires', text: 'offset >= blockDim.x', line: 1 },
      { kind: 'assume', text: 'tid != 7', line: 4 },
    ]);
  });
});
