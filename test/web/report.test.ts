/**
 * The experiment's report.html and the scaling benchmark's scaling.html,
 * opened in headless Chromium from disk: self-contained (no request but the
 * file), and showing what the results say.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliResult } from '../../src/cli/main.js';
import { totalsOf, type ExperimentResults } from '../../src/experiment/results.js';
import { scalingHtml, scalingPoint } from '../../src/experiment/scaling.js';
import { z3Wasm } from '../../src/solve/z3.js';
import { CHROMIUM, NO_CHROMIUM, launchChromium, outputDir } from '../support/browser.js';
import { STATUSES } from '../../src/report/describe.js';

const INPUTS = ['examples/paper/figure3.bcu', 'examples/paper/figure4.bcu', 'examples/data-dependent/histogram.bcu', 'examples/divergence/sync-under-data.bcu'];

describe.skipIf(CHROMIUM === null)('HTML reports in headless Chromium', () => {
  let dir = '';
  let shots = '';
  let browser: Browser;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'faial-report-'));
    shots = await outputDir('reports');
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  });

  /** The page at `path`, and every URL it asked for. */
  async function opened(path: string): Promise<{ page: Page; requests: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(resolve(path)).href);
    return { page, requests };
  }

  it('experiment --out DIR writes report.html: the class table, verdicts, alarms, the time chart, kernels linked to their rows', async () => {
    const broken = join(dir, 'broken.bcu');
    await writeFile(broken, 'kernel broken() {\n  shared A\n  A[0] := 1\n}\n');
    const out = join(dir, 'out');
    const r = await cliResult(['experiment', ...INPUTS, broken, '--out', out]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain(join(out, 'report.html'));
    const results = JSON.parse(await readFile(join(out, 'results.json'), 'utf8')) as ExperimentResults;
    const totals = totalsOf(results.rows);

    const { page, requests } = await opened(join(out, 'report.html'));
    expect(requests).toEqual([pathToFileURL(resolve(out, 'report.html')).href]);
    const text = (await page.textContent('body')) ?? '';
    // the class table: a row per class and the total, with the verdict counts of results.json
    const total = await page.locator('table').first().locator('tr', { hasText: 'total' }).locator('td').allTextContents();
    expect(total).toEqual(['total', String(totals.kernels), ...STATUSES.map((v) => String(totals.byVerdict[v]))]);
    expect(text).toContain(`${totals.confirmedAlarms} confirmed, ${totals.possibleAlarms} possible`);
    // one row per kernel (and the file in error), verdicts named as the text report names them
    const rows = page.locator('table.kernels tbody tr');
    await expect(rows.count()).resolves.toBe(results.rows.length);
    await expect(page.locator('#kernel-1').textContent()).resolves.toContain('fig3');
    await expect(page.locator('#kernel-1 td.racy').textContent()).resolves.toBe('racy');
    await expect(page.locator('table.kernels td.error').count()).resolves.toBe(1);
    // the chart: one bar per kernel, a rectangle per stage that took time, its label a link to the row
    const bars = page.locator('svg a');
    await expect(bars.count()).resolves.toBe(results.rows.length);
    await expect(page.locator('svg rect[fill]').count()).resolves.toBeGreaterThan(results.rows.length);
    await page.locator('svg a', { hasText: 'fig3' }).click();
    expect(new URL(page.url()).hash).toBe('#kernel-1');
    await expect(page.locator('tr:target').textContent()).resolves.toContain('fig3');
    // the alarmed kernels link to their rows too
    await expect(page.locator('li a[href="#kernel-1"]').textContent()).resolves.toContain('fig3');
    await page.screenshot({ path: join(shots, 'report.png'), fullPage: true });
    await page.close();
  });

  it('the scaling report is a page in the same style, its chart inline', async () => {
    const points = [];
    for (const size of [1, 2, 3]) points.push(await scalingPoint('accesses', size, { timeoutMs: 30_000, solver: z3Wasm }));
    const path = join(dir, 'scaling.html');
    await writeFile(path, scalingHtml(points, { version: 'test', solver: 'z3-wasm', timeoutMs: 30_000, sizes: [1, 2, 3], runs: 1, wallMs: 1 }));
    const { page, requests } = await opened(path);
    expect(requests).toHaveLength(1);
    await expect(page.locator('h1').textContent()).resolves.toContain('Scaling');
    await expect(page.locator('svg polyline').count()).resolves.toBe(1);
    await expect(page.locator('svg circle').count()).resolves.toBe(3);
    await expect(page.locator('table tbody tr').first().textContent()).resolves.toContain('accesses');
    // the experiment report's style sheet
    await expect(page.evaluate(() => getComputedStyle(document.querySelector('h2')!).borderBottomStyle)).resolves.toBe('solid');
    await page.screenshot({ path: join(shots, 'scaling.png'), fullPage: true });
    await page.close();
  });
});

if (CHROMIUM === null) it.skip(NO_CHROMIUM, () => undefined);
