/** The installed entry point: bin/faial-ts.js on the bundled dist/bundle/, in a child process. */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { cp, mkdtemp, open, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
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
  const built = await mtime('dist/bundle/cli.cjs');
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
    const script = "import { loadCommandLine } from './dist/bundle/load.js'; loadCommandLine().cli.main(['verify', 'x.bcu'], () => new Promise(() => {}));";
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

  it('runs the bundle from the code cache the build made, and the same without a cache or with one V8 refuses', async () => {
    const loaded = "import { loadCommandLine } from './dist/bundle/load.js'; process.stdout.write(String(loadCommandLine().cacheRejected));";
    expect((await run('node', ['--input-type=module', '-e', loaded])).stdout).toBe('false');
    // the report without its times
    const untimed = (report: string): string => report.replace(/\d+ ms/g, 'T ms');
    const cached = await bin(['verify', 'examples/paper/figure3.bcu']);
    expect(cached.code).toBe(1);
    // a copy of the package whose cache is missing, then not a cache at all
    const dir = await mkdtemp(join(tmpdir(), 'faial-code-cache-'));
    try {
      await cp('bin', join(dir, 'bin'), { recursive: true });
      await cp('dist/bundle', join(dir, 'dist/bundle'), { recursive: true });
      await cp('package.json', join(dir, 'package.json'));
      await symlink(join(process.cwd(), 'node_modules'), join(dir, 'node_modules'));
      const copied = async (): Promise<{ code: number; stdout: string; rejected: string }> => {
        const out = await run('node', [join(dir, 'bin/faial-ts.js'), 'verify', 'examples/paper/figure3.bcu']).then(
          ({ stdout }) => ({ code: 0, stdout: untimed(stdout) }),
          (e: { code: number; stdout: string }) => ({ code: e.code, stdout: untimed(e.stdout) }),
        );
        const check = `import { loadCommandLine } from ${JSON.stringify(join(dir, 'dist/bundle/load.js'))}; process.stdout.write(String(loadCommandLine().cacheRejected));`;
        return { ...out, rejected: (await run('node', ['--input-type=module', '-e', check])).stdout };
      };
      await rm(join(dir, 'dist/bundle/cli.cjs.cache'));
      expect(await copied()).toEqual({ code: 1, stdout: untimed(cached.stdout), rejected: 'undefined' });
      await writeFile(join(dir, 'dist/bundle/cli.cjs.cache'), Buffer.alloc(4096, 7));
      expect(await copied()).toEqual({ code: 1, stdout: untimed(cached.stdout), rejected: 'true' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it('loads Z3 only for a query the simplifier and the search by evaluation leave, and neither Z3 nor the command line for --version', async () => {
    // a module hook in the child that says on stderr whenever something asks for z3-solver
    const dir = await mkdtemp(join(tmpdir(), 'faial-z3-hook-'));
    try {
      // bin/faial-ts.js and the bundle are CommonJS: they ask for the command line's loader and for Z3 through require
      await writeFile(join(dir, 'register.mjs'), "import Module from 'node:module'; const load = Module._load; Module._load = function (s, ...rest) { if (s === 'z3-solver' || s.endsWith('/load.cjs')) process.stderr.write(`${s} requested\\n`); return load.call(this, s, ...rest); };\n");
      const env = { NODE_OPTIONS: `--import ${join(dir, 'register.mjs')}` };
      const decidedWithoutSolver = await bin(['verify', '--json', 'examples/paper/figure3.bcu'], env);
      const stats = (JSON.parse(decidedWithoutSolver.stdout) as { kernels: { stats: { queries: number; withoutSolver: number } }[] }).kernels[0]!.stats;
      expect(stats.withoutSolver).toBe(stats.queries);
      expect(decidedWithoutSolver.stderr).not.toContain('z3-solver requested');
      // nor the command line itself: --version alone is answered before it is loaded
      expect((await bin(['--version'], env)).stderr).toBe('');
      expect((await bin(['--help'], env)).stderr).toBe('../dist/bundle/load.cjs requested\n');
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
