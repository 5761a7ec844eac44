/** The CLI on CUDA files: lower, -D/-I, the GPUVerify test header and flags, directories, workers. */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult, decoded } from './helpers.js';

let dir = '';
const at = (name: string): string => join(dir, name);

const FILES: Record<string, string> = {
  'copy.cu': `#include "sizes.cuh"
__global__ void copy(int *out, const int *in) {
  __shared__ int buf[SIZE];
  buf[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[SIZE - 1 - threadIdx.x];
}
`,
  'inc/sizes.cuh': `#ifndef SIZE
#define SIZE 32
#endif
`,
  'mixed.cu': `__global__ void fine(int *A) { A[threadIdx.x] = 0; }
__global__ void jumps(int *A) {
  goto done;
done:
  A[0] = 1;
}
`,
  'header.cu': `//pass
//--blockDim=[8,8] --gridDim=4 -DSTEP=3
__global__ void strided(int *A) { A[threadIdx.x * STEP] = 0; }
`,
  // DRF at the header's 16 threads only: two threads of 64 share A[t % 32]
  'wrap.cu': `//pass
//--blockDim=[16] --gridDim=1
__global__ void wrap(int *A) { A[threadIdx.x % 32] = threadIdx.x; }
`,
  'helper.cu': `#include "helper.cuh"
__global__ void k(int *A) { put(A); }
`,
  'helper.cuh': `__device__ void put(int *A) {
  goto out; out: A[0] = 1;
}
`,
  'plain.bcu': `kernel plain() {
  shared A;
  A[tid] := 1
}
`,
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-cuda-'));
  await mkdir(join(dir, 'inc'));
  for (const [name, text] of Object.entries(FILES)) await writeFile(at(name), text);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('faial-ts lower', () => {
  it('prints the core program with each statement\'s line in the .cu file, macros and includes expanded', async () => {
    const r = await cliResult(['lower', at('copy.cu'), '-I', at('inc')]);
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const lines = r.stdout.split('\n').map((l) => l.replace(/\s+\/\/ .*\/(copy\.cu:\d+)$/, '  // $1').trimEnd());
    expect(lines).toEqual([
      'kernel copy()  // copy.cu:2',
      '  requires blockDim.x <= 1024  // copy.cu:2',
      '{',
      '  global out;  // copy.cu:2',
      '  global in;  // copy.cu:2',
      '  shared buf[32];  // copy.cu:3',
      '  let in_v = in[(u32) threadIdx.x] in  // copy.cu:4',
      '  buf[(u32) threadIdx.x] := in_v;  // copy.cu:4',
      '  sync;  // copy.cu:5',
      '  let buf_v = buf[31 - (u32) threadIdx.x] in  // copy.cu:6',
      '  out[(u32) threadIdx.x] := buf_v  // copy.cu:6',
      '}',
      '',
    ]);
  });

  it('takes -D before the file\'s own #define', async () => {
    const r = await cliResult(['lower', at('copy.cu'), '-I', at('inc'), '-DSIZE=64']);
    expect(r.stdout).toContain('shared buf[64];');
  });

  it('says an include it cannot find is an error at the #include', async () => {
    const r = await cliResult(['lower', at('copy.cu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error\[E0510\]/);
    expect(r.stderr).toContain('copy.cu:1:');
  });

  it('lowers the other kernels of a file and names the construct of a rejected one, with exit code 2', async () => {
    const r = await cliResult(['lower', at('mixed.cu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toContain('kernel fine()');
    expect(r.stdout).not.toContain('kernel jumps');
    expect(r.stderr).toContain('kernel jumps is not analysed:\nerror[E0602]: unsupported: goto');
    expect(r.stderr).toContain('mixed.cu:3:3');
  });

  it('points into the header where the rejected construct is', async () => {
    const r = await cliResult(['lower', at('helper.cu')]);
    expect(r.stderr).toContain(`--> ${at('helper.cuh')}:2:3`);
  });

  it("refuses to run a launch beyond CUDA's limits, which every CUDA kernel requires", async () => {
    const r = await cliResult(['run', at('mixed.cu'), '--kernel', 'fine', '--block-dim', '2048']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('mixed.cu:1:17: error: launch violates requires at 1:17');
  });

  it('runs with the launch of a GPUVerify test header where the command line gives none, and says so', async () => {
    const r = await cliResult(['run', at('wrap.cu')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('kernel wrap(), grid 1, block 16, independent threads');
    expect(r.stderr).toBe(`${at('wrap.cu')}:2:1: note: the launch (blockDim = 16, gridDim = 1) comes from the GPUVerify test header of this file\n`);
    const wider = await cliResult(['run', at('wrap.cu'), '--block-dim', '64']);
    expect(wider.exitCode).toBe(1);
    expect(wider.stdout).toContain('data race on A[0]');
    expect(wider.stderr).toBe(`${at('wrap.cu')}:2:1: note: the launch (gridDim = 1) comes from the GPUVerify test header of this file\n`);
    // all of it from the command line: only the header's macros (none here) would be left to say
    expect((await cliResult(['run', at('wrap.cu'), '--block-dim', '64', '--grid-dim', '2'])).stderr).toBe('');
  });

  it('runs with a float parameter given as a float (rounded once to its type) or as its bit pattern, and says what a bad value should be', async () => {
    // a directory of its own: the directory tests list every file of the shared one
    const own = await mkdtemp(join(tmpdir(), 'faial-float-'));
    const file = join(own, 'scale.cu');
    await writeFile(file, '__global__ void scale(float *A, float a, double d) { A[threadIdx.x] = a; }\n');
    const at = (name: string): string => join(own, name);
    const r = await cliResult(['run', at('scale.cu'), '-p', 'a=1.5', '-p', 'd=-0.1', '--block-dim', '2']);
    expect(r.exitCode).toBe(0);
    // 1.5f is 0x3fc00000; -0.1 (double) is 0xbfb999999999999a
    expect(r.stdout).toContain(`kernel scale(a=${0x3fc00000}, d=${0xbfb999999999999an})`);
    expect(r.stdout).toContain(`write A[1] := ${0x3fc00000}`);
    const rounded = await cliResult(['run', at('scale.cu'), '-p', 'a=0.1', '-p', 'd=0x3ff8000000000000', '--block-dim', '1']);
    expect(rounded.stdout).toContain(`kernel scale(a=${0x3dcccccd}, d=${0x3ff8000000000000n})`);
    const bad = await cliResult(['run', at('scale.cu'), '-p', 'a=1.5x', '-p', 'd=1']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toBe("error: -p a=1.5x: expected a float value for the float parameter 'a'\nhint: a float parameter takes a decimal value (1.5, -2e-3, inf) or its 32-bit pattern in hexadecimal (0x3fc00000 is 1.5)\n");
    const wide = await cliResult(['run', at('scale.cu'), '-p', 'a=0x100000000', '-p', 'd=1']);
    expect(wide.stderr).toContain("error: -p a=0x100000000: a float's bit pattern has 32 bits");
    expect((await cliResult(['run', at('scale.cu'), '-p', 'a=1e39', '-p', 'd=1'])).stderr).toContain('error: -p a=1e39: beyond the range of float');
    await rm(own, { recursive: true, force: true });
  });

  it('converts an integer shown below 2^24 (2^53) in magnitude to float (double) exactly, as its IEEE bit pattern', async () => {
    const own = await mkdtemp(join(tmpdir(), 'faial-conv-'));
    const file = join(own, 'conv.cu');
    await writeFile(file, '__global__ void conv(float *A, double *D) {\n  A[threadIdx.x] = (float)(((int)threadIdx.x - 3) * 16003);\n  D[threadIdx.x] = (double)((int)threadIdx.x - 3);\n}\n');
    const r = await cliResult(['run', file, '--block-dim', '8']);
    const view = new DataView(new ArrayBuffer(8));
    for (let t = 0; t < 8; t++) {
      view.setFloat32(0, (t - 3) * 16003);
      expect(r.stdout).toContain(`write A[${t}] := ${view.getUint32(0)} `);
      view.setFloat64(0, t - 3);
      expect(r.stdout).toContain(`write D[${t}] := ${view.getBigUint64(0)} `);
    }
    await rm(own, { recursive: true, force: true });
  });

  it('reads the macros of a GPUVerify test header', async () => {
    const r = await cliResult(['lower', at('header.cu')]);
    expect(r.stdout).toContain('A[(u32) threadIdx.x * 3] := 0');
  });
});

describe('faial-ts verify on .cu', () => {
  it('verifies every .bcu and .cu file below a directory, a rejected kernel in error next to the others', async () => {
    const r = await cliResult(['verify', dir, '-I', at('inc'), '--json']);
    const report = decoded(r.stdout);
    const kernels = report.kernels.map((k) => `${k.file.slice(dir.length + 1)} ${k.kernel}`);
    expect(kernels).toEqual(['copy.cu copy', 'header.cu strided', 'helper.cu k', 'mixed.cu fine', 'mixed.cu jumps', 'plain.bcu plain', 'wrap.cu wrap']);
    const jumps = report.kernels.find((k) => k.kernel === 'jumps')!;
    expect(jumps.status).toBe('error');
    expect(jumps.errors[0]).toMatchObject({ code: 'E0602', message: 'unsupported: goto', line: 3, column: 3 });
    expect(report.kernels.find((k) => k.kernel === 'plain')!.status).toBe('drf');
    expect(r.exitCode).toBe(2);
  });

  it('says when the launch comes from the GPUVerify test header, in text and JSON', async () => {
    const text = await cliResult(['verify', at('header.cu')]);
    expect(text.stdout).toContain('note[N0605]: the launch (blockDim = (8,8,1), gridDim = 4) comes from the GPUVerify test header of this file');
    const json = decoded((await cliResult(['verify', at('header.cu'), '--json'])).stdout);
    expect(json.notices?.map((n) => [n.code, n.line])).toEqual([['N0605', 2]]);
    // a block size from the command line: the note names the grid (from the header) only
    expect((await cliResult(['verify', at('header.cu'), '--block-dim', '4'])).stdout).toContain('note[N0605]: the launch (gridDim = 4) comes from the GPUVerify test header of this file');
  });

  it('prints with smt the queries verify solves: under the launch of the test header, said in the same note', async () => {
    const race = /; query wrap\/phase0\/A\/\S+\n; decided sat by evaluation/;
    expect((await cliResult(['verify', at('wrap.cu')])).exitCode).toBe(0);
    const printed = await cliResult(['smt', at('wrap.cu')]);
    expect(printed.stderr).toContain('note[N0605]: the launch (blockDim = 16, gridDim = 1) comes from the GPUVerify test header of this file');
    expect(printed.stdout).toContain('; query wrap/phase0/A/');
    expect(printed.stdout).not.toMatch(race);
    const out = await mkdtemp(join(tmpdir(), 'faial-smt-header-'));
    try {
      const listed = await cliResult(['smt', at('wrap.cu'), '--out', out]);
      const phase = listed.stdout.split('\n').find((f) => f.includes('phase0'))!;
      expect(await readFile(phase, 'utf8')).not.toContain('decided sat');
    } finally {
      await rm(out, { recursive: true, force: true });
    }
    // the command line's launch still comes first, and the note names only what the header gave
    const wider = await cliResult(['smt', at('wrap.cu'), '--block-dim', '64']);
    expect(wider.stdout).toMatch(race);
    expect(wider.stderr).toContain('note[N0605]: the launch (gridDim = 1) comes from the GPUVerify test header of this file');
    expect((await cliResult(['verify', at('wrap.cu'), '--block-dim', '64'])).exitCode).toBe(1);
  });

  it('accepts GPUVerify\'s --blockDim= and --gridDim= spellings', async () => {
    const r = await cliResult(['verify', at('plain.bcu'), '--blockDim=[4]', '--gridDim=2']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('at blockDim = 4, gridDim = 2');
  });

  it('keeps positions in headers when files are verified in worker processes', async () => {
    const r = await cliResult(['verify', at('helper.cu'), at('mixed.cu'), '--jobs', '2']);
    expect(r.stdout).toContain(`--> ${at('helper.cuh')}:2:3`);
    expect(r.stdout).toContain(`--> ${at('mixed.cu')}:3:3`);
  });

  it('refuses to fix a CUDA file', async () => {
    const r = await cliResult(['fix', at('mixed.cu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('fix rewrites BabyCUDA (.bcu) files');
  });

  it('infers the memory access protocol of a .cu kernel', async () => {
    const r = await cliResult(['infer', at('copy.cu'), '-I', at('inc')]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('kernel copy');
  });
});
