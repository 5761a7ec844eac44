#!/usr/bin/env node
// Compares two `faial-ts verify --json` outputs kernel by kernel (issue 29:
// a change to the solvers or the questions must leave verdicts, alarms,
// witnesses and unknowns as they were): everything but `stats` must be
// equal. Prints each kernel that differs (the first differing path), the
// count, and the queries of the two runs from `stats` (sum, largest, kernels
// with fewer and with more). Exit code 1 when some kernel differs.
//   node scripts/witness-diff.js BEFORE.json AFTER.json [--quiet]
import { readFileSync } from 'node:fs';

const [beforePath, afterPath] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const quiet = process.argv.includes('--quiet');
if (beforePath === undefined || afterPath === undefined) {
  console.error('usage: node scripts/witness-diff.js BEFORE.json AFTER.json [--quiet]');
  process.exit(2);
}
const read = (path) => JSON.parse(readFileSync(path, 'utf8')).kernels;
const key = (k) => `${k.file} ${k.kernel}`;

/** The first path at which two JSON values differ, or null. */
function firstDifference(a, b, path = '') {
  if (typeof a !== typeof b || Array.isArray(a) !== Array.isArray(b) || (a === null) !== (b === null)) return path || '.';
  if (typeof a !== 'object' || a === null) return a === b ? null : `${path}: ${JSON.stringify(a)} -> ${JSON.stringify(b)}`;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const d = firstDifference(a[k], b[k], `${path}.${k}`);
    if (d !== null) return d;
  }
  return null;
}

const withoutStats = ({ stats: _stats, ...rest }) => rest;
const before = new Map(read(beforePath).map((k) => [key(k), k]));
const after = new Map(read(afterPath).map((k) => [key(k), k]));
const differences = [];
for (const [name, b] of before) {
  const a = after.get(name);
  const d = a === undefined ? 'missing after' : firstDifference(withoutStats(b), withoutStats(a));
  if (d !== null) differences.push(`${name}: ${d}`);
}
for (const name of after.keys()) if (!before.has(name)) differences.push(`${name}: missing before`);

const queries = (m) => [...m.values()].map((k) => k.stats?.queries ?? 0);
const sum = (xs) => xs.reduce((x, y) => x + y, 0);
let fewer = 0;
let more = 0;
for (const [name, b] of before) {
  const a = after.get(name);
  if (a === undefined) continue;
  if (a.stats.queries < b.stats.queries) fewer++;
  if (a.stats.queries > b.stats.queries) more++;
}
if (!quiet) for (const d of differences) console.log(d);
console.log(`${before.size} kernels before, ${after.size} after; ${differences.length} differ (stats aside)`);
console.log(`queries: sum ${sum(queries(before))} -> ${sum(queries(after))}, largest ${Math.max(...queries(before))} -> ${Math.max(...queries(after))}; ${fewer} kernels fewer, ${more} more`);
const solved = (m) => sum([...m.values()].map((k) => k.stats.queries - k.stats.withoutSolver));
console.log(`solver queries: ${solved(before)} -> ${solved(after)}`);
process.exitCode = differences.length === 0 ? 0 : 1;
