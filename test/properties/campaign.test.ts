/** scripts/fuzz.ts in chunks: child processes per chunk, figures added up, a broken chunk retried then reported as not checked; its command line. */
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function fuzz(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('npx', ['tsx', 'scripts/fuzz.ts', ...args]);
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The number after `label: ` on its line of the output. */
function figure(stdout: string, label: string): number {
  const line = stdout.split('\n').find((l) => l.trim().startsWith(`${label}: `));
  if (line === undefined) throw new Error(`no "${label}" line in:\n${stdout}`);
  return Number(line.trim().slice(label.length + 2));
}

describe('npm run fuzz -- --chunk', () => {
  it('adds up the figures of its chunks to those of one process over the same seeds', async () => {
    const chunked = await fuzz(['--only', 'P1', '--runs', '6', '--chunk', '3', '--jobs', '2', '--seed', '11']);
    expect(chunked.code).toBe(0);
    expect(chunked.stdout).toMatch(/^P1: 6 kernels passed in .* \(process time, 2 chunks\)$/m);
    expect(chunked.stdout).toContain('chunks: 2, run again after a crash or hang: 0, not checked: 0');
    const [first, second] = await Promise.all(['11', '12'].map((seed) => fuzz(['--only', 'P1', '--runs', '3', '--seed', seed])));
    for (const label of ['kernels', 'well-typed', 'P1 launches compared']) {
      expect(figure(chunked.stdout, label)).toBe(figure(first!.stdout, label) + figure(second!.stdout, label));
    }
  }, 120_000);

  it('runs a chunk that does not answer once more, then reports it as not checked with exit code 2', async () => {
    const r = await fuzz(['--only', 'P3', '--runs', '5', '--chunk', '5', '--chunk-timeout', '1', '--seed', '11']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('chunk seed 11 broke (no answer within 1 s); running it again');
    expect(r.stdout).toContain('chunks: 1, run again after a crash or hang: 1, not checked: 1');
    expect(r.stdout).toContain('not checked: seed 11 (5 kernels): no answer within 1 s');
    expect(r.stdout).not.toMatch(/kernels passed/);
  }, 120_000);

  it('checks some kernels with lockstep warps, each one with --warps every, none with --warps none, and counts each warp size', async () => {
    const warpLines = (stdout: string): number => [...stdout.matchAll(/^\s+warp size (\d+): (\d+)$/gm)].reduce((n, m) => n + Number(m[2]), 0);
    const [some, every, none] = await Promise.all(['some', 'every', 'none'].map((w) => fuzz(['--only', 'P1', '--runs', '12', '--seed', '11', '--warps', w])));
    expect([some!.code, every!.code, none!.code]).toEqual([0, 0, 0]);
    expect(some!.stdout).toContain('some with lockstep warps');
    expect(warpLines(some!.stdout) + figure(some!.stdout, 'independent threads')).toBe(12);
    expect(warpLines(some!.stdout)).toBeGreaterThan(0);
    expect(every!.stdout).toContain('each with lockstep warps');
    expect(warpLines(every!.stdout)).toBe(12);
    expect(none!.stdout).toContain('independent threads only');
    expect(figure(none!.stdout, 'independent threads')).toBe(12);
  }, 120_000);

  it('with --cuda checks each kernel through the CUDA front end, in chunks too, and counts the launches it could not compare', async () => {
    const r = await fuzz(['--only', 'P1', '--runs', '6', '--seed', '11', '--cuda', '--chunk', '3']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('each printed as CUDA C and verified through the CUDA front end (no atomics)');
    expect(figure(r.stdout, 'kernels')).toBe(6);
    expect(figure(r.stdout, 'P1 launches compared')).toBeGreaterThan(0);
    expect(figure(r.stdout, 'P1 launches not compared (a value of an approximation)')).toBe(0);
  }, 120_000);

  it('says in one line what is wrong with its command line, and exits 2 without checking anything', async () => {
    const r = await fuzz(['--only', 'P3', '--chunks', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fuzz: unknown argument --chunks \(use --runs N .*\)$/m);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stdout).toBe('');
    const warps = await fuzz(['--only', 'P1', '--warps', 'most']);
    expect(warps.code).toBe(2);
    expect(warps.stderr).toMatch(/^fuzz: --warps takes some, every or none, not 'most' \(use --runs N .*\)$/m);
  }, 60_000);
});
