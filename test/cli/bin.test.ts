/** The installed entry point: bin/faial-ts.js on the bundled dist/bundle/, in a child process. */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { cliResult } from '../../src/cli/main.js';

const run = promisify(execFile);

async function mtime(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

beforeAll(async () => {
  const built = await mtime('dist/bundle/main.js');
  const sources = await Promise.all(['src/cli/main.ts', 'src/report/text.ts', 'src/diagnostics/render.ts', 'scripts/bundle.js'].map(mtime));
  if (built === null || sources.some((s) => s !== null && s > built)) {
    // tsc still emits when another module has a type error, and esbuild bundles it; the test then shows what breaks
    await run('npx', ['tsc', '-p', 'tsconfig.build.json']).catch(() => undefined);
    await run('node', ['scripts/bundle.js']);
  }
}, 180_000);

async function bin(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', ['bin/faial-ts.js', ...args], { env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const failed = e as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('bin/faial-ts.js', () => {
  it('verifies the paper figures: exit 1 for the race, no colour into a pipe', async () => {
    const r = await bin(['verify', 'examples/paper/figure3.bcu', 'examples/paper/figure4.bcu']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ data race on A[0] (read-write, confirmed)');
    expect(r.stdout).toMatch(/✓ fig4 \(examples\/paper\/figure4\.bcu\): DRF — proved for all parameters and launches/);
    expect(r.stdout).toContain('2 kernels: 1 DRF, 1 racy');
    expect(r.stdout).not.toMatch(/\u001b\[/);
  });

  it('exits 0 for a DRF kernel and 2 for a missing file', async () => {
    expect((await bin(['verify', 'examples/paper/figure4.bcu'])).code).toBe(0);
    const missing = await bin(['verify', 'examples/paper/nope.bcu']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("error: cannot read 'examples/paper/nope.bcu': no such file or directory\n");
  });

  it('ends with an internal error and exit code 2, not 0, when a run never settles and nothing is left to wait for', async () => {
    // what a Z3 thread that dies without a word leaves behind: a promise nobody will settle
    const script = "import { main } from './dist/bundle/main.js'; main(['verify', 'x.bcu'], () => new Promise(() => {}));";
    const r = await run('node', ['--input-type=module', '-e', script]).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('internal error: the solver stopped answering: a check ended without a result\n');
  });

  it('keeps its exit code and says nothing when the reader of its output goes away (`verify … | head`)', async () => {
    const child = spawn('node', ['bin/faial-ts.js', 'verify', 'examples/paper/figure3.bcu'], { stdio: ['ignore', 'pipe', 'pipe'] });
    // the read end closes before the report is written: every write of it meets a closed pipe
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(1);
  });

  it('says so, with exit code 2, when the report cannot be written (stdout on a full disk: /dev/full), not that the solver crashed', async () => {
    const out = await open('/dev/full', 'w');
    try {
      const child = spawn('node', ['bin/faial-ts.js', 'verify', 'examples/paper/figure3.bcu'], { stdio: ['ignore', out.fd, 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => void (stderr += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(stderr).toBe('error: could not write the report to stdout: ENOSPC: no space left on device, write\n');
      expect(code).toBe(2);
    } finally {
      await out.close();
    }
  });

  it('prints the package version for --version and -V, as the command line does in-process', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    expect(pkg.version).toMatch(/^\d+\.\d+\.\d+$/);
    for (const flag of ['--version', '-V']) expect(await bin([flag])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    // the answer before the command line is loaded and commander's own agree
    expect((await cliResult(['--version'])).stdout).toBe(`${pkg.version}\n`);
  });

  it('loads Z3 only for a query the simplifier and the search by evaluation leave, and neither Z3 nor the command line for --version', async () => {
    // a module hook in the child that says on stderr whenever something asks for z3-solver
    const dir = await mkdtemp(join(tmpdir(), 'faial-z3-hook-'));
    try {
      await writeFile(join(dir, 'hooks.mjs'), "export async function resolve(s, c, next) { if (s === 'z3-solver' || s.endsWith('/main.js')) process.stderr.write(`${s} requested\\n`); return next(s, c); }\n");
      await writeFile(join(dir, 'register.mjs'), "import { register } from 'node:module'; register('./hooks.mjs', import.meta.url);\n");
      const env = { NODE_OPTIONS: `--import ${join(dir, 'register.mjs')}` };
      const decidedWithoutSolver = await bin(['verify', '--json', 'examples/paper/figure3.bcu'], env);
      const stats = (JSON.parse(decidedWithoutSolver.stdout) as { kernels: { stats: { queries: number; withoutSolver: number } }[] }).kernels[0]!.stats;
      expect(stats.withoutSolver).toBe(stats.queries);
      expect(decidedWithoutSolver.stderr).not.toContain('z3-solver requested');
      // nor the command line itself: --version alone is answered before it is loaded
      expect((await bin(['--version'], env)).stderr).toBe('');
      expect((await bin(['--help'], env)).stderr).toBe('../dist/bundle/main.js requested\n');
      // morton's tile index leaves one query to the solver
      const needsSolver = await bin(['verify', '--json', 'examples/bitwise/morton.bcu'], env);
      const left = (JSON.parse(needsSolver.stdout) as { kernels: { stats: { queries: number; withoutSolver: number } }[] }).kernels[0]!.stats;
      expect(left.withoutSolver).toBeLessThan(left.queries);
      expect(needsSolver.stderr).toContain('z3-solver requested');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
