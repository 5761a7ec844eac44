/**
 * Campaigns split over many machines: `experiment --shard K/N` verifies the
 * K-th of N deterministic slices of the input files, and `experiment merge`
 * joins the shards' results into those of one run over all of them (the
 * same rows in the same order; only the times differ, as between any two
 * runs).
 *
 * The slices are round robin over the input files in the order `experiment`
 * takes them (the arguments in order, a directory's `.bcu` files sorted by
 * path): file i (from 0) belongs to shard (i mod N) + 1. Neighbouring files
 * are often alike (one folder of hard kernels), so round robin spreads them
 * over the shards where contiguous blocks would not.
 */
import type { ExperimentResults, RunInfo } from './results.js';
import type { ExperimentRow } from './rows.js';

export interface Shard {
  /** from 1 */
  readonly index: number;
  readonly count: number;
}

/** `K/N` with 1 ≤ K ≤ N, or why not. */
export function shardOf(text: string): Shard | string {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (m === null) return `expected K/N, e.g. 1/4 for the first of four shards`;
  const [index, count] = [Number(m[1]), Number(m[2])];
  if (!Number.isSafeInteger(count) || count < 1) return 'N must be at least 1';
  if (!Number.isSafeInteger(index) || index < 1 || index > count) return `K must be between 1 and N (${count})`;
  return { index, count };
}

export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/** The files of the shard, in input order. */
export function shardFiles<T>(files: readonly T[], shard: Shard): T[] {
  return files.filter((_, i) => i % shard.count === shard.index - 1);
}

/** A run's rows cut into one group per file of `run.files`, in order (rows come file by file). */
function rowsByFile(results: ExperimentResults): ExperimentRow[][] | null {
  let next = 0;
  const groups = results.run.files.map((file) => {
    const start = next;
    while (next < results.rows.length && results.rows[next]!.file === file) next++;
    return results.rows.slice(start, next);
  });
  return next === results.rows.length ? groups : null;
}

const AGREED = ['version', 'solver', 'rlimit', 'timeoutMs', 'maxRaces', 'warpSize'] as const satisfies readonly (keyof RunInfo)[];

/**
 * The results of one run over every file, from the results of shards 1…N
 * (in any order), or why they cannot be joined: they must be the N shards
 * of one campaign (the same inputs, version and solver settings), each once.
 */
export function mergedResults(parts: readonly { readonly from: string; readonly results: ExperimentResults }[]): ExperimentResults | string {
  if (parts.length === 0) return 'no shard to merge';
  const unsharded = parts.find((p) => p.results.run.shard === null);
  if (unsharded !== undefined) return `${unsharded.from} is not a shard: it was not run with --shard K/N`;
  const first = parts[0]!;
  const count = first.results.run.shard!.count;
  for (const p of parts) {
    const run = p.results.run;
    if (run.shard!.count !== count) return `${p.from} is shard ${shardText(run.shard!)} but ${first.from} is shard ${shardText(first.results.run.shard!)}: not the same split`;
    if (JSON.stringify(run.inputs) !== JSON.stringify(first.results.run.inputs)) return `${p.from} and ${first.from} verified different inputs (${run.inputs.join(' ')} and ${first.results.run.inputs.join(' ')})`;
    for (const key of AGREED) {
      if (run[key] !== first.results.run[key]) return `${p.from} and ${first.from} differ in ${key} (${String(run[key])} and ${String(first.results.run[key])}): their verdicts are not comparable`;
    }
  }
  const byIndex = new Map<number, (typeof parts)[number]>();
  for (const p of parts) {
    const seen = byIndex.get(p.results.run.shard!.index);
    if (seen !== undefined) return `${seen.from} and ${p.from} are both shard ${shardText(p.results.run.shard!)}`;
    byIndex.set(p.results.run.shard!.index, p);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((k) => !byIndex.has(k));
  if (missing.length > 0) return `shard${missing.length === 1 ? '' : 's'} ${missing.map((k) => `${k}/${count}`).join(', ')} missing`;
  const shards = Array.from({ length: count }, (_, i) => byIndex.get(i + 1)!);
  const groups: ExperimentRow[][][] = [];
  for (const s of shards) {
    const g = rowsByFile(s.results);
    if (g === null) return `${s.from}: its rows do not follow its list of files`;
    groups.push(g);
  }
  const total = groups.reduce((n, g) => n + g.length, 0);
  for (const [k, g] of groups.entries()) {
    const expected = Math.ceil((total - k) / count);
    if (g.length !== expected) return `${shards[k]!.from} has ${g.length} files, but shard ${k + 1} of ${total} files has ${expected}`;
  }
  const files: string[] = [];
  const rows: ExperimentRow[] = [];
  for (let i = 0; i < total; i++) {
    // file i of the whole input is file ⌊i/N⌋ of shard (i mod N) + 1
    const [shard, j] = [i % count, Math.floor(i / count)];
    files.push(shards[shard]!.results.run.files[j]!);
    rows.push(...groups[shard]![j]!);
  }
  const jobs = Math.max(...shards.map((s) => s.results.run.jobs));
  return { run: { ...first.results.run, jobs, files, shard: null, mergedShards: count, startUpMs: null }, rows };
}
