/** The CLI on what makes a .cu file's kernels: their names, every kernel accounted for, failures kept to their file and kernel, and the CLI's own edges. */
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSI, cliResult, decoded } from './helpers.js';

let dir = '';
const at = (name: string): string => join(dir, name);

const FILES: Record<string, string> = {
  'tree/bad-header.cu': `// expect: drf
//--gridDim=1 --blockDim=[32,1,1
__global__ void k(int *a) { a[threadIdx.x] = 1; }
`,
  'tree/good.cu': `__global__ void g(int *a) { a[threadIdx.x] = 1; }
`,
  'defines/bad-define.cu': `//pass
//--blockDim=32 --gridDim=1 -DTILE?16
__global__ void k(int *a) { a[threadIdx.x] = TILE; }
`,
  'defines/good.cu': `__global__ void g(int *a) { a[threadIdx.x] = 1; }
`,
  'ns.cu': `namespace ns { __global__ void k(int *a) { a[threadIdx.x] = 1; } }
namespace other { __global__ void k(int *a) { a[0] = threadIdx.x; } }
`,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-kernels-'));
  await mkdir(at('tree'));
  await mkdir(at('defines'));
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

  it('a -D flag of the header that does not read (found by npm run fuzz:cuda) is that file error too, not a usage error of the run', async () => {
    const r = await cliResult(['verify', at('defines')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('error[E0610]: the GPUVerify test header does not read: -D"TILE?16": expected NAME or NAME=VALUE');
    expect(r.stdout).toContain(`--> ${at('defines/bad-define.cu')}:2:29`);
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

describe('CLI edges', () => {
  it('an empty file, or one with host code only, says "no kernel in this file" (exit 2: nothing of it was verified)', async () => {
    await writeFile(at('empty.cu'), '');
    await writeFile(at('host.cu'), 'int main() { return 0; }\n');
    for (const name of ['empty.cu', 'host.cu']) {
      const r = await cliResult(['verify', at(name)]);
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toContain('error[E0606]: no __global__ kernel in this file');
      expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('no kernel in this file');
    }
    const both = await cliResult(['verify', at('empty.cu'), at('ns.cu')]);
    expect(both.stdout.trimEnd().split('\n').at(-1)).toBe('2 kernels: 1 DRF, 1 racy; no kernel in 1 file');
  });

  it('--kernel with control characters is echoed escaped', async () => {
    const r = await cliResult(['verify', '--kernel', 'a\u001b[31mb\nc', at('ns.cu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("no kernel named 'a\\x1b[31mb\\nc'");
    expect(r.stderr).not.toMatch(ANSI);
    expect(r.stderr.split('\n')[0]).toContain('no kernel named');
  });

  it('a -D value with a line break is a usage error (exit 2) in one line', async () => {
    const r = await cliResult(['verify', '-D', 'N=1\n#define M 2', at('ns.cu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split('\n')[0]).toContain('-D"N=1\\n#define M 2": a macro\'s value cannot contain a line break');
  });

  it('verify --help lists every exit code, 0 to 4', async () => {
    const r = await cliResult(['verify', '--help']);
    const help = (r.stdout + r.stderr).replace(/\s+/g, ' ');
    for (const code of ['0 every kernel DRF', '1 a race or barrier divergence', '2 bad input or usage', '3 no alarm but something not proved', '4 no alarm but some kernel vacuous']) expect(help).toContain(code);
  });
});

describe('fix -o writes only a new or regular file', () => {
  // a device is refused the same way; not tried here: with the check broken, a test run as root would replace /dev/null
  it('refuses a symbolic link (exit 2, the link and its target left as they were), and replaces a regular file', async () => {
    await writeFile(at('target.bcu'), 'unchanged\n');
    await symlink(at('target.bcu'), at('link.bcu'));
    const toLink = await cliResult(['fix', 'examples/fix/two-phases.bcu', '-o', at('link.bcu')]);
    expect(toLink.exitCode).toBe(2);
    expect(toLink.stderr).toContain('it is a symbolic link');
    expect((await lstat(at('link.bcu'))).isSymbolicLink()).toBe(true);
    expect(await readFile(at('target.bcu'), 'utf8')).toBe('unchanged\n');
    const toFile = await cliResult(['fix', 'examples/fix/two-phases.bcu', '-o', at('target.bcu')]);
    expect(toFile.exitCode).toBe(0);
    expect(await readFile(at('target.bcu'), 'utf8')).toContain('kernel');
  }, 600_000);
});
