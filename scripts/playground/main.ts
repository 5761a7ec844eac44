/**
 * `npm run playground [-- --port N] [-- --build-only] [-- --out DIR]`: builds
 * the playground into dist-web/ (or DIR) and serves it on
 * http://127.0.0.1:PORT/ (default 8080) with the headers it needs, until
 * interrupted. The built folder works from any static host: where the host
 * sends no isolation headers, the page's service worker adds them.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ROOT, buildPlayground } from './build.js';
import { servePlayground } from './serve.js';

function kib(n: number): string {
  return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
}

async function main(args: readonly string[]): Promise<void> {
  const portArg = args.indexOf('--port');
  const port = portArg >= 0 ? Number(args[portArg + 1]) : Number(process.env['PORT'] ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${args[portArg + 1] ?? ''}: expected a port number`);
  const outArg = args.indexOf('--out');
  if (outArg >= 0 && (args[outArg + 1] === undefined || args[outArg + 1]!.startsWith('--'))) throw new Error('--out: expected a folder');
  // npm runs the script in the package's folder; a relative DIR is the caller's
  const out = outArg >= 0 ? resolve(process.env['INIT_CWD'] ?? process.cwd(), args[outArg + 1]!) : join(ROOT, 'dist-web');
  // the build empties its folder first: only a folder that is empty or holds a build
  if (existsSync(out) && readdirSync(out).length > 0 && !existsSync(join(out, 'sw.js'))) throw new Error(`--out ${out}: the folder is not empty and holds no playground build; give a new or empty folder`);
  const { files, worker } = await buildPlayground(out);
  for (const f of files) console.log(`  ${f.name.padEnd(40)} ${kib(f.bytes).padStart(10)}  (${kib(f.gzipped)} gzipped)`);
  const page = files.filter((f) => !f.name.endsWith(`/${worker.z3Wasm}`)).reduce((s, f) => s + f.gzipped, 0);
  console.log(`built ${out}: ${kib(page)} gzipped besides Z3's WebAssembly`);
  if (args.includes('--build-only')) return;
  const server = await servePlayground(out, port);
  console.log(`playground: http://127.0.0.1:${(server.address() as AddressInfo).port}/  (Ctrl-C to stop)`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
});
