/** verify and experiment with --compile-commands: each .cu file read with its build's -I, -D, -U and -include. */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from './helpers.js';

const PROJECT = 'examples/cmake-project';
const DB = `${PROJECT}/build/compile_commands.json`;

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-ccdb-'));
  await mkdir(join(dir, 'build'));
  // N comes from a -include file, STEP from -D, and -UWIDE undoes the file's own default
  await writeFile(join(dir, 'pre.h'), '#define N 32\n');
  await writeFile(join(dir, 'k.cu'), `#ifdef WIDE
#define STEP 1
#endif
__global__ void k(int *A) {
  __requires(blockDim.x == N);
  A[threadIdx.x * STEP] = threadIdx.x;
}
`);
  await writeFile(
    join(dir, 'build', 'compile_commands.json'),
    JSON.stringify([{ directory: dir, file: 'k.cu', arguments: ['clang++', '-x', 'cuda', '-include', join(dir, 'pre.h'), '-DSTEP=0', '-UWIDE', '-c', 'k.cu'] }]),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--compile-commands', () => {
  it("verifies every .cu file of the database, each with its entry's flags, when no file is named", async () => {
    const r = await cliResult(['verify', '--compile-commands', DB, '--json']);
    expect(r.exitCode).toBe(1);
    const kernels = JSON.parse(r.stdout).kernels.map((k: { file: string; kernel: string; status: string }) => [k.file, k.kernel, k.status]);
    expect(kernels).toEqual([
      [`${PROJECT}/src/reverse-unsynced.cu`, 'reverse_chunks_unsynced', 'racy'],
      [`${PROJECT}/src/reverse.cu`, 'reverse_chunks', 'drf'],
    ]);
  });

  it('reads a named file with its entry, and without the database the build flags are missing', async () => {
    const withDb = await cliResult(['verify', `${PROJECT}/src/reverse.cu`, '--compile-commands', DB]);
    expect(withDb.exitCode).toBe(0);
    expect(withDb.stdout).toContain('reverse_chunks (examples/cmake-project/src/reverse.cu): DRF');
    const without = await cliResult(['verify', `${PROJECT}/src/reverse.cu`]);
    expect(without.exitCode).toBe(2);
    expect(without.stdout).toContain("'tile.h' not found");
  });

  it('takes -include, -D and -U from the entry; the command line comes after the entry', async () => {
    const lowered = await cliResult(['lower', join(dir, 'k.cu'), '--compile-commands', join(dir, 'build', 'compile_commands.json')]);
    expect(lowered.stderr).toBe('');
    expect(lowered.stdout).toContain('requires (u32) blockDim.x == 32');
    // STEP=0: every thread writes A[0]
    const racy = await cliResult(['verify', join(dir, 'k.cu'), '--compile-commands', join(dir, 'build', 'compile_commands.json')]);
    expect(racy.exitCode).toBe(1);
    const fixed = await cliResult(['verify', join(dir, 'k.cu'), '--compile-commands', join(dir, 'build', 'compile_commands.json'), '-DSTEP=1']);
    expect(fixed.exitCode).toBe(0);
  });

  it('writes the results of the database files with experiment', async () => {
    const out = join(dir, 'exp');
    const r = await cliResult(['experiment', '--compile-commands', DB, '--out', out]);
    expect(r.exitCode).toBe(0);
    const csv = await readFile(join(out, 'results.csv'), 'utf8');
    expect(csv).toMatch(/reverse-unsynced\.cu,reverse_chunks_unsynced,.*racy/);
    expect(csv).toMatch(/reverse\.cu,reverse_chunks,.*drf/i);
  });

  it('is a usage error without files or database, or with a database it cannot read', async () => {
    const none = await cliResult(['verify']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('no input file');
    const missing = await cliResult(['verify', '--compile-commands', join(dir, 'nope.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("cannot read '");
    await writeFile(join(dir, 'bad.json'), '[{"file": "k.cu"}]');
    const bad = await cliResult(['verify', '--compile-commands', join(dir, 'bad.json')]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('entry 1: "directory" and "file" must be strings');
  });
});
