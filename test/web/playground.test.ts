/**
 * The playground end to end in headless Chromium: the built site served with
 * its COOP/COEP headers, a person's steps (Verify, examples, Ctrl-Enter, a
 * syntax error, a permalink, Stop, the stages' tabs, the warp size), a screenshot of each
 * state in test-output/playground/.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../src/api/check.js';
import { UsageError, warpSizeOf } from '../../src/api/options.js';
import { loweredProgram } from '../../src/api/stages.js';
import { cudaFrontEnds } from '../../src/api/cuda.js';
import { cudaGrammar } from '../../src/cli/cuda.js';
import { positionAt } from '../../src/core/source.js';
import { LOCKSTEP_ONLY_TEXT } from '../../src/report/describe.js';
import { CHROMIUM, NO_CHROMIUM } from '../support/browser.js';
import { playgroundForTests, typeOverAll, verdict } from './steps.js';

const BROKEN = `kernel broken(N) {
  shared A;
  for i in 0..N {
    A[i] := 1
  }
  A[0] = 2
}
`;

/** What the CLI prints for `verify --warp-size TEXT`, or null when it takes it. */
function warpSizeUsage(text: string): string | null {
  try {
    warpSizeOf(text, undefined);
    return null;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    return `error: ${e.message}`;
  }
}

