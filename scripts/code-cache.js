// The last step of the build (scripts/bundle.js): V8's code cache of the
// command line's bundle, dist/bundle/cli.cjs.cache, which src/cli/load.ts
// hands to V8 at every run. V8 puts in a cache the bytecode of the functions
// compiled so far, so the bundle is first run on small kernels of both
// languages (a race and a proof each, none needing a solver): what most runs
// execute is then in the cache, and the rest is compiled when first run, as
// without one. A fresh process then checks that V8 takes the cache (it
// refuses one made under other V8 flags).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const loader = pathToFileURL(join(root, 'dist', 'bundle', 'load.js')).href;
const { bundlePaths, loadCommandLine } = await import(loader);

const KERNELS = {
  'racy.bcu': 'kernel racy(n) {\n  shared A;\n  for i in 0..n {\n    let v = A[i] in\n    A[i] := v + 1\n  }\n}\n',
  'drf.bcu': 'kernel drf() <<<1, 64>>> {\n  shared s;\n  s[tid] := tid;\n  sync;\n  if (tid < 32) { let v = s[tid + 32] in s[tid] := v } else { skip }\n}\n',
  'racy.cu': '__global__ void shift(float *a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i + 1 < n) a[i] = a[i + 1];\n}\n',
  // with host code that launches it, as most .cu files have: the launch is what the kernel is verified at
  'drf.cu':
    '__global__ void saxpy(int n, float a, const float *x, float *y) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = a * x[i] + y[i];\n}\n' +
    'int main(void) {\n  const int n = 1 << 20;\n  float *x, *y;\n  cudaMalloc(&x, n * sizeof(float));\n  cudaMalloc(&y, n * sizeof(float));\n  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);\n  return 0;\n}\n',
};

const dir = mkdtempSync(join(tmpdir(), 'faial-code-cache-'));
try {
  for (const [name, text] of Object.entries(KERNELS)) writeFileSync(join(dir, name), text);
  const { cli, script } = loadCommandLine(false);
  const quiet = { out() {}, err() {}, colour: false, env: {} };
  const code = await cli.runCli(['verify', ...Object.keys(KERNELS).map((n) => join(dir, n))], quiet);
  if (code !== 1) throw new Error(`code cache: the warm-up run ended with exit code ${code}, not 1 (a race)`);
  writeFileSync(bundlePaths().cache, script.createCachedData());
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const check = `const { loadCommandLine } = await import(${JSON.stringify(loader)}); process.stdout.write(String(loadCommandLine().cacheRejected));`;
const rejected = execFileSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
if (rejected !== 'false') throw new Error(`code cache: V8 did not take the cache it made (cacheRejected: ${rejected})`);
