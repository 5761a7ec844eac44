/**
 * The playground gives the CLI's verdicts: each example verified by the
 * playground's own worker in headless Chromium (Z3 as WebAssembly in the
 * browser) and by src/api's verifyFile in Node (what `faial-ts verify`
 * runs), with the same options, must get the same verdict per kernel and
 * the same confirmed/possible labels on its races and divergences. Every
 * example is compared, also under the options of its `// expect with …`
 * lines (the page's warp size field for `--warp-size 32`); the two test
 * files take every other one, so both test workers share them.
 *
 * A query the solver does not answer in time leaves a kernel undecided
 * (`unknown`, or fewer alarms than there are); that is the machine's load,
 * not a difference of meaning. The side with such a kernel verifies the file
 * again with four times the timeout, and a kernel still undecided on one side
 * is reported and not compared. The examples whose queries the solver may
 * not decide at all (`// verifier: unknown`) are not verified again.
 */
import { readFile, readdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFile } from '../../src/api/verify.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { DEFAULT_TIMEOUT_MS } from '../../src/verify/verify.js';
import { buildPlayground } from '../../scripts/playground/build.js';
import { servePlayground } from '../../scripts/playground/serve.js';
import { examples, type Example } from '../examples/expectations.js';
import { CHROMIUM, NO_CHROMIUM, launchChromium, outputDir } from '../support/browser.js';
import { DEFAULT_OPTIONS } from '../../web/permalink.js';
import type { FromWorker, KernelView, OptionsText } from '../../web/protocol.js';

/** What must agree, per kernel, and whether every query of it was answered. */
interface KernelVerdict {
  /** `racy [confirmed, confirmed]` */
  readonly verdict: string;
  readonly decided: boolean;
}

type Verdicts = Record<string, KernelVerdict>;

const verdictOf = (status: string, labels: readonly string[], unknowns: number): KernelVerdict => ({
  verdict: `${status} [${[...labels].sort().join(', ')}]`,
  decided: status !== 'unknown' && unknowns === 0,
});

interface Job {
  readonly id: number;
  readonly path: string;
  readonly text: string;
  readonly options: OptionsText;
  readonly headers: Readonly<Record<string, string>>;
}

/** The headers beside an example, as the page sends them with it. */
async function headersBeside(path: string): Promise<Record<string, string>> {
  const folder = dirname(path);
  const names = (await readdir(folder)).filter((n) => /\.(cuh|h)$/.test(n));
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await readFile(join(folder, n), 'utf8')] as const)));
}

/** The file verified by the playground's worker, in the page, as the Verify button has it done. */
function inBrowser(page: Page, workerScript: string, job: Job): Promise<Verdicts> {
  return page.evaluate(async ([j, script]) => {
    const w = (window as unknown as { agreementWorker?: Worker }).agreementWorker ?? new Worker(script);
    (window as unknown as { agreementWorker?: Worker }).agreementWorker = w;
    return new Promise<Record<string, { verdict: string; decided: boolean }>>((resolve) => {
      w.onmessage = (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        const labels = (k: KernelView): string => k.alarms.map((a) => a.label).sort().join(', ');
        if (m.kind === 'verified' && m.id === j.id) {
          resolve(Object.fromEntries(m.kernels.map((k) => [k.name, { verdict: `${k.status} [${labels(k)}]`, decided: k.status !== 'unknown' && k.unknowns.length === 0 }])));
        }
        if (m.kind === 'rejected' && m.id === j.id) resolve({ file: { verdict: 'rejected', decided: true } });
        if (m.kind === 'crashed') resolve({ file: { verdict: `crashed: ${m.message}`, decided: true } });
      };
      w.postMessage({ kind: 'verify', id: j.id, path: j.path, text: j.text, options: j.options, headers: j.headers });
    });
  }, [job, workerScript] as const);
}

/** The file verified in Node, as `faial-ts verify [--warp-size N]` does. */
async function inNode(path: string, text: string, timeoutMs: number, warpSize: number | undefined): Promise<Verdicts> {
  const launch = warpSize === undefined ? NO_LAUNCH : { ...NO_LAUNCH, warpSize };
  const file = (await verifyFile(path, text, { kernel: null, launch, timeoutMs, maxRaces: 20, barriers: false, replay: false }, z3Wasm, await frontEndsFor(path, text, {}))).file;
  if (!file.ok) return { file: { verdict: 'rejected', decided: true } };
  return Object.fromEntries(file.kernels.map((k) => [k.kernel, verdictOf(k.status, [...k.races, ...k.divergences].map((a) => a.confidence), k.unknowns.length)]));
}

const undecided = (v: Verdicts): boolean => Object.values(v).some((k) => !k.decided);

export function agreementSuite(part: 'even' | 'odd'): void {
  const mine = examples().filter((_, i) => i % 2 === (part === 'even' ? 0 : 1));

  describe.skipIf(CHROMIUM === null)(`the playground and the CLI agree on every example (${part})`, () => {
    let site: string;
    let server: Server;
    let browser: Browser;
    let page: Page;
    let workerScript: string;

    beforeAll(async () => {
      site = join(await outputDir(`agreement-${part}`), 'site');
      workerScript = (await buildPlayground(site)).page.worker;
      server = await servePlayground(site, 0);
      browser = await launchChromium();
      page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await page.waitForSelector('body[data-page=ready]');
    });

    afterAll(async () => {
      await browser?.close();
      await new Promise((resolve) => server?.close(resolve));
      if (site !== undefined) await rm(site, { recursive: true, force: true });
    });

    let ids = 0;
    const agree = async (example: Example): Promise<void> => {
      // as the examples test: three times the default for decidable examples, the default for the known-unknown ones
      const timeoutMs = example.knownUnknown ? DEFAULT_TIMEOUT_MS : 3 * DEFAULT_TIMEOUT_MS;
      const text = await readFile(example.path, 'utf8');
      const headers = await headersBeside(example.path);
      const warpSize = example.options?.warpSize;
      const options = { ...DEFAULT_OPTIONS, warpSize: warpSize === undefined ? '' : String(warpSize), replay: false };
      const web = (ms: number): Promise<Verdicts> => inBrowser(page, workerScript, { id: ids++, path: example.path, text, headers, options: { ...options, timeout: String(ms) } });
      let cli = await inNode(example.path, text, timeoutMs, warpSize);
      let onPage = await web(timeoutMs);
      if (!example.knownUnknown && undecided(cli)) cli = await inNode(example.path, text, 4 * timeoutMs, warpSize);
      if (!example.knownUnknown && undecided(onPage)) onPage = await web(4 * timeoutMs);
      expect(Object.keys(onPage).sort()).toEqual(Object.keys(cli).sort());
      for (const kernel of Object.keys(cli)) {
        const [a, b] = [onPage[kernel]!, cli[kernel]!];
        if (a.decided && b.decided) expect(`${kernel}: ${a.verdict}`).toBe(`${kernel}: ${b.verdict}`);
        else if (!example.knownUnknown) console.warn(`${example.path} ${kernel}: not compared, a query went unanswered in time (page: ${a.verdict}, CLI: ${b.verdict})`);
      }
    };

    for (const example of mine) it(example.options === null ? example.path : `${example.path} with ${example.options.text}`, () => agree(example), 15 * 60_000);
  });

  if (CHROMIUM === null) it.skip(NO_CHROMIUM, () => undefined);
}
