// Bundles the command line into dist/bundle/: Node resolves and opens each
// ES module of dist/ one by one, and for `verify` on a small kernel that
// loading cost more than the verification. The three worker entries stay
// separate files next to the chunks, where src/cli/jobs.ts,
// src/solve/wasm-process.ts and src/cli/lsp/workers.ts look for them; the code they share with the main
// entry is split into chunks, and so are the modules imported dynamically
// (the JSON and SARIF reports, `gen`). Z3 and tree-sitter stay packages:
// each finds its WebAssembly file next to its own code.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'bundle');

await rm(out, { recursive: true, force: true });
await build({
  entryPoints: ['src/cli/main.ts', 'src/cli/version.ts', 'src/cli/worker.ts', 'src/solve/wasm-worker.ts', 'src/cli/lsp/lsp-worker.ts'].map((p) => join(root, p)),
  outdir: out,
  entryNames: '[name]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['z3-solver', 'web-tree-sitter', 'tree-sitter-cpp'],
  // the CommonJS packages bundled in (commander, @babel/code-frame) call require
  banner: { js: "import { createRequire as __faialRequire } from 'node:module'; const require = __faialRequire(import.meta.url);" },
  logLevel: 'warning',
});
