import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from '../../src/cli/main.js';
import { FAMILIES, generatedKernel } from '../../src/gen/families.js';
import { verifyText } from '../../src/api/verify.js';
import type { KernelResult } from '../../src/verify/result.js';
import { z3Wasm } from '../../src/solve/z3.js';

async function verified(family: (typeof FAMILIES)[number], size: number, racy: boolean): Promise<KernelResult> {
  const { kernel, source } = generatedKernel(family, size, racy);
  const file = await verifyText(`${kernel}.bcu`, source, { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 30_000, maxRaces: 20, solver: z3Wasm });
  if (!file.ok) throw new Error(`${kernel} does not check: ${file.diagnostics.map((d) => d.message).join('; ')}`);
  expect(file.kernels.map((k) => k.kernel)).toEqual([kernel]);
  return file.kernels[0]!;
}

describe('the synthetic families', () => {
  for (const family of FAMILIES) {
    for (const size of [1, 2, 4]) {
      it(`${family} at size ${size} is well-typed and proved DRF`, async () => {
        const r = await verified(family, size, false);
        expect(r.wellTyped).toBe(true);
        expect(r.status).toBe('drf');
      });
      it(`${family} at size ${size}, racy, has exactly one confirmed racing pair`, async () => {
        const r = await verified(family, size, true);
        expect(r.status).toBe('racy');
        expect(r.races).toHaveLength(1);
        expect(r.races[0]!.confidence).toBe('confirmed');
      });
    }
  }

  it('sizes count what the family says: accesses, barriers, conditionals, nested or sequential loops', () => {
    const count = (text: string, re: RegExp): number => text.replace(/^\/\/.*$/gm, '').match(re)?.length ?? 0;
    expect(count(generatedKernel('accesses', 7, false).source, /s\[\d+\]\[tid\]/g)).toBe(7);
    expect(count(generatedKernel('barriers', 7, false).source, /^\s*sync\b/gm)).toBe(7);
    expect(count(generatedKernel('conditionals', 7, false).source, /\bif \(/g)).toBe(7);
    for (const f of ['unsync-loops', 'sync-loops'] as const) expect(count(generatedKernel(f, 7, false).source, /\bfor i\d+ in/g)).toBe(7);
    expect(count(generatedKernel('unsync-loops', 7, false).source, /\bsync\b/g)).toBe(0);
    // uniform conditionals (on parameters, not tid), each holding one barrier
    const condBarriers = generatedKernel('cond-barriers', 7, false).source;
    expect(count(condBarriers, /\bif \(c\d+ > 0\)/g)).toBe(7);
    expect(count(condBarriers, /^\s*sync\b/gm)).toBe(7);
    expect(condBarriers).not.toMatch(/if \([^)]*tid/);
    // loops in sequence, not nested: each closes before the next opens, with two barriers each
    const seq = generatedKernel('seq-sync-loops', 7, false).source;
    expect(count(seq, /\bfor i\d+ in/g)).toBe(7);
    expect(count(seq, /^\s*sync\b/gm)).toBe(14);
    expect(seq).toMatch(/^  for i1 in 0\.\.m \{$/m);
    expect(seq).toMatch(/^  for i7 in 0\.\.m \{$/m);
  });

  it('states the expected outcome on the first line, as the examples do', () => {
    expect(generatedKernel('barriers', 3, false).source.split('\n')[0]).toBe('// expect: drf');
    expect(generatedKernel('barriers', 3, true).source.split('\n')[0]).toBe('// expect: racy confirmed');
    expect(generatedKernel('sync-loops', 3, true).kernel).toBe('sync_loops_3_racy');
    expect(generatedKernel('seq-sync-loops', 3, true).kernel).toBe('seq_sync_loops_3_racy');
  });

  it('refuses sizes below 1', () => {
    expect(() => generatedKernel('accesses', 0, false)).toThrow(/at least 1/);
  });
});

describe('faial-ts gen', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'faial-gen-'));
  });
  afterAll(async () => {
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  it('prints the kernel of a family at a size', async () => {
    const r = await cliResult(['gen', 'conditionals', '--size', '3', '--racy']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(generatedKernel('conditionals', 3, true).source);
  });

  it('writes it with -o, and verify agrees with its first line', async () => {
    const path = join(dir, 'b.bcu');
    const r = await cliResult(['gen', 'barriers', '--size', '2', '-o', path]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(path, 'utf8')).toBe(generatedKernel('barriers', 2, false).source);
    expect((await cliResult(['verify', path])).exitCode).toBe(0);
  });

  it('lists the families', async () => {
    const r = await cliResult(['gen', '--list']);
    expect(r.exitCode).toBe(0);
    for (const f of FAMILIES) expect(r.stdout).toContain(f);
    // one line per family, the descriptions in one column
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(FAMILIES.length);
    // (every description starts "n …", after the padded name)
    expect(new Set(lines.map((l) => l.indexOf(' n '))).size).toBe(1);
  });

  it('rejects an unknown family, a missing size and a bad size with exit 2', async () => {
    const unknown = await cliResult(['gen', 'loops', '--size', '2']);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("error: gen: no family named 'loops'");
    expect(unknown.stderr).toContain('hint: the families are: accesses, barriers');
    const noSize = await cliResult(['gen', 'accesses']);
    expect(noSize.exitCode).toBe(2);
    expect(noSize.stderr).toContain('--size N is required');
    const zero = await cliResult(['gen', 'accesses', '--size', '0']);
    expect(zero.exitCode).toBe(2);
    expect(zero.stderr).toContain('--size 0');
    expect((await cliResult(['gen'])).exitCode).toBe(2);
  });
});
