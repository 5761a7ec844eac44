/**
 * `faial-ts lsp` verifies in worker threads: while one document's kernel
 * takes seconds of verification that never yields (a kernel of 800
 * accesses, decided by the simplifier alone), the server answers hovers and
 * verifies other documents, and a change to the document ends that
 * verification at once (its worker is stopped) without publishing anything
 * of it. And the progress it reports names the file and each kernel.
 *
 * The times compared are relative to the slow kernel's own duration,
 * measured in the same run, never absolute: a server that verified on its
 * own thread would answer the hover only once the kernel is done.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Diagnostic, Hover } from 'vscode-languageserver';
import { cliResult } from '../../src/cli/main.js';
import { CANCEL_GRACE_MS } from '../../src/cli/lsp/workers.js';
import { startServer, uriOf, type TestClient } from './client.js';

interface ProgressValue {
  readonly kind: 'begin' | 'report' | 'end';
  readonly title?: string;
  readonly message?: string;
}

interface Heard {
  readonly at: number;
  readonly token: string | number;
  readonly value: ProgressValue;
}

let client: TestClient;
let dir: string;
const progress: Heard[] = [];
const waiters: { accept: (h: Heard) => boolean; resolve: (h: Heard) => void }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-lsp-worker-'));
  client = startServer();
  client.connection.onNotification('$/progress', (p: { token: string | number; value: ProgressValue }) => {
    const heard = { at: performance.now(), ...p };
    progress.push(heard);
    for (const w of [...waiters]) {
      if (w.accept(heard)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(heard);
      }
    }
  });
  await client.initialize(dir, { window: { workDoneProgress: true } }, { debounceMs: 50 });
}, 120_000);

afterAll(async () => {
  await client.close();
  await rm(dir, { recursive: true, force: true });
});

/** The next progress notification `accept` takes, from now on. */
const heard = (accept: (h: Heard) => boolean): Promise<Heard> => new Promise((resolve) => waiters.push({ accept, resolve }));
const reports = (pattern: RegExp) => (h: Heard): boolean => h.value.kind === 'report' && pattern.test(h.value.message ?? '');

/** The document's diagnostics once opened, and when they came. */
async function opened(path: string, text: string): Promise<{ at: number; diagnostics: Diagnostic[] }> {
  const diagnostics = await client.open(path, text);
  return { at: performance.now(), diagnostics };
}

/** The clock ticks of CPU a process has used (Linux: utime + stime of /proc/PID/stat). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** What /proc counts in (USER_HZ). */
const TICKS_PER_SECOND = 100;

const racy = (name: string): string => `kernel ${name}() {\n  shared A;\n  A[0] := tid\n}\n`;
const messages = (ds: readonly Diagnostic[]): string[] => ds.map((d) => d.message.split(' (')[0]!);

/** A document of two kernels: `slow`, of 800 accesses the simplifier decides (seconds, without a turn of the event loop), then a racy `after`. */
async function slowText(slow: string): Promise<string> {
  const generated = (await cliResult(['gen', 'accesses', '--size', '800'])).stdout.replace(/^\/\/.*\n/gm, '');
  return `${generated.replace('accesses_800', slow)}\n${racy('after')}`;
}