describe.skipIf(CHROMIUM === null)('playground in headless Chromium', () => {
  const pg = playgroundForTests('playground');

  async function opened(at = pg.url): Promise<Page> {
    const page = await pg.browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(at);
    await page.waitForSelector('body[data-page=ready]');
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
    return page;
  }

  it('serves every file with the cross-origin isolation headers', async () => {
    for (const file of ['', 'sw.js', pg.built.main, pg.built.page.worker, `assets/${pg.built.worker.z3Script}`, `assets/${pg.built.worker.z3Wasm}`]) {
      const res = await fetch(pg.url + file, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(res.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    }
    expect((await fetch(`${pg.url}..%2Fpackage.json`)).status).toBeGreaterThanOrEqual(400);
  });

  it('verifies Figure 3: a confirmed race, both accesses marked in two colours, the witness, replayed', async () => {
    const page = await opened();
    const figure3 = await readFile('examples/paper/figure3.bcu', 'utf8');
    expect(await page.evaluate(() => document.querySelector('.cm-content')?.textContent)).toBe(figure3.replace(/\n/g, ''));
    const t0 = Date.now();
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    console.log(`Figure 3: verdict ${Date.now() - t0} ms after Verify (page already loaded)`);
    const alarm = page.locator('.alarm[data-label=confirmed]').first();
    await expect(alarm.textContent()).resolves.toContain('data race on A[0]');
    await expect(page.locator('.alarm .witness table tbody tr').first().textContent()).resolves.toContain('threadIdx');
    await expect(page.locator('.alarm .replay.ok').count()).resolves.toBeGreaterThan(0);
    // the read-write race is selected first: one thread's write and the other's read, in their own colours (the witness names either thread first)
    const first = page.locator('.cm-content .cm-access-1');
    const second = page.locator('.cm-content .cm-access-2');
    await expect(first.textContent()).resolves.toBe('A[x]');
    await expect(second.textContent()).resolves.toBe('A[x]');
    const labels = [await first.getAttribute('data-label'), await second.getAttribute('data-label')];
    expect([['write (thread 1)', 'read (thread 2)'], ['read (thread 1)', 'write (thread 2)']]).toContainEqual(labels);
    const colours = await page.evaluate(() => ['.cm-access-1', '.cm-access-2'].map((s) => getComputedStyle(document.querySelector(s)!).backgroundColor));
    expect(colours[0]).not.toBe(colours[1]);
    await page.screenshot({ path: join(pg.shots, '1-figure3-race.png') });

    // the stages' tabs, as infer --phases and smt print them
    await page.click('.tabs button[data-tab=map]');
    await expect(page.locator('#tab-map pre').first().textContent()).resolves.toMatch(/kernel fig3[\s\S]*well-typed: yes[\s\S]*rd A\[x\]/);
    await page.click('.tabs button[data-tab=phases]');
    await expect(page.locator('#tab-phases pre').first().textContent()).resolves.toContain('phase 0');
    await page.click('.tabs button[data-tab=smt]');
    await expect(page.locator('#tab-smt .query pre').first().textContent()).resolves.toContain('(check-sat)');
    await expect(page.locator('#tab-smt .query .copy').count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: join(pg.shots, '2-figure3-smt.png') });
    await page.close();
  });

  it('verifies Figure 4 from the examples menu with Ctrl-Enter: DRF', async () => {
    const page = await opened();
    await page.selectOption('#examples', 'paper/figure4.bcu');
    await page.click('.cm-content');
    await page.keyboard.press('Control+Enter');
    expect(await verdict(page)).toBe('drf');
    await expect(page.locator('.kernel[data-status=drf] .headline').textContent()).resolves.toContain('DRF');
    await expect(page.locator('.alarm').count()).resolves.toBe(0);
    await expect(page.locator('.cm-access-1, .cm-access-2').count()).resolves.toBe(0);
    await page.screenshot({ path: join(pg.shots, '3-figure4-drf.png') });
    await page.close();
  });

  it('verifies a CUDA example that includes a header of its folder, and shows the core program it was lowered to', async () => {
    const example = 'cuda/macros/include-header.cu';
    const text = await readFile(join('examples', example), 'utf8');
    const header = await readFile('examples/cuda/macros/common.cuh', 'utf8');
    // as the page names them: the file by its name, the header beside it
    const lowered = loweredProgram('include-header.cu', text, cudaFrontEnds(await cudaGrammar(), text, {}, (p) => (p === 'common.cuh' ? header : null)));
    if (!lowered.ok) throw new Error('the example does not lower');
    const page = await opened();
    await page.selectOption('#examples', example);
    await expect(page.inputValue('#language')).resolves.toBe('cu');
    await page.click('#verify');
    const status = await verdict(page);
    // the include resolved: the kernels were lowered and verified (until machine integers are encoded, not decided)
    expect(status).not.toBe('error');
    expect(status).not.toBe('crashed');
    await expect(page.locator('.kernel').count()).resolves.toBe(lowered.kernels.length);
    // the launch came from the file's GPUVerify test header, and the page says so as the CLI does
    await expect(page.locator('#verdict .notices .diagnostic[data-code=N0605]').textContent()).resolves.toContain('comes from the GPUVerify test header');
    await page.click('.tabs button[data-tab=core]');
    await page.waitForSelector('#tab-core pre');
    // the tab shows what `faial-ts lower` prints, with the header's macros expanded
    const shown = await page.locator('#tab-core pre').allTextContents();
    expect(shown).toEqual(lowered.kernels.map((k) => k.text));
    expect(shown.join('\n')).toMatch(/shared src_tile\[16\]\[17\];\s+\/\/ include-header\.cu:\d+ \(in expansion of DECLARE_TILE\)/);
    await page.screenshot({ path: join(pg.shots, '3b-cuda-lowered.png') });
    await page.close();
  });

  it('shows a syntax error as the CLI renders it, at its line in the editor', async () => {
    const cli = checkedKernels('kernel.bcu', BROKEN);
    if (cli.ok) throw new Error('the broken kernel parses');
    const line = positionAt(cli.diagnostics[0]!.file, cli.diagnostics[0]!.span.start).line;
    const page = await opened();
    await typeOverAll(page, BROKEN);
    await page.click('#verify');
    expect(await verdict(page)).toBe('error');
    const shown = page.locator('#verdict .diagnostic').first();
    await expect(shown.getAttribute('data-line')).resolves.toBe(String(line));
    await expect(shown.textContent()).resolves.toContain(`${cli.diagnostics[0]!.code}]: ${cli.diagnostics[0]!.message}`);
    // the editor underlines the span, on that line
    const marked = await page.evaluate(() => {
      const range = document.querySelector('.cm-content .cm-lintRange-error');
      const lineEl = range?.closest('.cm-line');
      return lineEl === null || lineEl === undefined ? null : [...document.querySelectorAll('.cm-content .cm-line')].indexOf(lineEl) + 1;
    });
    expect(marked).toBe(line);
    await page.screenshot({ path: join(pg.shots, '4-syntax-error.png') });
    await page.close();
  });

  it('follows a permalink: the same kernel, options and verdict', async () => {
    const page = await opened();
    await page.selectOption('#examples', 'paper/figure3.bcu');
    await page.click('#options summary');
    await page.fill('#opt-block', '4');
    await page.fill('#opt-params', 'M=3');
    await page.waitForFunction(() => location.hash.includes('block=4') && location.hash.includes('params=M'));
    const link = page.url();
    await page.close();

    const followed = await opened(link);
    await expect(followed.getAttribute('#options', 'open')).resolves.toBe('');
    await expect(followed.inputValue('#opt-block')).resolves.toBe('4');
    await expect(followed.inputValue('#opt-params')).resolves.toBe('M=3');
    // a link without a warp size (as every link made before the field) means independent threads
    expect(link).not.toContain('warp=');
    await expect(followed.inputValue('#opt-warp')).resolves.toBe('');
    await expect(followed.inputValue('#language')).resolves.toBe('bcu');
    expect(await followed.evaluate(() => document.querySelector('.cm-content')?.textContent)).toContain('kernel fig3(M)');
    await followed.click('#verify');
    expect(await verdict(followed)).toBe('racy');
    // the fixed launch is part of the verdict and of the witness
    await expect(followed.locator('.kernel .headline').textContent()).resolves.toContain('M = 3, blockDim = 4');
    await expect(followed.locator('.alarm .witness p').first().textContent()).resolves.toContain('M = 3; blockDim = 4');
    await followed.screenshot({ path: join(pg.shots, '5-permalink.png') });
    await followed.close();
  });

  it('verifies with a warp size as `verify --warp-size 32` does: racy with independent threads, DRF in lockstep, and a link keeps it', async () => {
    const example = 'warps/last-warp-loop.bcu';
    const text = await readFile(join('examples', example), 'utf8');
    // the example says what the CLI gives it in each mode (the examples test checks the CLI)
    expect(text).toMatch(/^\/\/ expect: racy confirmed\n\/\/ expect with --arch sm_60 --warp-size 32: drf\n/);
    const page = await opened();
    await page.selectOption('#examples', example);
    await page.click('#options summary');
    await expect(page.inputValue('#opt-warp')).resolves.toBe('');
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    await expect(page.locator('.alarm[data-label=confirmed]').count()).resolves.toBeGreaterThan(0);
    await expect(page.textContent('.kernel .execution')).resolves.toBe('execution: independent threads');
    await page.screenshot({ path: join(pg.shots, '7-warp-independent-racy.png') });

    await page.fill('#opt-warp', '32');
    await page.click('#verify');
    expect(await verdict(page)).toBe('drf');
    await expect(page.locator('.alarm').count()).resolves.toBe(0);
    await expect(page.textContent('.kernel .execution')).resolves.toBe(`execution: warp size 32 (lockstep, which holds only before sm_70). ${LOCKSTEP_ONLY_TEXT}`);
    // as in the text report the page offers
    await expect(page.textContent('.kernel details pre')).resolves.toContain('execution: warp size 32 (lockstep, which holds only before sm_70)');
    await page.screenshot({ path: join(pg.shots, '8-warp-32-drf.png') });
    await page.waitForFunction(() => location.hash.includes('warp=32'));
    const link = page.url();
    await page.close();

    const followed = await opened(link);
    await expect(followed.getAttribute('#options', 'open')).resolves.toBe('');
    await expect(followed.inputValue('#opt-warp')).resolves.toBe('32');
    expect(await followed.evaluate(() => document.querySelector('.cm-content')?.textContent)).toBe(text.replace(/\n/g, ''));
    await followed.click('#verify');
    expect(await verdict(followed)).toBe('drf');
    await expect(followed.textContent('.kernel .execution')).resolves.toBe(`execution: warp size 32 (lockstep, which holds only before sm_70). ${LOCKSTEP_ONLY_TEXT}`);
    await followed.screenshot({ path: join(pg.shots, '9-warp-permalink-drf.png') });
    await followed.close();
  });

  it('reports a warp size the CLI refuses as the CLI words it, and verifies nothing', async () => {
    const page = await opened();
    await page.selectOption('#examples', 'warps/last-warp-loop.bcu');
    await page.click('#options summary');
    for (const [bad, shot] of [['0', '10-warp-size-0.png'], ['2000', '11-warp-size-2000.png']] as const) {
      const usage = warpSizeUsage(bad);
      expect(usage).not.toBeNull();
      await page.fill('#opt-warp', bad);
      await page.click('#verify');
      expect(await verdict(page)).toBe('error');
      await expect(page.textContent('#verdict .usage')).resolves.toBe(usage);
      await expect(page.locator('.kernel').count()).resolves.toBe(0);
      await expect(page.textContent('#status')).resolves.toBe('the options are not valid');
      await page.screenshot({ path: join(pg.shots, shot) });
    }
    // Z3's start, if it ends only now, does not say "ready" over the rejection
    await page.waitForSelector('body[data-z3=ready]');
    await expect(page.textContent('#status')).resolves.toBe('the options are not valid');
    await page.close();
  });

  it('stops a verification: the worker is ended, nothing is reported, and the next Verify works', async () => {
    const page = await opened();
    // both clicks in one task of the page: the worker's answer, a later task, cannot come between them however fast it is
    await page.evaluate(() => {
      document.getElementById('verify')!.click();
      document.getElementById('stop')!.click();
    });
    await expect(page.getAttribute('#verdict', 'data-status')).resolves.toBe('stopped');
    await expect(page.textContent('#status')).resolves.toBe('stopped');
    await page.waitForTimeout(1500);
    // no late result from the ended worker
    await expect(page.getAttribute('#verdict', 'data-status')).resolves.toBe('stopped');
    await page.click('#verify');
    expect(await verdict(page)).toBe('racy');
    // by now the stopped run would have finished too, had its worker not been ended
    await expect(page.getAttribute('body', 'data-stale-messages')).resolves.toBeNull();
    await page.screenshot({ path: join(pg.shots, '6-after-stop.png') });
    await page.close();
  });

  it('reports bad options beside the run, as the CLI words them', async () => {
    const page = await opened();
    await page.click('#options summary');
    await page.fill('#opt-params', 'N=4');
    await page.click('#verify');
    expect(await verdict(page)).toBe('error');
    await expect(page.textContent('#verdict .usage')).resolves.toContain("-p N: kernel fig3 has no parameter 'N'");
    await page.close();
  });
});

if (CHROMIUM === null) it.skip(NO_CHROMIUM, () => undefined);
