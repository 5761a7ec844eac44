import { describe, it, expect } from 'vitest';
import { cliResult } from '../../src/cli/main.js';
import { VerifyReport } from '../../src/report/json.js';
import { isRight } from 'fp-ts/lib/Either.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('verify --replay', () => {
  it('replays the confirmed races of Figure 3 and marks them in text and JSON', async () => {
    const text = await cliResult(['verify', '--replay', 'examples/paper/figure3.bcu']);
    expect(text.exitCode).toBe(1);
    expect(text.stdout).toContain('replayed: the interpreter reproduces it');
    const json = await cliResult(['verify', '--replay', '--json', 'examples/paper/figure3.bcu']);
    const report: unknown = JSON.parse(json.stdout);
    expect(isRight(VerifyReport.decode(report))).toBe(true);
    const races = (report as VerifyReport).kernels[0]!.races;
    expect(races.length).toBeGreaterThan(0);
    expect(races.every((r) => r.replayed === true)).toBe(true);
  });

  it('replays a small witness: the reported one, or one the solver made small first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faial-replay-'));
    const file = join(dir, 'grid.bcu');
    writeFileSync(file, 'kernel k(N) {\n  global G;\n  G[blockIdx.x + N] := 0;\n  let v = G[blockIdx.x] in skip\n}\n');
    const r = await cliResult(['verify', '--replay', '--json', file]);
    const report = JSON.parse(r.stdout) as VerifyReport;
    const confirmed = report.kernels[0]!.races.filter((x) => x.confidence === 'confirmed');
    expect(confirmed.length).toBeGreaterThan(0);
    for (const race of confirmed) {
      expect(race.replayed).toBe(true);
      const run = race.minimisedWitness ?? race.witness;
      expect(Number(run.gridDim[0]) * Number(run.blockDim[0])).toBeLessThanOrEqual(256);
    }
  });

  it('asks for a small witness in bit-vectors wide enough for its bounds (the fuzz campaign found an internal error there)', async () => {
    // only a launch of 2^32 - 1 threads along y (or as many blocks) reaches the barrier; the bit-or makes the query a
    // bit-vector one, 33 bits wide, and the bound on the sum of the launch's sizes wrapped around in those 33 bits
    const dir = mkdtempSync(join(tmpdir(), 'faial-replay-'));
    const file = join(dir, 'wide.bcu');
    writeFileSync(file, 'kernel k() {\n  if ((gridDim.x | threadIdx.y) % 4294967295 == 0) {\n    sync\n  }\n}\n');
    const r = await cliResult(['verify', '--replay', file]);
    expect(r.stdout).not.toContain('internal error');
    expect(r.stdout).toContain('✗ barrier divergence at 3:5 (confirmed)');
    expect(r.stdout).toMatch(/not replayed: .*more than the limit of 65536/);
    expect(r.exitCode).toBe(1);
  });

  it('replays a confirmed barrier divergence', async () => {
    const r = await cliResult(['verify', '--replay', 'examples/divergence/sync-in-tid-loop.bcu']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('replayed: the interpreter reproduces it');
    expect(r.stderr).toBe('');
  });
});
