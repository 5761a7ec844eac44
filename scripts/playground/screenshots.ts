/**
 * `npm run screenshots:playground [-- --out DIR]`: builds the playground,
 * serves it on loopback and saves how it looks, in headless Chromium, at
 * 1280×800 and at 390×844 (a phone), in the light and the dark theme:
 * Figure 3 verified (its alarms, witness and marked accesses), a phase of
 * examples/barriers/neighbour-shift.bcu selected from the Phases tab, a
 * file of three CUDA kernels with the kernel picker, and on a phone the
 * editor and the result. DIR defaults to test-output/screenshots/.
 */
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { ROOT, buildPlayground } from './build.js';
import { servePlayground } from './serve.js';
import { launchChromium } from '../../test/support/browser.js';

const SCHEMES = ['light', 'dark'] as const;

async function verified(page: Page): Promise<void> {
  await page.click('#verify');
  await page.waitForSelector('#verdict[data-status]', { state: 'attached', timeout: 120_000 });
  await page.waitForSelector('body[data-running=no]', { state: 'attached', timeout: 120_000 });
}

async function main(args: readonly string[]): Promise<void> {
  const outArg = args.indexOf('--out');
  const out = outArg >= 0 && args[outArg + 1] !== undefined ? resolve(process.env['INIT_CWD'] ?? process.cwd(), args[outArg + 1]!) : join(ROOT, 'test-output', 'screenshots');
  const site = join(out, 'site');
  await buildPlayground(site);
  const server = await servePlayground(site, 0);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const browser = await launchChromium();
  const saved: string[] = [];
  const shot = async (page: Page, name: string): Promise<void> => {
    const file = join(out, `${name}.png`);
    await page.screenshot({ path: file });
    saved.push(file);
  };
  try {
    for (const colorScheme of SCHEMES) {
      const wide = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
      await wide.goto(url);
      await wide.waitForSelector('body[data-page=ready]');
      await verified(wide);
      await shot(wide, `1280x800-${colorScheme}-verdict`);
      await wide.selectOption('#examples', 'barriers/neighbour-shift.bcu');
      await verified(wide);
      await wide.click('.tabs button[data-tab=phases]');
      await wide.click('#tab-phases button.phase >> nth=1');
      await shot(wide, `1280x800-${colorScheme}-phases`);
      await wide.selectOption('#examples', 'cuda/kernels/namespaced.cu');
      await verified(wide);
      await wide.selectOption('#kernel', { index: 2 });
      await shot(wide, `1280x800-${colorScheme}-kernels`);
      await wide.close();

      const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme, isMobile: true, hasTouch: true });
      await phone.goto(url);
      await phone.waitForSelector('body[data-page=ready]');
      await shot(phone, `390x844-${colorScheme}-editor`);
      await verified(phone);
      await shot(phone, `390x844-${colorScheme}-result`);
      await phone.close();
    }
  } finally {
    await browser.close();
    server.close();
    await rm(site, { recursive: true, force: true });
  }
  for (const f of saved) console.log(f);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 2;
});
