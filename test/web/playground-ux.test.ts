/**
 * The playground as a new user meets it (issue 32), in headless Chromium,
 * one browser for the file: a pasted kernel is its own file, the examples
 * menu shows what is loaded, stale results are marked and a link verifies
 * on opening, the smallest replayed witness comes first, CUDA syntax errors
 * look like BabyCUDA ones, Back and the browser's storage keep the work,
 * the tabs and the editor are usable with the keyboard, colours pass WCAG
 * AA, a phone gets one pane at a time, the dark theme, the server's
 * compression and ETags, and the built folder verifying from a plain static
 * server through its service worker. Screenshots at 1280×800 and 390×844,
 * light and dark, go to test-output/playground-ux/.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fileOf } from '../../scripts/playground/serve.js';
import { CHROMIUM, NO_CHROMIUM } from '../support/browser.js';
import { editorText, pasteOverAll, playgroundForTests, verdict } from './steps.js';

/** WCAG's contrast ratio of an element's text against the first opaque background behind it. */
function contrastOf(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = (c: number[]): number => {
      const [r, g, b] = c.slice(0, 3).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const e = document.querySelector(sel)!;
    let back: Element | null = e;
    let bg = 'rgb(255, 255, 255)';
    while (back !== null) {
      const c = getComputedStyle(back).backgroundColor;
      if (rgb(c).length === 3 || rgb(c)[3] === 1) {
        bg = c;
        break;
      }
      back = back.parentElement;
    }
    const [l1, l2] = [luminance(rgb(getComputedStyle(e).color)), luminance(rgb(bg))].sort((a, b) => b - a);
    return (l1! + 0.05) / (l2! + 0.05);
  }, selector);
}

