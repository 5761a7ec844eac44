/** The playground's page tests' setting (the built site, served, and a browser) and a person's steps in it. */
import { rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { buildPlayground, type Built } from '../../scripts/playground/build.js';
import { servePlayground } from '../../scripts/playground/serve.js';
import { launchChromium, outputDir } from '../support/browser.js';

/** Waits for a verification's verdict, or its rejection, and for the worker to be idle again. */
export async function verdict(page: Page): Promise<string> {
  await page.waitForSelector('#verdict[data-status]', { timeout: 90_000 });
  await page.waitForSelector('body[data-running=no]', { timeout: 90_000 });
  return (await page.getAttribute('#verdict', 'data-status')) ?? '';
}

/** Pastes `text` over the whole editor, as Ctrl+A and Ctrl+V with the clipboard holding it would. */
export async function pasteOverAll(page: Page, text: string): Promise<void> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.evaluate((t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    document.querySelector('.cm-content')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** Types `text` over the whole editor (an edit, not a paste). */
export async function typeOverAll(page: Page, text: string): Promise<void> {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(text);
}

export const editorText = (page: Page): Promise<string> => page.evaluate(() => [...document.querySelectorAll('.cm-content .cm-line')].map((l) => l.textContent).join('\n'));

/** The built playground served on loopback with its headers, and a headless Chromium to open it. */
export interface Served {
  /** where the tests' screenshots go */
  readonly shots: string;
  /** the built folder */
  readonly site: string;
  readonly built: Built;
  readonly server: Server;
  readonly url: string;
  readonly browser: Browser;
}

/**
 * For a test file: builds the playground into test-output/NAME/site before
 * its tests, serves it and starts Chromium, and ends them all after. The
 * fields are there once the file's beforeAll has run.
 */
export function playgroundForTests(name: string): Served {
  const served: { -readonly [K in keyof Served]?: Served[K] } = {};
  beforeAll(async () => {
    served.shots = await outputDir(name);
    served.site = join(served.shots, 'site');
    served.built = await buildPlayground(served.site, { minify: true });
    served.server = await servePlayground(served.site, 0);
    served.url = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}/`;
    served.browser = await launchChromium();
  });
  afterAll(async () => {
    await served.browser?.close();
    const server = served.server;
    if (server !== undefined) await new Promise((resolve) => server.close(resolve));
    if (served.site !== undefined) await rm(served.site, { recursive: true, force: true });
  });
  return served as Served;
}
