/**
 * The playground's features of issue 32 that came last, in headless
 * Chromium: verifying as you type (a run started by typing gives way to the
 * next edit, a large file keeps the stale mark), the kernel picker, the
 * resizable panes, the report as Markdown, jumping from an alarm or a phase
 * to its lines, and the content-hashed assets a browser keeps.
 * Screenshots go to test-output/playground-features/.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ASSETS_DIR, IMMUTABLE } from '../../scripts/playground/build.js';
import { CHROMIUM, NO_CHROMIUM } from '../support/browser.js';
import { editorText, playgroundForTests, typeOverAll, verdict } from './steps.js';

/** Many racy kernels: their verification takes long enough to be superseded while it runs. */
const MANY_RACY = Array.from({ length: 24 }, (_, i) => `kernel racy${i}() {\n  shared s;\n  let v = s[(tid + ${i + 1}) % blockDim.x] in\n  s[tid] := v\n}\n`).join('');

const ONE_DRF = `kernel own() {
  shared s;
  s[tid] := tid
}
`;

/** Two kernels, one racy and one DRF, for the picker. */
const TWO_KERNELS = `kernel first() {
  shared s;
  let v = s[(tid + 1) % blockDim.x] in
  s[tid] := v
}

kernel second() {
  shared t, u;
  t[tid] := tid;
  sync;
  let w = t[(tid + 1) % blockDim.x] in
  u[tid] := w
}
`;

