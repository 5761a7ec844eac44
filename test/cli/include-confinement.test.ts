/**
 * Includes of .cu files are confined to the include roots (the input's
 * project and the -I directories, after '..' and symbolic links): a report
 * run on untrusted code never quotes a file outside them. Only regular files
 * up to MAX_INCLUDE_BYTES are read. --include-anywhere lifts the roots. The
 * language server's open buffers are read under the same rules.
 */
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confinedReader, MAX_INCLUDE_BYTES } from '../../src/cli/includes.js';
import { cliResult } from './helpers.js';

let dir = '';
const at = (name: string): string => join(dir, name);
const MARKER = 'SECRET_MARKER_8d1f';
const KERNEL = '__global__ void k(int *A) { A[threadIdx.x * N] = 0; }\n';

const FILES: Record<string, string> = {
  // outside the project: defines N, and a line no report may quote
  'secret.h': `#define N 5\nint ${MARKER};\n`,
  'proj/common.h': '#define N 2\n',
  'proj/sub/up.cu': `#include "../../secret.h"\n${KERNEL}`,
  'proj/sub/link.cu': `#include "../link.h"\n${KERNEL}`,
  'proj/sub/common.cu': `#include "../common.h"\n${KERNEL}`,
  'proj/sub/absolute.cu': `#include "${'SECRET_PATH'}"\n${KERNEL}`,
  'proj/sub/probe.cu': `#if __has_include("../../secret.h")\n#define N 5\n#else\n#define N 3\n#endif\n${KERNEL}`,
  'proj/sub/angled.cu': `#include <../../secret.h>\n${KERNEL}`,
  'odd/device.cu': `#include "/dev/zero"\n${KERNEL}`,
  'odd/directory.cu': `#include "inc"\n${KERNEL}`,
  'odd/large.cu': `#include "large.h"\n${KERNEL}`,
  'odd/inc/keep': '',
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-includes-'));
  for (const [name, text] of Object.entries(FILES)) {
    await mkdir(join(dir, name, '..'), { recursive: true });
    await writeFile(at(name), text.replace('SECRET_PATH', at('secret.h')));
  }
  await symlink(at('secret.h'), at('proj/link.h'));
  await writeFile(at('odd/large.h'), `#define N 1\n${' '.repeat(MAX_INCLUDE_BYTES)}\n`);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('include confinement', () => {
  for (const [file, name] of [
    ['proj/sub/up.cu', '../../secret.h'],
    ['proj/sub/link.cu', '../link.h'],
    ['proj/sub/absolute.cu', 'SECRET_PATH'],
  ] as const) {
    it(`refuses ${name} (outside the roots), naming it, in every report format without quoting it`, async () => {
      for (const format of [[], ['--json'], ['--sarif']]) {
        const r = await cliResult(['verify', at(file), ...format]);
        expect(r.exitCode).toBe(2);
        const out = r.stdout + r.stderr;
        expect(out).toContain('E0518');
        expect(out).toContain(name === 'SECRET_PATH' ? 'secret.h' : name);
        expect(out).not.toContain(MARKER);
      }
    });
  }

  it('refuses an include through a symbolic link out of the project even when verifying the project directory', async () => {
    const r = await cliResult(['verify', at('proj'), '--json']);
    expect(r.stdout).not.toContain(MARKER);
    const kernels = (JSON.parse(r.stdout) as { kernels: { file: string; status: string }[] }).kernels;
    expect(kernels.filter((k) => k.status !== 'error').map((k) => k.file)).toEqual([at('proj/sub/common.cu'), at('proj/sub/probe.cu')]);
  });

  it('lets a file below a directory given on the command line include from anywhere in that directory, and only then', async () => {
    expect((await cliResult(['verify', at('proj/sub/common.cu')])).stdout).toContain('E0518');
    const r = await cliResult(['lower', at('proj/sub/common.cu'), '-I', at('proj')]);
    expect(r.stdout).toContain('(u32) threadIdx.x * 2');
  });

  it('__has_include says no for a file outside the roots', async () => {
    const r = await cliResult(['lower', at('proj/sub/probe.cu')]);
    expect(r.stdout).toContain('(u32) threadIdx.x * 3');
    const anywhere = await cliResult(['lower', at('proj/sub/probe.cu'), '--include-anywhere']);
    expect(anywhere.stdout).toContain('(u32) threadIdx.x * 5');
  });

  it('<…> cannot climb out of an -I directory', async () => {
    const r = await cliResult(['lower', at('proj/sub/angled.cu'), '-I', at('proj/sub')]);
    expect(r.stderr).toContain("error[E0518]: '../../secret.h' is outside the include roots");
  });

  it('--include-anywhere reads outside the roots, for a trusted local run', async () => {
    const r = await cliResult(['lower', at('proj/sub/up.cu'), '--include-anywhere']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('(u32) threadIdx.x * 5');
  });
});

describe('what an include may read', () => {
  it('a device is not a regular file: refused at once, not read for ever', async () => {
    const r = await cliResult(['lower', at('odd/device.cu'), '--include-anywhere']);
    expect(r.stderr).toContain("error[E0516]: cannot read '/dev/zero': /dev/zero is not a regular file");
  });

  it('a directory says it is a directory', async () => {
    const r = await cliResult(['lower', at('odd/directory.cu')]);
    expect(r.stderr).toContain(`error[E0516]: cannot read 'inc': ${at('odd/inc')} is a directory`);
  });

  it('a file larger than the limit is refused', async () => {
    const r = await cliResult(['lower', at('odd/large.cu')]);
    expect(r.stderr).toContain(`error[E0516]: cannot read 'large.h': ${at('odd/large.h')} is larger than 4 MiB`);
  });
});

describe("the editor's open buffers (the language server)", () => {
  it('are read instead of the disk inside the roots, and refused outside them as their files would be', async () => {
    await symlink(dir, at('proj/up-link'));
    const roots = [at('proj')];
    const read = confinedReader(roots, new Map([
      [at('proj/common.h'), '#define N 7\n'],
      [at('proj/unsaved.h'), '#define N 8\n'],
      [at('secret.h'), `#define N 9\n`],
      [at('unsaved-outside.h'), '#define N 10\n'],
      [at('proj/up-link/unsaved-through-link.h'), '#define N 11\n'],
      [at('proj/huge.h'), ' '.repeat(MAX_INCLUDE_BYTES + 1)],
    ]));
    // the editor's text over the disk's, and a file only the editor holds
    expect(read(at('proj/common.h'))).toBe('#define N 7\n');
    expect(read(at('proj/unsaved.h'))).toBe('#define N 8\n');
    expect(read(at('proj/sub/../unsaved.h'))).toBe('#define N 8\n');
    // outside the roots, on disk or not, and below a link that leads out of them
    expect(read(at('secret.h'))).toEqual({ refused: 'outsideRoots' });
    expect(read(at('unsaved-outside.h'))).toEqual({ refused: 'outsideRoots' });
    expect(read(at('proj/up-link/unsaved-through-link.h'))).toEqual({ refused: 'outsideRoots' });
    expect(read(at('proj/huge.h'))).toEqual({ refused: 'tooLarge', limitBytes: MAX_INCLUDE_BYTES });
    // a file the editor does not hold is read from the disk as before
    expect(read(at('proj/sub/common.cu'))).toContain('#include "../common.h"');
    expect(read(at('proj/missing.h'))).toBeNull();
  });
});
