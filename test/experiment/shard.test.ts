/**
 * `experiment --shard K/N` and `experiment merge`: the shards partition the
 * input files, and their merge is the unsharded run (the same rows in the
 * same order, the same class and alarm tables; only times differ).
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cliResult } from '../../src/cli/main.js';
import { CSV_HEADER, type ExperimentResults } from '../../src/experiment/results.js';
import { mergedResults, shardFiles, shardOf, type Shard } from '../../src/experiment/shard.js';
import { STAGES } from '../../src/experiment/rows.js';
import { kernelDir, removeDir } from '../cli/helpers.js';

describe('shards', () => {
  it('reads K/N with 1 ≤ K ≤ N, and says what is wrong otherwise', () => {
    expect(shardOf('2/4')).toEqual({ index: 2, count: 4 });
    expect(shardOf(' 1 / 1 ')).toEqual({ index: 1, count: 1 });
    expect(shardOf('0/4')).toBe('K must be between 1 and N (4)');
    expect(shardOf('5/4')).toBe('K must be between 1 and N (4)');
    expect(shardOf('1/0')).toBe('N must be at least 1');
    expect(shardOf('2')).toMatch(/^expected K\/N/);
    expect(shardOf('-1/2')).toMatch(/^expected K\/N/);
  });

  it('give every file to exactly one shard, round robin in input order', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 40 }), fc.integer({ min: 1, max: 12 }), (files, count) => {
        const shards = Array.from({ length: count }, (_, i) => shardFiles(files, { index: i + 1, count }));
        // file i is file ⌊i/N⌋ of shard (i mod N) + 1
        return files.every((f, i) => shards[i % count]![Math.floor(i / count)] === f) && shards.reduce((n, s) => n + s.length, 0) === files.length;
      }),
    );
    expect(shardFiles(['a', 'b', 'c', 'd', 'e'], { index: 2, count: 2 })).toEqual(['b', 'd']);
  });
});

describe('merging shards, refused', () => {
  const part = (from: string, shard: Shard | null, files: string[], change: Partial<ExperimentResults['run']> = {}): { from: string; results: ExperimentResults } => ({
    from,
    results: {
      run: { version: '1', inputs: ['k'], solver: 'z3-wasm', rlimit: 1000, timeoutMs: 10, maxRaces: 20, warpSize: null, jobs: 1, startUpMs: null, files, shard, mergedShards: null, ...change },
      rows: files.map((file) => ({ kind: 'file-error', file, error: 'x', times: { parse: 0, typing: 0, phases: 0, encoding: 0, solving: 0, witnesses: 0 }, totalMs: 0 })),
    },
  });
  it('names what does not fit', () => {
    const one = part('d1', { index: 1, count: 2 }, ['a', 'c']);
    const two = part('d2', { index: 2, count: 2 }, ['b']);
    expect(mergedResults([two, one])).toMatchObject({ run: { files: ['a', 'b', 'c'], shard: null, mergedShards: 2 } });
    expect(mergedResults([])).toBe('no shard to merge');
    expect(mergedResults([one])).toBe('shard 2/2 missing');
    expect(mergedResults([one, one])).toBe('d1 and d1 are both shard 1/2');
    expect(mergedResults([one, part('d0', null, ['b'])])).toBe('d0 is not a shard: it was not run with --shard K/N');
    expect(mergedResults([one, part('d3', { index: 2, count: 3 }, ['b'])])).toBe('d3 is shard 2/3 but d1 is shard 1/2: not the same split');
    expect(mergedResults([one, part('d2', { index: 2, count: 2 }, ['b'], { timeoutMs: 99 })])).toBe('d2 and d1 differ in timeoutMs (99 and 10): their verdicts are not comparable');
    expect(mergedResults([one, part('d2', { index: 2, count: 2 }, ['b'], { rlimit: 5 })])).toBe('d2 and d1 differ in rlimit (5 and 1000): their verdicts are not comparable');
    expect(mergedResults([one, part('d2', { index: 2, count: 2 }, ['b'], { warpSize: 32 })])).toBe('d2 and d1 differ in warpSize (32 and null): their verdicts are not comparable');
    expect(mergedResults([one, part('d2', { index: 2, count: 2 }, ['b'], { inputs: ['other'] })])).toMatch(/^d2 and d1 verified different inputs/);
    expect(mergedResults([one, part('d2', { index: 2, count: 2 }, ['b', 'd', 'e'])])).toBe('d1 has 2 files, but shard 1 of 5 files has 3');
  });
});

describe('experiment --shard and experiment merge', () => {
  let kernels = '';
  let out = '';
  beforeAll(async () => {
    kernels = await kernelDir();
    out = await mkdtemp(join(tmpdir(), 'faial-shards-'));
  });
  afterAll(async () => {
    await removeDir(kernels);
    await removeDir(out);
  });

  const results = async (dir: string): Promise<ExperimentResults> => JSON.parse(await readFile(join(out, dir, 'results.json'), 'utf8')) as ExperimentResults;
  const untimed = (r: ExperimentResults): unknown[] => r.rows.map(({ times: _t, totalMs: _m, ...rest }) => rest);
  const timeColumns = new Set([...STAGES.map((s) => `${s}_ms`), 'total_ms']);
  // results.csv without its time columns (no field here holds a comma)
  const untimedCsv = async (dir: string): Promise<string[]> =>
    (await readFile(join(out, dir, 'results.csv'), 'utf8')).split('\n').map((line) => line.split(',').filter((_, i) => !timeColumns.has(CSV_HEADER[i]!)).join(','));
  const tables = async (dir: string): Promise<string> => {
    const summary = await readFile(join(out, dir, 'summary.md'), 'utf8');
    return summary.slice(summary.indexOf('## Kernels by class'), summary.indexOf('## Time'));
  };

  it('gives the rows, the table and the summary of the unsharded run', async () => {
    const inputs = [kernels, 'examples/paper/figure3.bcu'];
    expect((await cliResult(['experiment', ...inputs, '--out', join(out, 'whole')])).exitCode).toBe(0);
    for (const k of [1, 2, 3]) {
      const r = await cliResult(['experiment', ...inputs, '--shard', `${k}/3`, '--out', join(out, `shard${k}`)]);
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
    }
    const shard2 = await results('shard2');
    expect(shard2.run.shard).toEqual({ index: 2, count: 3 });
    expect(shard2.run.files).toEqual(shardFiles((await results('whole')).run.files, { index: 2, count: 3 }));
    // the shards in any order
    const merge = await cliResult(['experiment', 'merge', join(out, 'shard3'), join(out, 'shard1'), join(out, 'shard2'), '--out', join(out, 'merged')]);
    expect(merge.stderr).toBe('');
    expect(merge.exitCode).toBe(0);
    expect(merge.stdout).toContain(join(out, 'merged', 'summary.md'));
    const [whole, merged] = [await results('whole'), await results('merged')];
    expect(whole.rows.length).toBeGreaterThan(6);
    expect(untimed(merged)).toEqual(untimed(whole));
    expect(merged.run).toMatchObject({ files: whole.run.files, inputs: whole.run.inputs, shard: null, mergedShards: 3 });
    expect(await untimedCsv('merged')).toEqual(await untimedCsv('whole'));
    expect(await tables('merged')).toEqual(await tables('whole'));
    expect(await readFile(join(out, 'merged', 'summary.md'), 'utf8')).toContain('merged from 3 shards');
  });

  it('writes an empty table for a shard without files, and refuses shards of another campaign', async () => {
    const r = await cliResult(['experiment', 'examples/paper/figure4.bcu', '--shard', '2/2', '--out', join(out, 'empty')]);
    expect(r.exitCode).toBe(0);
    expect((await results('empty')).rows).toEqual([]);
    const other = await cliResult(['experiment', 'merge', join(out, 'empty'), join(out, 'shard1'), '--out', join(out, 'bad')]);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/^error: cannot merge: .* is shard 1\/3 but .* is shard 2\/2: not the same split\n$/);
    const bad = await cliResult(['experiment', 'examples/paper/figure4.bcu', '--shard', '3/2', '--out', join(out, 'x')]);
    expect(bad).toMatchObject({ exitCode: 2, stderr: 'error: --shard 3/2: K must be between 1 and N (2)\n' });
  });
});
