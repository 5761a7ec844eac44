/** .cu kernels verified at the launch sizes of their file's host code; the command line and a test header win; --any-launch. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from './helpers.js';

const EXAMPLE = 'examples/cuda/launch/rotate-at-launch.cu';
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-launch-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the launches of the host code', () => {
  it('verifies the kernel at the block size its host code launches it with, and says so', async () => {
    const r = await cliResult(['verify', EXAMPLE]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('note[N0620]: kernel rotate is verified at blockDim = 128, from its launch here (gridDim: every value)');
    expect(r.stdout).toContain('rotate-at-launch.cu:20:3');
    // the verdict says what was verified: the launch, and where the program makes it
    expect(r.stdout).toContain('DRF — proved for all parameters, at the launch blockDim = 128 (from examples/cuda/launch/rotate-at-launch.cu:20):');
  });

  it('leaves the sizes the command line gives to the command line', async () => {
    const r = await cliResult(['verify', EXAMPLE, '--block-dim', '256', '--grid-dim', '2']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('data race on data[');
    expect(r.stdout).not.toContain('N0620');
  });

  it('leaves the sizes a GPUVerify test header gives to the header', async () => {
    const path = join(dir, 'header.cu');
    const text = (await readFile(EXAMPLE, 'utf8')).replace(/^\/\/ expect: drf\n/, '//pass\n//--blockDim=[256] --gridDim=[2]\n');
    await writeFile(path, text);
    const r = await cliResult(['verify', path]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('N0605');
  });

  it("verifies a kernel at the constant arguments its launches pass, and leaves a parameter -p fixes to -p", async () => {
    const path = join(dir, 'args.cu');
    await writeFile(path, '__global__ void k(int *a, int n) { a[threadIdx.x % n] = threadIdx.x; }\nint main() { int *a; const int n = 64; k<<<1, 32>>>(a, n); return 0; }\n');
    const at = await cliResult(['verify', path]);
    expect(at.exitCode).toBe(0);
    expect(at.stdout).toContain('DRF — proved for all parameters, at the launch gridDim = 1, blockDim = 32, n = 64 (from');
    const given = await cliResult(['verify', path, '-p', 'n=2']);
    expect(given.exitCode).toBe(1);
    expect(given.stdout).toContain('note[N0620]: kernel k is verified at gridDim = 1, blockDim = 32, from its launch here');
  });

  it('prints the launch as requires at the launch site in lower, and none with --any-launch', async () => {
    const at = await cliResult(['lower', EXAMPLE]);
    expect(at.stdout).toMatch(/requires \(u32\) blockDim\.x == 128 +\/\/ .*rotate-at-launch\.cu:20/);
    const any = await cliResult(['lower', EXAMPLE, '--any-launch']);
    expect(any.exitCode).toBe(0);
    expect(any.stdout).not.toContain('blockDim.x == 128');
    expect(any.stderr).not.toContain('N0620');
  });
});
