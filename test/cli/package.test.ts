/**
 * The npm package: `npm pack` ships what the CLI needs and nothing else, and
 * the tarball, installed into an empty folder, verifies a kernel. Installing
 * takes the dependencies from npm's cache (filled by `npm ci`), going to the
 * registry only for what is missing; with neither, the test is skipped and
 * says why.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(new URL('../..', import.meta.url).pathname);
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function ran(command: string, args: string[], cwd: string): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    newest = Math.max(newest, e.isDirectory() ? await newestMtime(p) : (await stat(p)).mtimeMs);
  }
  return newest;
}

let work = '';
let tarball = '';
let packed: string[] = [];

beforeAll(async () => {
  // the tarball takes dist/ as it is: build it when it is missing or older than a source
  const built = await stat(join(root, 'dist/bundle/cli.cjs')).then((s) => s.mtimeMs, () => 0);
  if (built < (await newestMtime(join(root, 'src')))) await run('npm', ['run', 'build'], { cwd: root });
  work = await mkdtemp(join(tmpdir(), 'faial-pack-'));
  // --ignore-scripts: prepack would delete dist/ under the other tests' feet
  const pack = await ran('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
  tarball = join(work, info!.filename);
  packed = info!.files.map((f) => f.path);
}, 300_000);

afterAll(async () => {
  if (work !== '') await rm(work, { recursive: true, force: true });
});

describe('the npm package', () => {
  it('ships the CLI and its bundled code (the grammar inside it), and no sources, tests, proofs, unbundled modules or source maps', () => {
    for (const needed of ['package.json', 'README.md', 'bin/faial-ts.js', 'bin/package.json', 'dist/bundle/load.cjs', 'dist/bundle/version.cjs', 'dist/bundle/cli.cjs', 'dist/bundle/cli.cjs.cache', 'dist/bundle/worker.js', 'dist/bundle/wasm-worker.js']) {
      expect(packed).toContain(needed);
    }
    expect(packed.filter((p) => /^(src|test|proofs|bench|scripts|examples|node_modules|grammar)\//.test(p) || /^dist\/(?!bundle\/)/.test(p) || /\.(map|ts)$/.test(p))).toEqual([]);
  });

  it('installs from its tarball into an empty folder and verifies a kernel there', async (ctx) => {
    const app = join(work, 'app');
    await rm(app, { recursive: true, force: true });
    await mkdir(app, { recursive: true });
    await writeFile(join(app, 'package.json'), '{ "name": "faial-ts-install-check", "private": true }\n');
    const install = await ran('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], app);
    if (install.code !== 0 && /ENOTCACHED|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT/.test(install.stderr)) {
      ctx.skip(`npm could not get the package's dependencies (offline, and not in npm's cache: run npm ci first): ${install.stderr.trim().split('\n').at(-1)}`);
    }
    expect(install.code, install.stderr).toBe(0);
    const bin = join(app, 'node_modules/.bin/faial-ts');
    expect(await ran(bin, ['--version'], app)).toMatchObject({ code: 0, stdout: `${version}\n` });
    const racy = await ran(bin, ['verify', join(root, 'examples/paper/figure3.bcu')], app);
    expect(racy.code, racy.stderr).toBe(1);
    expect(racy.stdout).toContain('✗ data race on A[0] (read-write, confirmed)');
    const drf = await ran(bin, ['verify', join(root, 'examples/paper/figure4.bcu')], app);
    expect(drf.code, drf.stderr).toBe(0);
    expect(drf.stdout).toContain('1 kernel: 1 DRF');
  });
});
