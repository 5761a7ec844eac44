/**
 * `faial-ts fix`: repairs are applied (with patch(1) from the printed diff, or
 * written with -o) and the result verified again; redundant barriers are
 * removed; kernels no barrier can repair are explained.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { unifiedDiff } from '../../src/fix/diff.js';
import { verifyText } from '../../src/api/verify.js';
import { cliResult } from './helpers.js';
import { hasPrograms } from '../support/binaries.js';
import { z3Wasm } from '../../src/solve/z3.js';

const run = promisify(execFile);
// repairs are proved under test load: three times the default per query, as the examples test does
const TIMEOUT = '30000';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-fix-'));
});
afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

async function verified(path: string): Promise<string[]> {
  const r = await verifyText(path, await readFile(path, 'utf8'), { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 30_000, maxRaces: 1, solver: z3Wasm });
  if (!r.ok) throw new Error(`${path} does not parse`);
  return r.kernels.map((k) => k.status);
}

describe.runIf(hasPrograms('patch'))('unifiedDiff', () => {
  it('prints one hunk with three lines of context that patch applies', async () => {
    const before = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 6\n', 'line 6\n  sync;\n').replace('line 11\n', 'line eleven\n');
    const diff = unifiedDiff(before, after, 'a.txt', 'a.txt');
    const path = join(dir, 'a.txt');
    await writeFile(path, before);
    await writeFile(`${path}.new`, after);
    // diff(1) exits 1 when the files differ
    const reference = await run('diff', ['-u', '--label', 'a.txt', '--label', 'a.txt', path, `${path}.new`]).then(
      (r) => r.stdout,
      (e: { stdout: string }) => e.stdout,
    );
    expect(diff).toBe(reference);
    expect(diff).toContain('@@ -4,9 +4,10 @@');
    await writeFile(`${path}.diff`, diff);
    await run('patch', ['-s', path, `${path}.diff`]);
    expect(await readFile(path, 'utf8')).toBe(after);
    expect(unifiedDiff(before, before, 'a', 'b')).toBe('');
  });
});

describe('faial-ts fix', () => {
  for (const example of ['examples/reductions/reduce-missing-sync.bcu', 'examples/divergence/bounds-guard-sync.bcu']) {
    it.runIf(hasPrograms('patch'))(`repairs ${example}, and the file patched with the printed diff is proved DRF`, async () => {
      const r = await cliResult(['fix', '--timeout', TIMEOUT, example]);
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toMatch(/: repaired — .* fixed; the repaired kernel is proved DRF and free of barrier divergence for all parameters and launches\n/);
      const diff = r.stdout.slice(0, r.stdout.indexOf('\n✓'));
      expect(diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).join('\n')).toMatch(/sync/);
      const copy = join(dir, 'patched.bcu');
      await copyFile(example, copy);
      await writeFile(`${copy}.diff`, `${diff}\n`);
      await run('patch', ['-s', copy, `${copy}.diff`]);
      expect(await verified(copy)).toEqual(['drf']);
    });
  }

  it('splits a read-modify-write with a barrier after the let, and writes the file with -o', async () => {
    const path = join(dir, 'rmw.bcu');
    await writeFile(path, 'kernel rmw() {\n  shared A;\n  let v = A[tid + 1] in A[tid] := v\n}\n');
    const out = join(dir, 'rmw-fixed.bcu');
    const r = await cliResult(['fix', '--timeout', TIMEOUT, path, '-o', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`-  let v = A[tid + 1] in A[tid] := v\n+  let v = A[tid + 1] in sync; A[tid] := v\n`);
    expect(r.stdout).toContain('rmw: repaired — 1 data race fixed;');
    expect(r.stdout).toContain('  inserted: 1 barrier, at 3:25 of the repaired file\n  fewest: 1 barrier, the fewest: the kernel races without one\n');
    expect(r.stdout).toContain(`wrote ${out}`);
    expect(await verified(out)).toEqual(['drf']);
  });

  it('repairs two races that no one barrier orders with two, and says one is not enough', async () => {
    const out = join(dir, 'two-phases.bcu');
    const r = await cliResult(['fix', '--timeout', TIMEOUT, 'examples/fix/two-phases.bcu', '-o', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('  inserted: 2 barriers, at 13:3 and 16:3 of the repaired file\n');
    expect(r.stdout).toContain('  fewest: 2 barriers, the fewest: each of the sets of fewer barriers at the 2 candidate places that could order the races leaves one of them unordered\n');
    expect(await verified(out)).toEqual(['drf']);
  });

  it('removes redundant barriers one at a time, unless asked to keep them', async () => {
    const out = join(dir, 'own.bcu');
    const r = await cliResult(['fix', '--timeout', TIMEOUT, 'examples/barriers/own-element.bcu', '-o', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('✓ scale_own: already DRF — redundant barriers removed; the kernel without them is proved DRF and free of barrier divergence for all parameters and launches\n');
    expect(r.stdout).toContain('  removed: 2 redundant barriers at 15:3 and 18:5 (each removal proved DRF in turn)\n');
    const fixed = await readFile(out, 'utf8');
    expect(fixed.match(/\bsync\b/g)).toBeNull();
    expect(await verified(out)).toEqual(['drf']);
    const kept = await cliResult(['fix', '--timeout', TIMEOUT, '--keep-barriers', 'examples/barriers/own-element.bcu']);
    expect(kept.exitCode).toBe(0);
    expect(kept.stdout).toBe('✓ scale_own: already DRF — proved for all parameters and launches; nothing to repair\n');
  });

  it('leaves a DRF kernel whose barrier is needed alone', async () => {
    const r = await cliResult(['fix', '--timeout', TIMEOUT, 'examples/barriers/wrap-needed.bcu']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/^✓ \w+: already DRF — proved for all parameters and launches; nothing to repair, and no barrier is redundant\n$/);
  });

  it('explains that no barrier separates a statement from itself, exit 1', async () => {
    const path = join(dir, 'same.bcu');
    await writeFile(path, 'kernel same() {\n  shared A;\n  A[0] := tid\n}\n');
    const r = await cliResult(['fix', '--timeout', TIMEOUT, path]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toBe('✗ same: not repaired (racy) — two threads run the same write at 3:3 on the same element: no barrier separates a statement from itself; the index must differ between threads\n');
  });

  it('explains that a race between blocks needs more than a barrier', async () => {
    const path = join(dir, 'blocks.bcu');
    await writeFile(path, 'kernel blocks() {\n  global G;\n  G[tid] := blockIdx.x\n}\n');
    const r = await cliResult(['fix', '--timeout', TIMEOUT, path]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain('not repaired (racy) — a race between threads of different blocks: a barrier orders only the threads of one block');
  });

  it('explains a barrier in a loop whose trip count depends on the thread, and a value a split would put out of scope', async () => {
    const loop = await cliResult(['fix', '--timeout', TIMEOUT, 'examples/divergence/sync-in-tid-loop.bcu']);
    expect(loop.exitCode).toBe(1);
    expect(loop.stdout).toContain(
      'not repaired (divergent) — the barrier at 17:5 diverges and cannot be hoisted: it is in the loop at 13:3, whose bounds depend on the thread, so threads run different numbers of iterations (and a barrier cannot be moved out of a loop)',
    );
    const path = join(dir, 'scope.bcu');
    await writeFile(path, 'kernel scope() {\n  shared A;\n  if (tid > 0) {\n    let v = A[tid - 1] in\n    A[tid] := v\n  }\n}\n');
    const scope = await cliResult(['fix', '--timeout', TIMEOUT, path]);
    expect(scope.exitCode).toBe(1);
    expect(scope.stdout).toBe(
      "✗ scope: not repaired (racy) — no barrier can order the read-write race on A between the read at 4:13 and the write at 5:5: at the one place that could, hoisting the barrier out of the thread-dependent branch at 3:3 there leaves a name out of scope (unknown variable 'v')\n",
    );
  });

  it('reports bad input as verify does, exit 2', async () => {
    const path = join(dir, 'syntax.bcu');
    await writeFile(path, 'kernel broken() {\n  shared A\n  A[0] := 1\n}\n');
    const r = await cliResult(['fix', '--timeout', TIMEOUT, path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('error[E0001]: syntax error');
  });
});
