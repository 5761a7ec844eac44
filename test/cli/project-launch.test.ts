/**
 * Issue 28 §7: a kernel launched from another file of the project (a
 * directory given to `verify`, or a compilation database) is verified at
 * that launch, with a note naming the launch site; launches that disagree
 * fix only what they agree on; a file named alone, or --any-launch, is
 * verified at every launch.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from './helpers.js';

// threads t and t + 64 share a tile element: race-free only at blockDim.x <= 64
const KERNELS = `// fill stages its block's slice of a in a 64-element tile
__global__ void fill(int *a) {
  __shared__ int tile[64];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x % 64] = a[i];
  __syncthreads();
  a[i] = tile[(threadIdx.x + 1) % 64];
}
`;

const MAIN = `#define THREADS 64
__global__ void fill(int *a);

int main() {
  int *a = 0;
  fill<<<8, THREADS>>>(a);
  return 0;
}
`;

let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-project-'));
  for (const name of ['one', 'two', 'three', 'db']) await mkdir(join(dir, name));
  await writeFile(join(dir, 'one', 'kernels.cu'), KERNELS);
  await writeFile(join(dir, 'one', 'main.cu'), MAIN);
  await writeFile(join(dir, 'two', 'kernels.cu'), KERNELS);
  await writeFile(join(dir, 'two', 'main.cu'), MAIN);
  await writeFile(join(dir, 'two', 'other.cu'), MAIN.replace('fill<<<8, THREADS>>>', 'fill<<<8, 2 * THREADS>>>'));
  await writeFile(join(dir, 'three', 'kernels.cu'), KERNELS);
  await writeFile(join(dir, 'three', 'own.cu'), MAIN.replace('__global__ void fill(int *a);', '__global__ void fill(int *a) { a[blockIdx.x * blockDim.x + threadIdx.x] = 0; }'));
  await writeFile(join(dir, 'db', 'kernels.cu'), KERNELS);
  await writeFile(join(dir, 'db', 'main.cu'), MAIN.replace('#define THREADS 64\n', ''));
  const entry = (file: string) => ({ directory: join(dir, 'db'), arguments: ['nvcc', '-DTHREADS=64', '-c', file], file });
  await writeFile(join(dir, 'db', 'compile_commands.json'), JSON.stringify([entry('kernels.cu'), entry('main.cu')]));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('launches made in another file of the project', () => {
  it('verifies a kernel at the launch another file of the directory makes, naming the site', async () => {
    const r = await cliResult(['verify', join(dir, 'one'), '--json']);
    const report = JSON.parse(r.stdout);
    expect(report.kernels.map((k: { kernel: string | null; status: string }) => [k.kernel, k.status])).toEqual([['fill', 'drf']]);
    // the host file has no kernel: counted as none, and said in a notice, not as a kernel in error
    expect(report.summary).toMatchObject({ kernels: 1, drf: 1, error: 0 });
    expect(report.notices).toContainEqual(expect.objectContaining({ severity: 'note', message: 'no kernel in this file', file: join(dir, 'one', 'main.cu') }));
    const text = await cliResult(['verify', join(dir, 'one')]);
    expect(text.stdout).toContain(`DRF — proved for all parameters, at the launch gridDim = 8, blockDim = 64 (from ${join(dir, 'one', 'main.cu')}:6):`);
    expect(text.stdout).toContain(`note[N0620]: kernel fill is verified at gridDim = 8, blockDim = 64, from its launch at ${join(dir, 'one', 'main.cu')}:6`);
  });

  it('verifies the kernel at every launch when its file is named alone, or with --any-launch', async () => {
    const alone = await cliResult(['verify', join(dir, 'one', 'kernels.cu')]);
    expect(alone.exitCode).toBe(1);
    expect(alone.stdout).not.toContain('N0620');
    const any = await cliResult(['verify', join(dir, 'one'), '--any-launch']);
    expect(any.stdout).toMatch(/kernels\.cu\): racy/);
  });

  it('fixes only what the launches of the project agree on', async () => {
    const r = await cliResult(['verify', join(dir, 'two')]);
    expect(r.stdout).toMatch(/kernels\.cu\): racy/);
    expect(r.stdout).toMatch(/kernel fill is verified at gridDim = 8, from the 2 launches of the project, which agree on it \(.*main\.cu:6, .*other\.cu:6\) \(blockDim: every value\)/);
  });

  it('does not take the launch a file makes of a kernel of its own', async () => {
    const r = await cliResult(['verify', join(dir, 'three')]);
    expect(r.stdout).toMatch(/kernels\.cu\): racy/);
    expect(r.stdout).toMatch(/own\.cu\): DRF/);
  });

  it('counts a host file of the directory as a note, not an error: a race-free project exits 0', async () => {
    const r = await cliResult(['verify', join(dir, 'one')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(`${join(dir, 'one', 'main.cu')}:1:1: note[E0606]: no kernel in this file`);
    expect(r.stdout).toContain('1 kernel: 1 DRF; no kernel in 1 file');
    const sarif = JSON.parse((await cliResult(['verify', '--sarif', join(dir, 'one')])).stdout) as { runs: { results: { ruleId: string; level: string }[] }[] };
    expect(sarif.runs[0]!.results.filter((x) => x.level === 'error')).toEqual([]);
    // named alone, a file without a kernel is still the input error it was
    const alone = await cliResult(['verify', join(dir, 'one', 'main.cu')]);
    expect(alone.exitCode).toBe(2);
    expect(alone.stdout).toContain('error[E0606]: no __global__ kernel in this file');
  });

  it('gives each kernel of examples/launch-project the verdict its expect line states, at the launches of its main.cu', async () => {
    const project = join('examples', 'launch-project');
    const r = await cliResult(['verify', '--json', project]);
    expect(r.exitCode).toBe(1);
    const report = JSON.parse(r.stdout) as { kernels: { file: string; status: string; races: { confidence: string }[] }[]; notices: { message: string; file: string }[] };
    const expected = readdirSync(project)
      .filter((f) => f.endsWith('.cu') && f !== 'main.cu')
      .map((f) => [join(project, f), /^\/\/ expect: (.*)$/m.exec(readFileSync(join(project, f), 'utf8'))![1]]);
    const verdicts = report.kernels.map((k) => [k.file, k.status === 'racy' ? `racy ${k.races.every((x) => x.confidence === 'confirmed') ? 'confirmed' : 'possible'}` : k.status]);
    expect(verdicts.sort()).toEqual(expected.sort());
    expect(verdicts).toContainEqual([join(project, 'rotate.cu'), 'drf']);
    expect(report.notices).toContainEqual(expect.objectContaining({ message: 'no kernel in this file', file: join(project, 'main.cu') }));
    expect(report.notices.map((n) => n.message)).toContainEqual(expect.stringContaining(`kernel rotate is verified at blockDim = 64, from its launch at ${join(project, 'main.cu')}:6`));
  });

  it('takes the launches of the files a compilation database lists, preprocessed with their own flags', async () => {
    const r = await cliResult(['verify', '--compile-commands', join(dir, 'db', 'compile_commands.json'), join(dir, 'db', 'kernels.cu')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/kernel fill is verified at gridDim = 8, blockDim = 64, from its launch at .*main\.cu:5/);
  });
});
