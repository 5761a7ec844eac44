import { describe, expect, it } from 'vitest';
import { isRight } from 'fp-ts/lib/Either.js';
import { VerifyReport } from '../../src/report/json.js';
import { cliResult } from './helpers.js';

const WRAP = 'examples/barriers/wrap-needed.bcu';

describe('faial-ts verify --barriers', () => {
  it('names a needed barrier with the race that proves it, and keeps exit 0', async () => {
    const r = await cliResult(['verify', '--timeout', '30000', '--barriers', WRAP]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('barriers: 1 barrier, 0 redundant (each removed alone and the kernel verified again)');
    expect(r.stdout).toMatch(/barrier at 12:3: needed — without it, data race on s\[\d+\] \(read-write, confirmed\) between the (write at 11:19 and the read at 13:11|read at 13:11 and the write at 11:19), threads \d+ and \d+ of a block of \d+/);
  });

  it('warns about a barrier proved redundant, with the scope of the proof', async () => {
    const r = await cliResult(['verify', '--timeout', '30000', '--barriers', '--block-dim', '32', WRAP]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(
      'warning: redundant barrier at 12:3 — without it the kernel is still DRF and free of barrier divergence, proved for all parameters, at blockDim = 32',
    );
    expect(r.stdout).toMatch(/> 12 \|   sync;\n\s+\|\s+\^{4} can be removed/);
  });

  it('says the barriers of a racy kernel are not judged', async () => {
    const r = await cliResult(['verify', '--timeout', '30000', '--barriers', 'examples/reductions/reduce-missing-sync.bcu']);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('barriers: not checked — only the barriers of a DRF kernel can be judged redundant');
  });

  it('prints nothing about barriers without --barriers', async () => {
    const r = await cliResult(['verify', '--timeout', '30000', '--block-dim', '32', WRAP]);
    expect(r.stdout).not.toMatch(/^barriers:|redundant barrier/m);
  });

  it('gives each barrier in --json, which the codec accepts', async () => {
    const r = await cliResult(['verify', '--timeout', '30000', '--json', '--barriers', '--block-dim', '32', WRAP, 'examples/reductions/reduce-missing-sync.bcu']);
    const decoded = VerifyReport.decode(JSON.parse(r.stdout));
    if (!isRight(decoded)) throw new Error(`the JSON report does not match its codec: ${r.stdout}`);
    const [wrap, racy] = decoded.right.kernels;
    expect(wrap?.barriers).toEqual([
      { line: 12, column: 3, endLine: 12, endColumn: 7, verdict: 'redundant', reason: 'without it the kernel is still proved DRF and free of barrier divergence' },
    ]);
    expect(racy?.barriers).toBeNull();
  });
});