/** A kernel below a long comment, so that its lines are off screen at first: a race in its second phase. */
const FAR = `${Array.from({ length: 60 }, (_, i) => `// line ${i + 1} of a long preamble`).join('\n')}
kernel far() {
  shared s;
  s[tid] := tid;
  sync;
  let v = s[(tid + 1) % blockDim.x] in
  s[tid] := v
}
`;

/** The 1-based line of the first line of `text` that contains `part`. */
const lineOf = (text: string, part: string): number => text.split('\n').findIndex((l) => l.includes(part)) + 1;

/** Lines `first` to `last` of `text`, as a selection of them reads. */
const lines = (text: string, first: number, last: number): string => text.split('\n').slice(first - 1, last).join('\n');

/** The editor's selection, as the browser reads it once the editor has the focus (CodeMirror draws it otherwise). */
function selectedText(page: Page): Promise<string> {
  return page.evaluate(async () => {
    (document.querySelector('.cm-content') as HTMLElement).focus();
    // CodeMirror puts its selection in the document's once it has the focus, at the next frame
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
    return window.getSelection()?.toString() ?? '';
  });
}

/** Whether the editor's line `n` (1-based) is on screen in the editor (CodeMirror scrolls at its next frame: poll it). */
function lineVisible(page: Page, n: number): Promise<boolean> {
  return page.evaluate((n) => {
    const scroller = document.querySelector('.cm-scroller')!.getBoundingClientRect();
    const line = [...document.querySelectorAll('.cm-gutterElement')].find((g) => g.textContent === String(n));
    if (line === undefined) return false;
    const box = line.getBoundingClientRect();
    return box.height > 0 && box.top >= scroller.top && box.bottom <= scroller.bottom;
  }, n);
}

describe.skipIf(CHROMIUM === null)('the playground: as you type, kernels, panes, Markdown, jumps, hashed assets (issue 32)', () => {
  const pg = playgroundForTests('playground-features');
  /** every path the server was asked for, in order */
  const requests: string[] = [];
  beforeAll(() => void pg.server.on('request', (req: { url?: string }) => requests.push(req.url ?? '')));

  async function opened(at = pg.url, context?: BrowserContext, viewport = { width: 1280, height: 800 }): Promise<Page> {
    const page = context === undefined ? await pg.browser.newPage({ viewport }) : await context.newPage();
    if (context !== undefined) await page.setViewportSize(viewport);
    page.setDefaultTimeout(20_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(at);
    await page.waitForSelector('body[data-page=ready]');
    expect(errors).toEqual([]);
    return page;
  }

  /** Records every verdict the page shows from now on, and every run that starts. */
  async function recording(page: Page): Promise<() => Promise<{ verdicts: string[]; runs: string[] }>> {
    await page.evaluate(() => {
      const log = { verdicts: [] as string[], runs: [] as string[] };
      (window as unknown as { shownLog: typeof log }).shownLog = log;
      new MutationObserver(() => {
        const status = document.getElementById('verdict')!.dataset['status'];
        if (status !== undefined && status !== log.verdicts.at(-1)) log.verdicts.push(status);
      }).observe(document.getElementById('verdict')!, { attributes: true, attributeFilter: ['data-status'] });
      new MutationObserver(() => {
        const by = document.body.dataset['runBy'];
        if (by !== undefined) log.runs.push(by);
      }).observe(document.body, { attributes: true, attributeFilter: ['data-run-by'] });
    });
    return () => page.evaluate(() => (window as unknown as { shownLog: { verdicts: string[]; runs: string[] } }).shownLog);
  }

  it('1: verifies as you type: a pause verifies, the next edit supersedes a run under way (its result is never shown), a large file keeps the stale mark', async () => {
    const page = await opened();
    const log = await recording(page);
    // nobody presses Verify: a pause after the edit verifies it
    await typeOverAll(page, ONE_DRF);
    await page.waitForSelector('#verdict[data-status=drf]', { timeout: 90_000 });
    expect((await log()).runs).toEqual(['typing']);
    // the result pane keeps its results while the next run goes, marked stale
    await typeOverAll(page, MANY_RACY);
    await page.waitForSelector('#verdict[data-stale=live] .stale');
    await expect(page.textContent('#verdict .stale')).resolves.toContain('verifying the new text as you type');
    await page.waitForSelector('body[data-run-by=typing]', { timeout: 10_000 });
    // the run is under way (queries answered): the next edit takes its place
    await page.waitForFunction(() => /queries? answered/.test(document.getElementById('status')!.textContent ?? ''), undefined, { timeout: 60_000 });
    await typeOverAll(page, ONE_DRF.replace('own', 'own2'));
    await expect(page.getAttribute('body', 'data-superseded')).resolves.toBe('1');
    // and the worker dropped it: its query under way answered, it asked no more and gave no result
    await page.waitForSelector('body[data-cancelled-runs="1"]', { state: 'attached', timeout: 60_000 });
    await expect(page.getAttribute('body', 'data-queries-after-cancel')).resolves.toBe('0');
    await page.waitForFunction(() => document.querySelector('#verdict .kernel[data-kernel=own2]') !== null, undefined, { timeout: 90_000 });
    await page.waitForSelector('body[data-running=no]', { timeout: 90_000 });
    // the superseded run's racy verdict was never on screen
    expect((await log()).verdicts).toEqual(['drf']);
    await expect(page.locator('#verdict .stale').count()).resolves.toBe(0);
    await page.waitForTimeout(1500);
    expect((await log()).verdicts).toEqual(['drf']);

    // a file over the bound is not verified as you type: the mark stays and says why
    const runsBefore = (await log()).runs.length;
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText(`// ${'x'.repeat(4100)}\n`);
    await page.waitForSelector('#verdict[data-stale=too-large] .stale');
    await expect(page.textContent('#verdict .stale')).resolves.toContain('Files over 4,000 characters are not verified as you type');
    await page.waitForTimeout(2000);
    expect((await log()).runs.length).toBe(runsBefore);
    await expect(page.locator('#verdict[data-stale=too-large] .stale').count()).resolves.toBe(1);
    await page.screenshot({ path: join(pg.shots, 'stale-too-large.png') });
    await page.close();
  });

  it('2: a kernel picker for a file of several kernels: every tab shows the kernel picked, kept across verifications', async () => {
    const page = await opened();
    await expect(page.isVisible('#kernel-picker')).resolves.toBe(false);
    await typeOverAll(page, TWO_KERNELS);
    await page.click('#verify');
    expect((await verdict(page)).split(' ').sort()).toEqual(['drf', 'racy']);
    await expect(page.isVisible('#kernel-picker')).resolves.toBe(true);
    await expect(page.locator('#kernel option').allTextContents()).resolves.toEqual(['all 2 kernels', 'first: racy', 'second: drf']);
    await page.selectOption('#kernel', 'second');
    await expect(page.isVisible('.kernel[data-kernel=second]')).resolves.toBe(true);
    await expect(page.isVisible('.kernel[data-kernel=first]')).resolves.toBe(false);
    // the cursor goes to the kernel's definition
    await expect(page.textContent('.cm-activeLine')).resolves.toBe('kernel second() {');
    await page.click('.tabs button[data-tab=phases]');
    await page.waitForSelector('#tab-phases pre[data-kernel=second]');
    await expect(page.isVisible('#tab-phases pre[data-kernel=first]')).resolves.toBe(false);
    await expect(page.textContent('#tab-phases pre:not([hidden])')).resolves.toContain('kernel second: 2 phases');
    await page.click('.tabs button[data-tab=smt]');
    await expect(page.locator('#tab-smt .query[data-kernel=first]:not([hidden])').count()).resolves.toBe(0);
    await expect(page.locator('#tab-smt .query[data-kernel=second]:not([hidden])').count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: join(pg.shots, 'kernel-picker.png') });
    // an edit verified again: still the second kernel
    await page.click('.tabs button[data-tab=verdict]');
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.insertText('// more\n');
    await page.click('#verify');
    await verdict(page);
    await expect(page.inputValue('#kernel')).resolves.toBe('second');
    await expect(page.isVisible('.kernel[data-kernel=first]')).resolves.toBe(false);
    // back to all
    await page.selectOption('#kernel', '');
    await expect(page.isVisible('.kernel[data-kernel=first]')).resolves.toBe(true);
    // one kernel: no picker
    await typeOverAll(page, ONE_DRF);
    await page.click('#verify');
    expect(await verdict(page)).toBe('drf');
    await expect(page.isVisible('#kernel-picker')).resolves.toBe(false);
    await page.close();
  });

  it('3: the panes are resized by dragging or with the keyboard, the width is kept, and a phone still shows one pane', async () => {
    const context = await pg.browser.newContext();
    const page = await opened(pg.url, context);
    const width = (): Promise<number> => page.evaluate(() => document.getElementById('editor-pane')!.getBoundingClientRect().width);
    const main = await page.evaluate(() => document.querySelector('main')!.getBoundingClientRect().width);
    expect(Math.abs((await width()) - main / 2)).toBeLessThanOrEqual(2);
    const handle = (await page.locator('#splitter').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
    await page.mouse.down();
    await page.mouse.move(400, handle.y + 100, { steps: 5 });
    await page.mouse.up();
    expect(Math.abs((await width()) - 400)).toBeLessThanOrEqual(8);
    const dragged = await width();
    // the keyboard: a step of 5 %, and the ends
    await page.focus('#splitter');
    await page.keyboard.press('ArrowRight');
    expect(Math.abs((await width()) - dragged - main * 0.05)).toBeLessThanOrEqual(2);
    await page.keyboard.press('End');
    expect(Math.abs((await width()) - main * 0.8)).toBeLessThanOrEqual(2);
    await expect(page.getAttribute('#splitter', 'aria-valuenow')).resolves.toBe('80');
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    expect(Math.abs((await width()) - main * 0.25)).toBeLessThanOrEqual(2);
    await expect(page.getAttribute('#splitter', 'aria-valuenow')).resolves.toBe('25');
    await expect(page.getAttribute('#splitter', 'role')).resolves.toBe('separator');
    // kept in this browser
    const again = await opened(pg.url, context);
    expect(Math.abs((await again.evaluate(() => document.getElementById('editor-pane')!.getBoundingClientRect().width)) - main * 0.25)).toBeLessThanOrEqual(2);
    await again.screenshot({ path: join(pg.shots, 'resized.png') });
    // a phone: no splitter, the editor as wide as the screen
    const phone = await opened(pg.url, context, { width: 390, height: 844 });
    await expect(phone.isVisible('#splitter')).resolves.toBe(false);
    expect(await phone.evaluate(() => document.getElementById('editor')!.getBoundingClientRect().width)).toBeGreaterThanOrEqual(370);
    await context.close();
  });

  it('4: copies the report as Markdown: the verdict, each alarm with its witness table, and a link that opens the same text', async () => {
    const context = await pg.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: pg.url.replace(/\/$/, '') });
    const page = await opened(pg.url, context);
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    await page.click('#copy-markdown');
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'report as Markdown copied');
    const markdown = await page.evaluate(() => navigator.clipboard.readText());
    expect(markdown).toMatch(/^### faial-ts: `figure3\.bcu`\n\n\*\*1 kernel: 1 racy\*\*\n\n#### ✗ fig3 \(figure3\.bcu\): racy/);
    expect(markdown).toContain('**confirmed**: data race on A\\[0\\] (read-write, within a block, phase 0); read (thread 1) at line 11, write (thread 2) at line 12');
    expect(markdown).toContain('| | thread 1 | thread 2 |\n| --- | --- | --- |\n| `threadIdx` | 0 | 1 |\n| `x` | 0 | 0 |');
    expect(markdown).toContain('<details><summary>text report</summary>');
    expect(markdown).toContain('`npx faial-ts verify --replay --timeout 10000 figure3.bcu`');
    const link = /\[open in the playground\]\(([^)]+)\)/.exec(markdown)?.[1];
    expect(link).toMatch(/#file=figure3\.bcu&v=/);
    const followed = await opened(link!);
    expect(await editorText(followed)).toBe(await readFile('examples/paper/figure3.bcu', 'utf8'));
    await context.close();
  });

  it('5: a click on an alarm or a phase selects its lines in the editor and scrolls to them', async () => {
    const page = await opened();
    await typeOverAll(page, FAR);
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    const [write, sync, read, write2] = [lineOf(FAR, 's[tid] := tid'), lineOf(FAR, 'sync;'), lineOf(FAR, 'let v = s['), lineOf(FAR, 's[tid] := v')];
    // the editor back at the top, the alarm's lines off screen
    await page.click('.cm-content');
    await page.keyboard.press('Control+Home');
    await expect.poll(() => lineVisible(page, read)).toBe(false);
    await page.click('#verdict .alarm h4');
    await expect.poll(() => lineVisible(page, read)).toBe(true);
    await expect.poll(() => lineVisible(page, write2)).toBe(true);
    expect(await selectedText(page)).toBe(lines(FAR, read, write2));
    // an access's own line: that access, and the editor has the focus
    await page.keyboard.press('Control+Home');
    await page.click('#verdict .alarm .where button.jump >> nth=0');
    await expect(page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).resolves.toBe(true);
    await expect(page.evaluate(() => window.getSelection()?.toString())).resolves.toMatch(/^s\[/);
    // a phase: from its opening barrier to its last access
    await page.keyboard.press('Control+Home');
    await page.click('.tabs button[data-tab=phases]');
    await page.waitForSelector('#tab-phases button.phase');
    await expect(page.locator('#tab-phases button.phase').allTextContents()).resolves.toEqual([`phase 0: from the start to sync at ${sync}:3`, `phase 1: from sync at ${sync}:3 to the end`]);
    await page.click('#tab-phases button.phase >> nth=1');
    await expect.poll(() => lineVisible(page, write2)).toBe(true);
    expect(await selectedText(page)).toBe(lines(FAR, sync, write2));
    await page.keyboard.press('Control+Home');
    await page.click('#tab-phases button.phase >> nth=0');
    expect(await selectedText(page)).toBe(lines(FAR, write, sync));
    await page.screenshot({ path: join(pg.shots, 'phase-jump.png') });
    // the listing reads as `infer --phases` prints it
    await expect(page.textContent('#tab-phases pre')).resolves.toContain(`kernel far: 2 phases\n  phase 0: from the start to sync at ${sync}:3\n`);
    await page.close();
  });

  it('6: every asset but index.html and sw.js is content-hashed, cached for good, and not asked for again on the next visit', async () => {
    const fixed = ['_headers', 'index.html', 'sw.js'];
    for (const f of pg.built.files) {
      if (fixed.includes(f.name)) continue;
      expect(f.name).toMatch(new RegExp(`^${ASSETS_DIR}/[\\w-]+\\.[0-9a-f]{12}\\.[a-z]+$`));
      const hash = createHash('sha256')
        .update(await readFile(join(pg.site, f.name)))
        .digest('hex')
        .slice(0, 12);
      expect(f.name.split('.')[1]).toBe(hash);
    }
    expect(pg.built.files.map((f) => f.name).filter((n) => fixed.includes(n))).toEqual(fixed);
    const index = await readFile(join(pg.site, 'index.html'), 'utf8');
    expect(index).toContain(`src="${pg.built.main}"`);
    expect(index).toContain(`href="${pg.built.style}"`);
    await expect(readFile(join(pg.site, '_headers'), 'utf8')).resolves.toContain(`/${ASSETS_DIR}/*\n  Cache-Control: ${IMMUTABLE}`);
    expect((await fetch(`${pg.url}${pg.built.main}`)).headers.get('cache-control')).toBe(IMMUTABLE);
    expect((await fetch(pg.url)).headers.get('cache-control')).toBe('no-cache');

    const context = await pg.browser.newContext();
    requests.length = 0;
    const first = await opened(pg.url, context);
    await first.click('#verify');
    expect(await verdict(first)).toBe('racy');
    await first.close();
    const asked = [...requests];
    expect(asked).toEqual(expect.arrayContaining(['/', `/${pg.built.main}`, `/${pg.built.style}`, `/${pg.built.page.worker}`, `/${pg.built.page.examples}`, `/${ASSETS_DIR}/${pg.built.worker.z3Script}`]));
    for (const r of asked) expect(r === '/' || r.startsWith(`/${ASSETS_DIR}/`), r).toBe(true);
    // the next visit asks for the page only; its scripts, styles, examples and worker come from the browser's cache
    // (Z3's 33 MB WebAssembly may be asked again: a fresh profile's cache does not keep an entry that large)
    requests.length = 0;
    const second = await opened(pg.url, context);
    await second.click('#verify');
    expect(await verdict(second)).toBe('racy');
    expect(requests.filter((r) => r !== `/${ASSETS_DIR}/${pg.built.worker.z3Wasm}`)).toEqual(['/']);
    await context.close();
  });
});

if (CHROMIUM === null) it.skip(NO_CHROMIUM, () => undefined);