describe('faial-ts lsp in worker threads', () => {
  it('answers a hover and verifies another document while a slow kernel verifies, and a change stops that verification at once', async () => {
    // two documents at once: both workers started
    const [h, warm] = await Promise.all([opened(join(dir, 'h.bcu'), racy('h')), opened(join(dir, 'warm.bcu'), racy('warm'))]);
    expect(messages(h.diagnostics)).toEqual(['data race on A[0] in kernel h']);
    expect(messages(warm.diagnostics)).toEqual(['data race on A[0] in kernel warm']);

    const slowPath = join(dir, 'slow.bcu');
    const slowUri = uriOf(slowPath);
    const first = heard(reports(/kernel slow_a \(1 of 2\)/));
    const done = client.nextDiagnostics(slowUri);
    const text = await slowText('slow_a');
    const tOpen = performance.now();
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: slowUri, languageId: 'faial', version: client.version(), text } });
    await first;
    const hover: Promise<Hover | null> = client.connection.sendRequest('textDocument/hover', { textDocument: { uri: uriOf(join(dir, 'h.bcu')) }, position: { line: 2, character: 3 } });
    const other = opened(join(dir, 'other.bcu'), racy('other'));
    const hovered = await hover;
    const tHover = performance.now();
    const otherDone = await other;
    expect(messages(await done)).toEqual(['data race on A[0] in kernel after']);
    const slowMs = performance.now() - tOpen;
    expect((hovered?.contents as { value: string }).value).toContain('MAP entry: `wr A[0]`');
    expect(messages(otherDone.diagnostics)).toEqual(['data race on A[0] in kernel other']);
    // both answered within the first half of the slow document's verification, which started before them
    expect(tHover - tOpen).toBeLessThan(slowMs / 2);
    expect(otherDone.at - tOpen).toBeLessThan(slowMs / 2);

    // the same slow kernel under another name (no cache), stopped by a change while it verifies
    const publishedBefore = client.published.length;
    const again = heard(reports(/kernel slow_b \(1 of 2\)/));
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: slowUri, version: client.version() }, contentChanges: [{ text: await slowText('slow_b') }] });
    const started = await again;
    const quick = client.nextDiagnostics(slowUri);
    const tChange = performance.now();
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: slowUri, version: client.version() }, contentChanges: [{ text: racy('quick') }] });
    expect(messages(await quick)).toEqual(['data race on A[0] in kernel quick']);
    expect(performance.now() - tChange).toBeLessThan(slowMs / 2);
    // the worker stopped mid-kernel uses no more time: the kernel had seconds to go
    await new Promise((r) => setTimeout(r, Math.max(0, tChange + CANCEL_GRACE_MS + 500 - performance.now())));
    const ticks = cpuTicks(client.child.pid!);
    await new Promise((r) => setTimeout(r, 2000));
    expect(cpuTicks(client.child.pid!) - ticks).toBeLessThan(TICKS_PER_SECOND / 5);
    // the stopped run's progress ended, before its second kernel, and nothing of it was published
    const stopped = progress.filter((p) => p.token === started.token);
    expect(stopped.at(-1)?.value.kind).toBe('end');
    expect(stopped.some((p) => /\(2 of 2\)/.test(p.value.message ?? ''))).toBe(false);
    expect(client.published.slice(publishedBefore).flatMap((p) => p.diagnostics).some((d) => /kernel (slow_b|after)/.test(d.message))).toBe(false);
    // the worker stopped mid-kernel was replaced: two documents still verify at once
    const [x, y] = await Promise.all([opened(join(dir, 'x.bcu'), racy('x')), opened(join(dir, 'y.bcu'), racy('y'))]);
    expect([...messages(x.diagnostics), ...messages(y.diagnostics)]).toEqual(['data race on A[0] in kernel x', 'data race on A[0] in kernel y']);
  });

  it('reports progress naming the file, by its path from the workspace folder, and each kernel in turn', async () => {
    const sub = join(dir, 'sub');
    await mkdir(sub, { recursive: true });
    const path = join(sub, 'two.bcu');
    const name = relative(dir, path);
    const begun = heard((h) => h.value.kind === 'begin' && (h.value.message ?? '').includes('two.bcu'));
    await opened(path, `${racy('first')}\n${racy('second')}`);
    const begin = await begun;
    await new Promise((r) => setTimeout(r, 100));
    const run = progress.filter((p) => p.token === begin.token).map((p) => [p.value.kind, p.value.title ?? null, p.value.message ?? null]);
    expect(run).toEqual([
      ['begin', 'faial-ts', `verifying ${name}`],
      ['report', null, `verifying ${name}: kernel first (1 of 2)`],
      ['report', null, `verifying ${name}: kernel second (2 of 2)`],
      ['end', null, null],
    ]);
  });
});
