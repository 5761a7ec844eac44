/**
 * `npm run bench:playground`: the playground as a first-time visitor meets it.
 * Builds dist-web/, serves it on loopback, and RUNS times (default 5) opens
 * the page in a new headless Chromium (empty cache), clicks Verify on
 * Figure 3 as soon as the page is ready, and times the verdict from the
 * start of navigation. Also the download: every file gzipped, Z3's wasm apart.
 * Writes bench/results/playground.md and prints it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { ROOT, buildPlayground } from '../scripts/playground/build.js';
import { servePlayground } from '../scripts/playground/serve.js';
import { launchChromium } from '../test/support/browser.js';

const runs = Number(process.env['BENCH_RUNS'] ?? 5);
const site = join(ROOT, 'dist-web');
const { files, worker } = await buildPlayground(site);
const server = await servePlayground(site, 0);
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

interface Run {
  readonly ready: number;
  readonly z3: number;
  readonly verdict: number;
}

const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  const browser = await launchChromium();
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('body[data-page=ready]');
  const ready = await page.evaluate(() => performance.now());
  await page.click('#verify');
  await page.waitForSelector('#verdict[data-status=racy]', { timeout: 120_000 });
  const verdict = await page.evaluate(() => performance.now());
  await page.waitForSelector('body[data-z3=ready]', { timeout: 120_000 });
  const z3 = Number(await page.getAttribute('body', 'data-z3-ms'));
  results.push({ ready, z3, verdict });
  await browser.close();
}
server.close();

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kib = (n: number): string => `${(n / 1024).toFixed(0)} KiB`;
const isWasm = (f: { name: string }): boolean => f.name.endsWith(`/${worker.z3Wasm}`);
const page = files.filter((f) => !isWasm(f));
const wasm = files.find(isWasm)!;
const lines = [
  `# Playground (${new Date().toISOString()}, load average ${loadavg()[0]!.toFixed(1)} on ${runs} runs)`,
  '',
  `Download, gzipped: ${kib(page.reduce((s, f) => s + f.gzipped, 0))} besides Z3's WebAssembly (${kib(wasm.gzipped)}; ${kib(wasm.bytes)} uncompressed)`,
  ...page.map((f) => `- ${f.name}: ${kib(f.bytes)}, ${kib(f.gzipped)} gzipped`),
  '',
  '| | median | min | max |',
  '|---|---|---|---|',
  ...(
    [
      ['page ready (ms from navigation)', (r: Run) => r.ready],
      ['Figure 3 verdict (ms from navigation)', (r: Run) => r.verdict],
      ['Z3 start in the worker (ms)', (r: Run) => r.z3],
    ] as const
  ).map(([name, f]) => {
    const xs = results.map(f);
    return `| ${name} | ${Math.round(median(xs))} | ${Math.round(Math.min(...xs))} | ${Math.round(Math.max(...xs))} |`;
  }),
];
await mkdir(join(ROOT, 'bench', 'results'), { recursive: true });
await writeFile(join(ROOT, 'bench', 'results', 'playground.md'), `${lines.join('\n')}\n`);
console.log(lines.join('\n'));