/** A static server that sends files with their type and nothing else: no isolation headers, no compression, no validators (as GitHub Pages would not send COOP/COEP). */
function plainStaticServer(dir: string): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };
  const server = createServer((req, res) => {
    const path = fileOf(dir, req.url ?? '/');
    if (path === null) return void res.writeHead(400).end();
    readFile(path).then(
      (body) => res.writeHead(200, { 'Content-Type': types[extname(path)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const urlOf = (s: Server): string => `http://127.0.0.1:${(s.address() as AddressInfo).port}/`;

const HEADER_USER = `#include "common.cuh"
__global__ void mine(float *a) {
  a[threadIdx.x] = 1.0f;
}
`;

const CUDA_SYNTAX_ERROR = `__global__ void k(int *a) {
  a[threadIdx.x] = 1
}
`;

/** `i = i / 2` gives the lowered program a second name for i (i_1), which the witness shows. */
const RENAMED = `__global__ void halve(int *s) {
  int i = threadIdx.x;
  i = i / 2;
  s[i] = threadIdx.x;
}
`;

describe.skipIf(CHROMIUM === null)('the playground as a new user meets it (issue 32)', () => {
  const pg = playgroundForTests('playground-ux');

  async function opened(at = pg.url, context?: BrowserContext): Promise<Page> {
    const page = await (context ?? pg.browser).newPage({ viewport: { width: 1280, height: 800 } });
    page.setDefaultTimeout(15_000);
    await page.goto(at);
    await page.waitForSelector('body[data-page=ready]');
    return page;
  }

  it('1, 2: a kernel pasted over an example is a file of its own (name, headers, link), and the menu shows what is loaded', async () => {
    const page = await opened();
    await expect(page.inputValue('#examples')).resolves.toBe('paper/figure3.bcu');
    await page.selectOption('#examples', 'cuda/macros/include-header.cu');
    // the menu keeps the pick, and the file's name is shown
    await expect(page.inputValue('#examples')).resolves.toBe('cuda/macros/include-header.cu');
    await expect(page.inputValue('#file-name')).resolves.toBe('include-header.cu');
    await pasteOverAll(page, HEADER_USER);
    await expect(page.inputValue('#file-name')).resolves.toBe('kernel.cu');
    await expect(page.inputValue('#examples')).resolves.toBe('');
    await page.click('#verify');
    // the example's folder's header is not offered to someone else's kernel
    expect(await verdict(page)).toBe('error');
    const report = (await page.textContent('#verdict')) ?? '';
    expect(report).toContain('kernel.cu');
    expect(report).toContain('common.cuh');
    expect(report).not.toContain('include-header.cu');
    await page.waitForFunction(() => location.hash.includes('file=kernel.cu'));
    // the name is editable: renaming it to .bcu switches the language
    await page.fill('#file-name', 'mine.bcu');
    await page.press('#file-name', 'Enter');
    await expect(page.inputValue('#language')).resolves.toBe('bcu');
    await page.close();
  });

  it('3: results are marked stale after an edit, and a link verifies on opening', async () => {
    const page = await opened();
    // not verified as you type (playground-features.test.ts has that): the mark stays
    await page.click('#options summary');
    await page.uncheck('#opt-live');
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    await expect(page.locator('#verdict[data-stale]').count()).resolves.toBe(0);
    await page.click('.cm-content');
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\n// changed');
    await page.waitForSelector('#verdict[data-stale] .stale');
    await expect(page.textContent('#verdict .stale')).resolves.toContain('Verify again');
    await page.waitForFunction(() => location.hash.includes('code='));
    await page.waitForTimeout(400);
    const link = page.url();
    await page.close();
    // nobody presses Verify here
    const followed = await opened(link);
    expect(await verdict(followed)).toBe('racy');
    expect(await editorText(followed)).toContain('// changed');
    await expect(followed.isVisible('#link-note')).resolves.toBe(false);
    await followed.close();
    // a link made by another version says so
    expect(link).toMatch(/&v=\d+\.\d+\.\d+&/);
    const older = await opened(link.replace(/&v=[^&]+&/, '&v=0.0.1&'));
    await expect(older.textContent('#link-note')).resolves.toContain('This link was made with faial-ts 0.0.1');
    await older.close();
  });

  it('4: the smallest replayed witness comes first, the solver\'s is kept, and a generated name is explained', async () => {
    const page = await opened();
    await page.click('#options summary');
    // M = 100 is too large to replay as given: the interpreter runs a smaller witness of the same alarm
    await page.fill('#opt-params', 'M=100');
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    const alarm = page.locator('.alarm').first();
    await expect(alarm.locator('.witness p').first().textContent()).resolves.toMatch(/^smallest witness \(element \[0\]\), replayed by the interpreter: M = 100; blockDim = \d+/);
    await expect(alarm.locator('details.solver-witness .witness p').textContent()).resolves.toMatch(/^the solver's witness: M = 100/);
    await page.fill('#opt-params', '');
    await pasteOverAll(page, RENAMED);
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    await expect(page.locator('.alarm .witness .names').first().textContent()).resolves.toContain('i_1 is i after an assignment to it');
    await page.screenshot({ path: join(pg.shots, 'witness.png') });
    await page.close();
  });

  it('5: a CUDA syntax error is shown as a BabyCUDA one: red status, no empty typing line, an underline', async () => {
    const page = await opened();
    await page.selectOption('#language', 'cu');
    await pasteOverAll(page, CUDA_SYNTAX_ERROR);
    await expect(page.inputValue('#language')).resolves.toBe('cu');
    await page.click('#verify');
    expect(await verdict(page)).toBe('error');
    await expect(page.getAttribute('#status', 'data-state')).resolves.toBe('error');
    await expect(page.locator('.kernel .typing').count()).resolves.toBe(0);
    await expect(page.locator('.kernel .diagnostic[data-code=E0601]').count()).resolves.toBe(1);
    // an underline of a character, not CodeMirror's point marker
    await expect(page.locator('.cm-content .cm-lintRange-error').count()).resolves.toBeGreaterThan(0);
    await expect(page.locator('.cm-content .cm-lintPoint').count()).resolves.toBe(0);
    await page.screenshot({ path: join(pg.shots, 'cuda-syntax-error.png') });
    await page.close();
  });

  it('6: Back returns to the previous file, and the last text is kept in the browser', async () => {
    const context = await pg.browser.newContext();
    const page = await opened(pg.url, context);
    await page.selectOption('#examples', 'paper/figure4.bcu');
    await page.waitForFunction(() => location.hash.includes('file=figure4.bcu'));
    await page.goBack();
    await page.waitForFunction(() => location.hash.includes('file=figure3.bcu'));
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('kernel fig3') === true);
    await expect(page.inputValue('#examples')).resolves.toBe('paper/figure3.bcu');
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.includes('kernel fig4') === true);
    await page.click('.cm-content');
    await page.keyboard.press('Control+Home');
    const before = new URL(page.url()).hash;
    await page.keyboard.type('// kept\n');
    // the URL follows the edit first (no entry per keystroke)
    await page.waitForFunction((h) => location.hash !== h, before);
    // verifying the edited text makes it an entry of its own: Back gives the example as it was
    await page.click('#verify');
    expect(await verdict(page)).toBe('drf');
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.startsWith('// expect') === true);
    expect(await editorText(page)).toBe(await readFile('examples/paper/figure4.bcu', 'utf8'));
    await page.goForward();
    await page.waitForFunction(() => document.querySelector('.cm-content')?.textContent?.startsWith('// kept') === true);
    await page.click('#options summary');
    await page.fill('#opt-block', '8');
    await page.waitForFunction(() => localStorage.getItem('faial-ts.playground')?.includes('// kept') === true && localStorage.getItem('faial-ts.playground')?.includes('"blockDim":"8"') === true);
    // a later visit without a link
    const again = await opened(pg.url, context);
    expect(await editorText(again)).toMatch(/^\/\/ kept\n/);
    await expect(again.inputValue('#opt-block')).resolves.toBe('8');
    await expect(again.inputValue('#file-name')).resolves.toBe('figure4.bcu');
    await context.close();
  });

  it('7: tabs with roles and arrow keys, a labelled editor with the Esc-Tab hint, colours of at least 4.5:1', async () => {
    const page = await opened();
    await expect(page.getAttribute('#tab-verdict', 'role')).resolves.toBe('tabpanel');
    await page.focus('#tab-button-verdict');
    await page.keyboard.press('ArrowRight');
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('tab-button-map');
    await expect(page.getAttribute('#tab-button-map', 'aria-selected')).resolves.toBe('true');
    await expect(page.isVisible('#tab-map')).resolves.toBe(true);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    // wraps round to the last visible tab (the lowered core is hidden for BabyCUDA)
    await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('tab-button-smt');
    await expect(page.getAttribute('#tab-button-verdict', 'tabindex')).resolves.toBe('-1');
    await expect(page.getAttribute('.cm-content', 'aria-label')).resolves.toBe('Kernel source');
    const hint = await page.getAttribute('.cm-content', 'aria-describedby');
    await expect(page.textContent(`#${hint}`)).resolves.toMatch(/Esc, then Tab/);
    // Esc then Tab leaves the editor, as the hint says
    await page.click('.cm-content');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.classList.contains('cm-content'))).resolves.toBe(false);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => {
        document.getElementById('verdict')!.insertAdjacentHTML(
          'beforeend',
          '<div id="probe"><div class="witness"><table><tr><td class="t1">1</td><td class="t2">2</td></tr></table></div><span class="label possible">possible</span><span class="label benign">benign</span><span class="label confirmed">confirmed</span></div>',
        );
      });
      for (const sel of ['#probe .t2', '#probe .t1', '#probe .label.possible', '#probe .label.benign', '#probe .label.confirmed']) {
        expect(await contrastOf(page, sel), `${sel} (${scheme})`).toBeGreaterThanOrEqual(4.5);
      }
      await page.evaluate(() => document.getElementById('probe')!.remove());
    }
    await page.close();
  });

  it('8: a phone gets one pane at a time and every tab on screen; dark when the system is; screenshots', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const wide = await pg.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: scheme });
      await wide.goto(pg.url);
      await wide.waitForSelector('body[data-page=ready]');
      await wide.click('#verify');
      expect(await verdict(wide)).toBe('racy');
      const background = await wide.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.querySelector('.cm-editor')!).backgroundColor]);
      if (scheme === 'dark') for (const c of background) expect(c).toBe('rgb(30, 30, 30)');
      else for (const c of background) expect(c).toBe('rgb(255, 255, 255)');
      expect(await contrastOf(wide, '.cm-content')).toBeGreaterThanOrEqual(4.5);
      await wide.screenshot({ path: join(pg.shots, `1280x800-${scheme}.png`) });
      await wide.close();

      const phone = await pg.browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: scheme, isMobile: true, hasTouch: true });
      await phone.goto(pg.url);
      await phone.waitForSelector('body[data-page=ready]');
      const overflow = (): Promise<number> => phone.evaluate(() => document.documentElement.scrollWidth);
      expect(await overflow()).toBeLessThanOrEqual(390);
      const editorWidth = await phone.evaluate(() => document.getElementById('editor')!.getBoundingClientRect().width);
      expect(editorWidth).toBeGreaterThanOrEqual(370);
      await expect(phone.isVisible('#results')).resolves.toBe(false);
      await phone.screenshot({ path: join(pg.shots, `390x844-${scheme}-editor.png`) });
      // Verify shows the result pane
      await phone.click('#verify');
      expect(await verdict(phone)).toBe('racy');
      await expect(phone.isVisible('#editor')).resolves.toBe(false);
      const tabs = await phone.evaluate(() => [...document.querySelectorAll('.tabs button:not([hidden])')].map((b) => b.getBoundingClientRect().right));
      expect(tabs.length).toBe(4);
      for (const right of tabs) expect(right).toBeLessThanOrEqual(390);
      expect(await overflow()).toBeLessThanOrEqual(390);
      await phone.screenshot({ path: join(pg.shots, `390x844-${scheme}-result.png`) });
      await phone.click('#panes button[data-pane=editor]');
      await expect(phone.isVisible('#editor')).resolves.toBe(true);
      await phone.close();
    }
  });

  it('9: the server compresses (brotli, gzip) and answers an unchanged file with 304 by its ETag', async () => {
    const z3Script = `assets/${pg.built.worker.z3Script}`;
    const br = await fetch(`${pg.url}${z3Script}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(br.headers.get('content-encoding')).toBe('br');
    const etag = br.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    expect(await br.text()).toBe(await readFile(join(pg.site, z3Script), 'utf8'));
    const gz = await fetch(`${pg.url}${pg.built.main}`, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    const again = await fetch(`${pg.url}${z3Script}`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': etag! } });
    expect(again.status).toBe(304);
    // the browser gets the page compressed
    const page = await pg.browser.newPage();
    const response = await page.goto(`${pg.url}${pg.built.main}`);
    expect(['br', 'gzip']).toContain((await response!.allHeaders())['content-encoding']);
    await page.close();
  });

  it('features: Suggest a fix applies the proved repair (undoable), JSON and SARIF downloads, the command line, the versions', async () => {
    const context = await pg.browser.newContext();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: pg.url.replace(/\/$/, '') });
    const page = await opened(pg.url, context);
    await page.selectOption('#examples', 'fix/two-phases.bcu');
    const original = await editorText(page);
    await page.click('#fix');
    await page.waitForSelector('#verdict[data-status=fix]', { timeout: 90_000 });
    await expect(page.textContent('.fix-kernels li[data-outcome=fixed]')).resolves.toContain('2 barriers inserted (the fewest)');
    const diff = (await page.textContent('#verdict pre.diff')) ?? '';
    expect(diff.match(/^\+ {2}sync;$/gm)?.length).toBe(2);
    await page.click('#apply-fix');
    expect((await editorText(page)).match(/^ {2}sync;$/gm)?.length).toBe(2);
    await page.click('.cm-content');
    await page.keyboard.press('Control+z');
    expect(await editorText(page)).toBe(original);
    await page.keyboard.press('Control+y');
    expect((await editorText(page)).match(/^ {2}sync;$/gm)?.length).toBe(2);
    await page.click('#verify');
    expect(await verdict(page)).toBe('drf');
    for (const [format, check] of [
      ['json', (v: { kernels: { status: string }[] }) => expect(v.kernels.map((k) => k.status)).toEqual(['drf'])],
      ['sarif', (v: { version: string }) => expect(v.version).toBe('2.1.0')],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`#verdict .download[data-format=${format}]`)]);
      expect(download.suggestedFilename()).toBe(`two-phases.${format}`);
      check(JSON.parse(await readFile((await download.path())!, 'utf8')) as never);
    }
    await page.click('#copy-command');
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe('npx faial-ts verify --replay --timeout 10000 two-phases.bcu');
    await expect(page.textContent('#versions')).resolves.toMatch(/^faial-ts \d+\.\d+\.\d+ · Z3 \d+\.\d+\.\d+$/);
    // fix rewrites BabyCUDA only, as the command line says
    await pasteOverAll(page, RENAMED);
    await page.click('#fix');
    await expect(page.locator('#verdict .usage').textContent()).resolves.toContain('fix rewrites BabyCUDA (.bcu) files; kernel.cu is CUDA C');
    await context.close();
  });

  it('10: the built folder verifies from a plain static server (its service worker isolates the page), and says how to fix it where it cannot', async () => {
    const plain = await plainStaticServer(pg.site);
    try {
      const res = await fetch(urlOf(plain));
      expect(res.headers.get('cross-origin-embedder-policy')).toBeNull();
      const page = await opened(urlOf(plain));
      await expect(page.getAttribute('body', 'data-isolation')).resolves.toBe('service-worker');
      expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
      await page.click('#verify');
      expect(await verdict(page)).toBe('racy');
      await page.close();

      // where the browser allows no service worker: a message that says what to do, with a link, and nothing to press
      const blocked = await pg.browser.newContext({ serviceWorkers: 'block' });
      const dead = await opened(urlOf(plain), blocked);
      await expect(dead.getAttribute('body', 'data-isolation')).resolves.toBe('none');
      await expect(dead.isDisabled('#verify')).resolves.toBe(true);
      await expect(dead.getAttribute('#verdict', 'data-status')).resolves.toBe('unavailable');
      const text = (await dead.textContent('#verdict')) ?? '';
      expect(text).not.toContain('press Verify');
      expect(text).toContain('Cross-Origin-Embedder-Policy: require-corp');
      await expect(dead.getAttribute('#verdict .unavailable a', 'href')).resolves.toMatch(/^https:\/\//);
      await expect(dead.textContent('#status')).resolves.toContain('not cross-origin isolated');
      await blocked.close();
    } finally {
      await new Promise((resolve) => plain.close(resolve));
    }
  });
});

if (CHROMIUM === null) it.skip(NO_CHROMIUM, () => undefined);
