// `npm run package:vscode`: the VS Code extension of editors/vscode/ as a
// .vsix, offline. The client is bundled with esbuild; the language server is
// the command line's own bundle (bin/ and dist/bundle/, built first by
// `npm run build`) with the packages it keeps external (Z3, tree-sitter and
// their WebAssembly), copied to editors/vscode/server/ so that the extension
// needs nothing installed. vsce packages without looking at dependencies
// (everything is bundled or copied) and without the network.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ext = join(root, 'editors', 'vscode');
const server = join(ext, 'server');

if (!existsSync(join(root, 'dist', 'bundle', 'cli.cjs'))) throw new Error('dist/bundle/cli.cjs is missing: run npm run build first');

await build({
  entryPoints: [join(ext, 'src', 'extension.ts')],
  outfile: join(ext, 'dist', 'extension.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node18',
  external: ['vscode'],
  logLevel: 'warning',
});

rmSync(server, { recursive: true, force: true });
mkdirSync(server, { recursive: true });
cpSync(join(root, 'bin'), join(server, 'bin'), { recursive: true });
cpSync(join(root, 'dist', 'bundle'), join(server, 'dist', 'bundle'), { recursive: true });
// the server's bundle is ES modules, as the package that holds it says
cpSync(join(root, 'package.json'), join(server, 'package.json'));

/** Where npm installed a package (hoisted: the dependencies of the root's packages are at the top). */
function packageDir(name) {
  const dir = join(root, 'node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) throw new Error(`${name} is not installed in node_modules: run npm ci`);
  return dir;
}

/** A package and the packages it depends on, copied whole into server/node_modules. */
function copyWithDependencies(name, seen = new Set()) {
  if (seen.has(name)) return;
  seen.add(name);
  const from = packageDir(name);
  cpSync(from, join(server, 'node_modules', name), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  for (const dep of Object.keys(manifest.dependencies ?? {})) copyWithDependencies(dep, seen);
}
copyWithDependencies('z3-solver');
copyWithDependencies('web-tree-sitter');
// tree-sitter-cpp: only its grammar as WebAssembly (its native binding is never loaded)
const cpp = packageDir('tree-sitter-cpp');
mkdirSync(join(server, 'node_modules', 'tree-sitter-cpp'), { recursive: true });
for (const file of ['package.json', 'tree-sitter-cpp.wasm', 'LICENSE']) {
  if (existsSync(join(cpp, file))) cpSync(join(cpp, file), join(server, 'node_modules', 'tree-sitter-cpp', file));
}

const vsce = join(packageDir('@vscode/vsce'), 'vsce');
execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', join(ext, 'faial-ts.vsix')], { cwd: ext, stdio: 'inherit' });
