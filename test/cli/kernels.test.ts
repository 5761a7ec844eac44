/** The CLI on what makes a .cu file's kernels: their names, every kernel accounted for, failures kept to their file and kernel, and the CLI's own edges. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult, decoded } from './helpers.js';

let dir = '';
const at = (name: string): string => join(dir, name);

const FILES: Record<string, string> = {
  'tree/bad-header.cu': `// expect: drf
//--gridDim=1 --blockDim=[32,1,1
__global__ void k(int *a) { a[threadIdx.x] = 1; }
`,
  'tree/good.cu': `__global__ void g(int *a) { a[threadIdx.x] = 1; }
`,
  'ns.cu': `namespace ns { __global__ void k(int *a) { a[threadIdx.x] = 1; } }
namespace other { __global__ void k(int *a) { a[0] = threadIdx.x; } }
`,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-kernels-'));
  await mkdir(at('tree'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(at(name), text);
  // a byte that is not UTF-8 in the second kernel's name
  await writeFile(at('utf8.cu'), Buffer.concat([Buffer.from('__global__ void k1(int *a) { a[threadIdx.x] = 1; }\n__global__ void k'), Buffer.from([0xff]), Buffer.from('2(int *a) { a[0] = threadIdx.x; }\n')]));
});

afterAll(async () => {
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('kernel names', () => {
  it('two kernels k in two namespaces are ns::k and other::k, and --kernel takes the qualified name', async () => {
    const all = await cliResult(['verify', '--json', at('ns.cu')]);
    const report = decoded(all.stdout);
    expect(report.kernels.map((k) => `${k.kernel} ${k.status}`)).toEqual(['ns::k drf', 'other::k racy']);
    const one = await cliResult(['verify', '--kernel', 'ns::k', at('ns.cu')]);
    expect(one.exitCode).toBe(0);
    expect(one.stdout).toContain('1 kernel: 1 DRF');
  });
});

describe('no kernel vanishes', () => {
  it('a file with an invalid UTF-8 byte in its second kernel: 2 kernels, 1 DRF and 1 error at the byte (its column counts it as one character)', async () => {
    const r = await cliResult(['verify', '--json', at('utf8.cu')]);
    expect(r.exitCode).toBe(2);
    const report = decoded(r.stdout);
    expect(report.summary).toMatchObject({ kernels: 2, drf: 1, error: 1 });
    const bad = report.kernels[1]!;
    expect(bad.kernel).toBe('k\uFFFD2');
    expect(bad.errors.map((e) => `${e.code} ${e.line}:${e.column}`)).toEqual(['E0601 2:18']);
  });
});

describe('a malformed test header is its file error', () => {
  it('verify DIR goes on past it: the file is in error at line 2, column of the flag, with a code frame; the other file is verified', async () => {
    const r = await cliResult(['verify', at('tree')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('error[E0610]: the GPUVerify test header does not read: --blockDim [32,1,1');
    expect(r.stdout).toContain(`--> ${at('tree/bad-header.cu')}:2:15`);
    expect(r.stdout).toContain('> 2 | //--gridDim=1 --blockDim=[32,1,1');
    expect(r.stdout).toContain('✓ g (');
    expect(r.stderr).toBe('');
  });

  it('--json reports it as the file error and the other file kernels', async () => {
    const r = await cliResult(['verify', '--json', at('tree')]);
    const report = decoded(r.stdout);
    expect(report.summary).toMatchObject({ kernels: 2, drf: 1, error: 1 });
    expect(r.stdout).toContain('E0610');
  });
});
