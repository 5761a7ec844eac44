// Bundles the command line into dist/bundle/: Node resolves and opens each
// ES module of dist/ one by one, and for `verify` on a small kernel that
// loading cost more than the verification.
//
// The command line is one CommonJS file, cli.cjs, which bin/faial-ts.js runs
// through src/cli/load.ts with V8's code cache (made last, by
// scripts/code-cache.js): Node 20 takes a code cache only for a classic
// script. Its dynamic imports (the JSON and SARIF reports, `gen`, the
// language server, web-tree-sitter) become lazily run parts of the file, and
// those of the packages it keeps external become `require`s (a script run by
// vm has no import()). web-tree-sitter's JavaScript is bundled in, so that it
// too is compiled from the cache; its WebAssembly and tree-sitter-cpp's are
// read from their packages (src/cli/cuda.ts). Z3 stays a package: it finds
// its WebAssembly file next to its own code.
//
// bin/faial-ts.js is CommonJS and requires load.cjs (and version.cjs for
// `--version`), the loader built again as CommonJS. The ES module loader,
// load.js, and the three worker entries stay ES modules: scripts/code-cache.js
// and the tests import the loader, and src/cli/jobs.ts,
// src/solve/wasm-process.ts and src/cli/lsp/workers.ts find the workers next
// to the bundle.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');
const external = ['z3-solver', 'web-tree-sitter', 'tree-sitter-cpp'];

/** web-tree-sitter's CommonJS build, which the bundle takes in (its ES build reads import.meta). */
const treeSitterAsCommonJs = {
  name: 'web-tree-sitter-cjs',
  setup(b) {
    b.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: createRequire(import.meta.url).resolve('web-tree-sitter') }));
  },
};

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/load.ts', 'src/cli/worker.ts', 'src/solve/wasm-worker.ts', 'src/cli/lsp/lsp-worker.ts'].map((p) => join(root, p)),
  outdir: out,
  entryNames: '[name]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external,
  // the CommonJS packages bundled in (commander, @babel/code-frame) call require
  banner: { js: "import { createRequire as __faialRequire } from 'node:module'; const require = __faialRequire(import.meta.url);" },
  logLevel: 'warning',
});
await build({
  entryPoints: [join(root, 'src/cli/main.ts')],
  outfile: join(out, 'cli.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: external.filter((p) => p !== 'web-tree-sitter'),
  plugins: [treeSitterAsCommonJs],
  supported: { 'dynamic-import': false },
  // the loader passes the bundle's URL, where the modules of dist/ read import.meta.url;
  // import.meta.resolve finds tsx only when run from the sources, never from the bundle
  define: { 'import.meta.url': '__faialUrl', 'import.meta.resolve': 'undefined' },
  logLevel: 'warning',
});
// the loader and `--version` again as CommonJS, which bin/faial-ts.js requires: a CommonJS entry
// runs without Node's ES module loader, whose start is a part of a small run worth saving
await build({
  entryPoints: ['src/cli/load.ts', 'src/cli/version.ts'].map((p) => join(root, p)),
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  define: { 'import.meta.url': '__faialUrl' },
  banner: { js: "'use strict'; const __faialUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
await asciiOnly(join(out, 'cli.cjs'));
execFileSync(process.execPath, [join(root, 'scripts', 'code-cache.js')], { stdio: 'inherit' });

/**
 * The bundle in ASCII, which the loader reads as Latin-1: decoding UTF-8
 * took three times as long (a two-byte string of 1.8 MB). esbuild escapes
 * every character past ASCII in code but keeps some comments as written, so
 * those characters become '?' in comment lines; one anywhere else stops the
 * build.
 */
async function asciiOnly(path) {
  const lines = (await readFile(path, 'utf8')).split('\n');
  const ascii = lines.map((line, i) => {
    if (!/[^\x00-\x7f]/.test(line)) return line;
    if (!/^\s*(\/\/|\/\*|\*)/.test(line)) throw new Error(`${path}:${i + 1}: a character past ASCII outside a comment`);
    return line.replace(/[^\x00-\x7f]/gu, '?');
  });
  await writeFile(path, ascii.join('\n'));
}
