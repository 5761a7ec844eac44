/**
 * Builds the playground (web/) into a static folder: the page and the
 * verifier's worker bundled by esbuild, Z3's own z3-built.js and .wasm beside
 * them (Emscripten starts its threads from that file, so it cannot be
 * bundled), the CUDA grammar's two WebAssembly files, the examples with
 * their headers, a `_headers` file with the cross-origin isolation headers
 * for static hosts that read one, and the service worker (sw.js) that adds
 * them where the host sends none (GitHub Pages).
 */
import { build, type BuildOptions } from 'esbuild';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The headers every response needs: Z3's threads use SharedArrayBuffer, which only a cross-origin isolated page has. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

export interface BuiltFile {
  readonly name: string;
  readonly bytes: number;
  readonly gzipped: number;
}

/** Every example kernel below examples/ and the headers they include (.cuh, .h), by path relative to it, sorted. */
async function exampleFiles(dir: string): Promise<{ path: string; text: string }[]> {
  const out: { path: string; text: string }[] = [];
  const walk = async (d: string): Promise<void> => {
    // a build project needs its compilation database's flags, which the page does not have
    if (existsSync(join(d, 'CMakeLists.txt'))) return;
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (/\.(bcu|cu|cuh|h)$/.test(e.name)) out.push({ path: relative(dir, p).split('\\').join('/'), text: await readFile(p, 'utf8') });
    }
  };
  await walk(dir);
  return out;
}

/** Builds the site into `out` (emptied first) and lists its files with their sizes. */
export async function buildPlayground(out: string, options: { minify?: boolean } = {}): Promise<BuiltFile[]> {
  const minify = options.minify ?? true;
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const versionOf = async (pkg: string): Promise<string> => (JSON.parse(await readFile(join(ROOT, pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const versions = { faial: await versionOf('.'), z3: await versionOf(join('node_modules', 'z3-solver')) };
  const common: BuildOptions = {
    bundle: true,
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16.4'],
    minify,
    sourcemap: false,
    logLevel: 'warning',
    // the versions the page shows and its reports name
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"', FAIAL_VERSIONS: JSON.stringify(versions) },
  };
  await build({ ...common, entryPoints: [join(ROOT, 'web', 'main.ts')], outfile: join(out, 'main.js'), format: 'esm' });
  // a classic worker: it loads z3-built.js with importScripts; web-tree-sitter imports Node's modules only when it runs in Node
  await build({ ...common, entryPoints: [join(ROOT, 'web', 'worker.ts')], outfile: join(out, 'worker.js'), format: 'iife', external: ['fs/promises', 'module'] });
  // beside index.html: a service worker controls the pages of its own folder and below
  await build({ ...common, entryPoints: [join(ROOT, 'web', 'sw.ts')], outfile: join(out, 'sw.js'), format: 'iife' });
  const z3 = join(ROOT, 'node_modules', 'z3-solver', 'build');
  for (const f of ['z3-built.js', 'z3-built.wasm']) await copyFile(join(z3, f), join(out, f));
  // the CUDA grammar: web-tree-sitter's runtime and tree-sitter-cpp, fetched by the worker when it first reads a .cu file
  await copyFile(join(ROOT, 'node_modules', 'web-tree-sitter', 'tree-sitter.wasm'), join(out, 'tree-sitter.wasm'));
  await copyFile(join(ROOT, 'node_modules', 'tree-sitter-cpp', 'tree-sitter-cpp.wasm'), join(out, 'tree-sitter-cpp.wasm'));
  for (const f of ['index.html', 'style.css']) await copyFile(join(ROOT, 'web', f), join(out, f));
  await writeFile(join(out, 'examples.json'), JSON.stringify(await exampleFiles(join(ROOT, 'examples'))));
  const headers = Object.entries(ISOLATION_HEADERS).map(([k, v]) => `  ${k}: ${v}`).join('\n');
  await writeFile(join(out, '_headers'), `/*\n${headers}\n`);
  const files: BuiltFile[] = [];
  for (const name of (await readdir(out)).sort()) {
    const bytes = await readFile(join(out, name));
    files.push({ name, bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length });
  }
  return files;
}
