/**
 * Output paths the commands cannot write: each a usage error (exit 2) found
 * before any work, and never a hang (Node's recursive mkdir loops forever
 * under /proc and through a dangling symbolic link).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { cliResult, kernelDir, removeDir } from './helpers.js';

let dir = '';
beforeAll(async () => {
  dir = await kernelDir();
  await writeFile(join(dir, 'plain-file'), 'not a directory\n');
  await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));
  await mkdir(join(dir, 'outdir'));
});
afterAll(() => removeDir(dir));

const file = (name: string): string => join(dir, name);

/** Places no directory can be made in (paths resolved once the test directory exists); /proc only where there is one (Linux). */
const unmakeable: [string, () => string][] = [
  ['a path below a file', () => join(file('plain-file'), 'out')],
  ['a path through a dangling symbolic link', () => join(file('dangling'), 'out')],
  ...(existsSync('/proc/self') ? ([['a path under /proc', () => '/proc/faial-ts-no-such-dir/out']] as [string, () => string][]) : []),
];

describe('fix -o', () => {
  it('refuses a missing directory before reading the kernel', async () => {
    // the input has a syntax error: the output is checked first, so that is not what is reported
    const r = await cliResult(['fix', file('syntax.bcu'), '-o', file('missing/dir/out.bcu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: -o ${file('missing/dir/out.bcu')}: there is no directory '${file('missing/dir')}'\nhint: create it first\n`);
    expect(r.stdout).toBe('');
  });

  it('refuses a directory', async () => {
    const r = await cliResult(['fix', file('racy.bcu'), '-o', file('outdir')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: -o ${file('outdir')}: is a directory\nhint: give the path of a file\n`);
  });

  it('refuses a file whose parent is a file', async () => {
    const r = await cliResult(['fix', file('racy.bcu'), '-o', join(file('plain-file'), 'out.bcu')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`'${file('plain-file')}' is not a directory`);
  });

  it('writes the repaired file whole, leaving no temporary file', async () => {
    const r = await cliResult(['fix', '--timeout', '20000', file('racy.bcu'), '-o', file('outdir/fixed.bcu')]);
    expect(r.exitCode).toBe(0);
    expect(await readFile(file('outdir/fixed.bcu'), 'utf8')).toContain('sync');
    expect(await readdir(file('outdir'))).toEqual(['fixed.bcu']);
  });
});

describe('experiment --out and smt --out', () => {
  for (const [what, outOf] of unmakeable) {
    it(`experiment: refuses ${what} at once`, async () => {
      const out = outOf();
      const r = await cliResult(['experiment', file('drf.bcu'), '--out', out]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^error: --out ${out.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: cannot create the directory: `));
      expect(r.stdout).toBe('');
    });

    it(`smt: refuses ${what} before encoding`, async () => {
      const out = outOf();
      const r = await cliResult(['smt', file('syntax.bcu'), '--out', out]);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain(`error: --out ${out}: cannot create the directory: `);
    });
  }

  it('experiment: refuses a file as the directory', async () => {
    const r = await cliResult(['experiment', file('drf.bcu'), '--out', file('plain-file')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: --out ${file('plain-file')}: cannot create the directory: '${file('plain-file')}' is not a directory\n`);
  });

  it('experiment: makes missing directories, and leaves only its results there', async () => {
    const out = file('new/deeper/results');
    const r = await cliResult(['experiment', file('drf.bcu'), '--out', out]);
    expect(r.exitCode).toBe(0);
    expect((await readdir(out)).sort()).toEqual(['report.html', 'results.csv', 'results.json', 'summary.md']);
  });
});
