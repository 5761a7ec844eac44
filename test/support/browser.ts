/**
 * Headless Chromium for page tests: Debian's `chromium` package driven by
 * playwright-core through its executable path (nothing downloads a browser).
 * Where it is not installed the page tests are skipped with a message.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env['CHROMIUM_PATH'], '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The Chromium executable, or null. */
export const CHROMIUM: string | null = CANDIDATES.find((p): p is string => p !== undefined && p !== '' && existsSync(p)) ?? null;

export const NO_CHROMIUM = 'page tests skipped: no Chromium at /usr/bin/chromium (apt-get install -y chromium, or set CHROMIUM_PATH)';

if (CHROMIUM === null) console.warn(NO_CHROMIUM);

/** Screenshots and other artefacts of the page tests go here (ignored by git). */
export async function outputDir(name: string): Promise<string> {
  const dir = join('test-output', name);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A fresh headless Chromium (playwright gives each launch a new empty profile), no background network (this machine has none). */
export async function launchChromium(): Promise<Browser> {
  if (CHROMIUM === null) throw new Error(NO_CHROMIUM);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
