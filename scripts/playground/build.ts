/**
 * Builds the playground (web/) into a static folder: the page and the
 * verifier's worker bundled by esbuild, Z3's own z3-built.js and .wasm beside
 * them (Emscripten starts its threads from that file, so it cannot be
 * bundled), the CUDA grammar's two WebAssembly files, the examples with
 * their headers (all of these content-hashed under assets/), a `_headers`
 * file with the cross-origin isolation headers and the assets' caching for
 * static hosts that read one, and the service worker (sw.js) that adds the
 * isolation headers where the host sends none (GitHub Pages).
 */
import { createHash } from 'node:crypto';
import { build, type BuildOptions } from 'esbuild';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { PageAssets, WorkerAssets } from '../../web/protocol.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The headers every response needs: Z3's threads use SharedArrayBuffer, which only a cross-origin isolated page has. */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
} as const;

/** The caching a content-hashed asset may have: a year, never revalidated (a new build gives a changed file a new name). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

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

/** The content-hashed assets' folder: a file there never changes, so a host may let browsers keep it for good. */
export const ASSETS_DIR = 'assets';

/** `assets/NAME.HASH.EXT`: the first 12 hex digits of the SHA-256 of the bytes, before the extension. */
export function hashedName(name: string, bytes: Uint8Array): string {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  const dot = name.indexOf('.');
  return `${ASSETS_DIR}/${dot < 0 ? `${name}.${hash}` : `${name.slice(0, dot)}.${hash}${name.slice(dot)}`}`;
}

export interface Built {
  /** every file of the folder, by its path relative to it */
  readonly files: readonly BuiltFile[];
  /** the names given to the page (esbuild's define) */
  readonly page: PageAssets;
  /** the names given to the worker (in assets/, as the worker is) */
  readonly worker: WorkerAssets;
  /** the page's script and style sheet, as index.html names them */
  readonly main: string;
  readonly style: string;
}

/** Replaces `from` by `to` in `text`, where it must occur exactly once (a changed index.html must not silently keep a fixed name). */
function replacedOnce(text: string, from: string, to: string): string {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`web/index.html: expected ${from} once, found it ${parts.length - 1} times`);
  return parts.join(to);
}

/**
 * Builds the site into `out` (emptied first) and lists its files with their
 * sizes. Every file but index.html, sw.js and _headers is content-hashed
 * under assets/ (each name is given to the file that loads it), so a host
 * can let browsers cache them for good; index.html and sw.js keep their
 * names, as a visit and the service worker's registration find them by name.
 */
export async function buildPlayground(out: string, options: { minify?: boolean } = {}): Promise<Built> {
  const minify = options.minify ?? true;
  await rm(out, { recursive: true, force: true });
  await mkdir(join(out, ASSETS_DIR), { recursive: true });
  const versionOf = async (pkg: string): Promise<string> => (JSON.parse(await readFile(join(ROOT, pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const versions = { faial: await versionOf('.'), z3: await versionOf(join('node_modules', 'z3-solver')) };
  const common: BuildOptions = {
    bundle: true,
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16.4'],
    minify,
    sourcemap: false,
    logLevel: 'warning',
    write: false,
    // the versions the page shows and its reports name
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"', FAIAL_VERSIONS: JSON.stringify(versions) },
  };
  /** Writes an asset under its hashed name, which it returns (relative to the page). */
  const asset = async (name: string, bytes: Uint8Array): Promise<string> => {
    const hashed = hashedName(name, bytes);
    await writeFile(join(out, hashed), bytes);
    return hashed;
  };
  /** An asset as the worker names it: in its own folder. */
  const beside = async (name: string, bytes: Uint8Array): Promise<string> => (await asset(name, bytes)).slice(ASSETS_DIR.length + 1);
  const bundled = async (options: BuildOptions): Promise<Uint8Array> => {
    const result = await build({ ...common, ...options, outfile: 'out.js' });
    return result.outputFiles![0]!.contents;
  };
  const z3 = join(ROOT, 'node_modules', 'z3-solver', 'build');
  const worker: WorkerAssets = {
    z3Script: await beside('z3-built.js', await readFile(join(z3, 'z3-built.js'))),
    z3Wasm: await beside('z3-built.wasm', await readFile(join(z3, 'z3-built.wasm'))),
    // the CUDA grammar: web-tree-sitter's runtime and tree-sitter-cpp, fetched by the worker when it first reads a .cu file
    treeSitter: await beside('tree-sitter.wasm', await readFile(join(ROOT, 'node_modules', 'web-tree-sitter', 'tree-sitter.wasm'))),
    treeSitterCpp: await beside('tree-sitter-cpp.wasm', await readFile(join(ROOT, 'node_modules', 'tree-sitter-cpp', 'tree-sitter-cpp.wasm'))),
  };
  // a classic worker: it loads z3-built.js with importScripts; web-tree-sitter imports Node's modules only when it runs in Node
  const workerJs = await bundled({ entryPoints: [join(ROOT, 'web', 'worker.ts')], format: 'iife', external: ['fs/promises', 'module'], define: { ...common.define, FAIAL_WORKER_ASSETS: JSON.stringify(worker) } });
  const page: PageAssets = {
    worker: await asset('worker.js', workerJs),
    examples: await asset('examples.json', new TextEncoder().encode(JSON.stringify(await exampleFiles(join(ROOT, 'examples'))))),
  };
  const main = await asset('main.js', await bundled({ entryPoints: [join(ROOT, 'web', 'main.ts')], format: 'esm', define: { ...common.define, FAIAL_PAGE_ASSETS: JSON.stringify(page) } }));
  const style = await asset('style.css', await readFile(join(ROOT, 'web', 'style.css')));
  // beside index.html, under its own name: a service worker controls the pages of its own folder and below, and is registered by name
  await writeFile(join(out, 'sw.js'), await bundled({ entryPoints: [join(ROOT, 'web', 'sw.ts')], format: 'iife' }));
  const index = replacedOnce(replacedOnce(await readFile(join(ROOT, 'web', 'index.html'), 'utf8'), 'href="style.css"', `href="${style}"`), 'src="main.js"', `src="${main}"`);
  await writeFile(join(out, 'index.html'), index);
  const headers = Object.entries(ISOLATION_HEADERS).map(([k, v]) => `  ${k}: ${v}`).join('\n');
  await writeFile(join(out, '_headers'), `/*\n${headers}\n/${ASSETS_DIR}/*\n  Cache-Control: ${IMMUTABLE}\n`);
  const files: BuiltFile[] = [];
  for (const name of [...(await readdir(out)).filter((n) => n !== ASSETS_DIR), ...(await readdir(join(out, ASSETS_DIR))).map((n) => `${ASSETS_DIR}/${n}`)].sort()) {
    const bytes = await readFile(join(out, name));
    files.push({ name, bytes: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length });
  }
  return { files, page, worker, main, style };
}
