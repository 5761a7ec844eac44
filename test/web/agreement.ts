/**
 * The playground gives the CLI's verdicts: each example verified by the
 * playground's own worker in headless Chromium (Z3 as WebAssembly in the
 * browser) and by src/api's verifyFile in Node (what `faial-ts verify`
 * runs), with the same options, must get the same verdict per kernel and
 * the same confirmed/possible labels on its races and divergences. The
 * examples whose queries the solver may not decide in time (`// verifier:
 * unknown`) may come out unknown on either side. Every example is compared;
 * the two test files take every other one, so both test workers share them.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyFile } from '../../src/api/verify.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { DEFAULT_TIMEOUT_MS } from '../../src/verify/verify.js';
import { buildPlayground } from '../../scripts/playground/build.js';
import { servePlayground } from '../../scripts/playground/serve.js';
import { examples, type Example } from '../examples/expectations.js';
import { CHROMIUM, NO_CHROMIUM, launchChromium, outputDir } from '../support/browser.js';
import { DEFAULT_OPTIONS } from '../../web/permalink.js';
import type { FromWorker, OptionsText } from '../../web/protocol.js';

/** What must agree, per kernel: `racy [confirmed, confirmed]`. */
type Verdicts = Record<string, string>;

const verdictOf = (status: string, labels: readonly string[]): string => `${status} [${[...labels].sort().join(', ')}]`;

interface Job {
  readonly id: number;
  readonly path: string;
  readonly text: string;
  readonly options: OptionsText;
}

/** The file verified by the playground's worker, in the page, as the Verify button has it done. */
function inBrowser(page: Page, job: Job): Promise<Verdicts> {
  return page.evaluate(async (j) => {
    const w = (window as unknown as { agreementWorker?: Worker }).agreementWorker ?? new Worker('worker.js');
    (window as unknown as { agreementWorker?: Worker }).agreementWorker = w;
    return new Promise<Record<string, string>>((resolve) => {
      w.onmessage = (e: MessageEvent<FromWorker>) => {
        const m = e.data;
        if (m.kind === 'verified' && m.id === j.id) resolve(Object.fromEntries(m.kernels.map((k) => [k.name, `${k.status} [${k.alarms.map((a) => a.label).sort().join(', ')}]`])));
        if (m.kind === 'rejected' && m.id === j.id) resolve({ file: 'rejected' });
        if (m.kind === 'crashed') resolve({ file: `crashed: ${m.message}` });
      };
      w.postMessage({ kind: 'verify', id: j.id, path: j.path, text: j.text, options: j.options });
    });
  }, job);
}

export function agreementSuite(part: 'even' | 'odd'): void {
  const mine = examples().filter((_, i) => i % 2 === (part === 'even' ? 0 : 1));

  describe.skipIf(CHROMIUM === null)(`the playground and the CLI agree on every example (${part})`, () => {
    let site: string;
    let server: Server;
    let browser: Browser;
    let page: Page;

    beforeAll(async () => {
      site = join(await outputDir(`agreement-${part}`), 'site');
      await buildPlayground(site);
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

    const agree = async (example: Example, id: number): Promise<void> => {
      // as the examples test: three times the default for decidable examples, the default for the known-unknown ones
      const timeoutMs = example.knownUnknown ? DEFAULT_TIMEOUT_MS : 3 * DEFAULT_TIMEOUT_MS;
      const text = await readFile(example.path, 'utf8');
      const outcome = await verifyFile(example.path, text, { kernel: null, launch: NO_LAUNCH, timeoutMs, maxRaces: 20, barriers: false, replay: false }, z3Wasm);
      const file = outcome.file;
      const cli: Verdicts = file.ok
        ? Object.fromEntries(file.kernels.map((k) => [k.kernel, verdictOf(k.status, [...k.races, ...k.divergences].map((a) => a.confidence))]))
        : { file: 'rejected' };
      const web = await inBrowser(page, { id, path: example.path, text, options: { ...DEFAULT_OPTIONS, timeout: String(timeoutMs), replay: false } });
      if (example.knownUnknown && [...Object.values(web), ...Object.values(cli)].some((v) => v.startsWith('unknown'))) {
        expect(Object.keys(web).sort()).toEqual(Object.keys(cli).sort());
        return;
      }
      expect(web).toEqual(cli);
    };

    mine.forEach((example, id) => it(example.path, () => agree(example, id), 10 * 60_000));
  });

  if (CHROMIUM === null) it.skip(NO_CHROMIUM, () => undefined);
}
