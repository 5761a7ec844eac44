/**
 * `faial-ts lsp`'s code actions besides the alarms' repair, end to end over
 * stdio: "verify with this launch" (a CUDA file's test header or host
 * launch, the settings' launch, every launch), and, with the `barriers`
 * setting, redundant barriers as warnings whose quick fix removes them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CodeAction, Diagnostic, Hover, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { startServer, uriOf, type TestClient } from './client.js';

let client: TestClient;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-lsp-actions-'));
  client = startServer();
  await client.initialize(dir, {}, { debounceMs: 50, barriers: true });
}, 120_000);

afterAll(async () => {
  await client.close();
  await rm(dir, { recursive: true, force: true });
});

const opened = (path: string, text: string): Promise<Diagnostic[]> => client.open(path, text);

const actionsAt = (path: string, diagnostics: readonly Diagnostic[] = [], only?: string[]): Promise<CodeAction[]> =>
  client.connection.sendRequest('textDocument/codeAction', {
    textDocument: { uri: uriOf(path) },
    range: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } },
    context: { diagnostics, ...(only === undefined ? {} : { only }) },
  });

const titles = (actions: readonly CodeAction[]): string[] => actions.map((a) => a.title);
const races = (ds: readonly Diagnostic[]): number => ds.filter((d) => d.code === 'faial/data-race').length;

/** The diagnostics published after the action's command runs, as the editor runs it. */
async function ran(path: string, action: CodeAction): Promise<Diagnostic[]> {
  expect(action.kind).toBe('source.faial-ts.launch');
  const next = client.nextDiagnostics(uriOf(path));
  await client.connection.sendRequest('workspace/executeCommand', { command: action.command!.command, arguments: action.command!.arguments });
  return next;
}

// every thread writes a[0]: a race as soon as a launch has two threads
const KERNEL = '__global__ void k(int *a) {\n  a[0] = threadIdx.x;\n}\n';

describe('faial-ts lsp: verify with this launch', () => {
  it("offers every launch over a test header's or a host launch's, the file's own over the settings', and the settings' back", async () => {
    const headed = join(dir, 'headed.cu');
    expect(races(await opened(headed, `//pass\n//--blockDim=1 --gridDim=1\n${KERNEL}`))).toBe(0);
    const [every] = await actionsAt(headed);
    expect(titles(await actionsAt(headed))).toEqual(['faial-ts: verify for every launch']);
    expect(races(await ran(headed, every!))).toBe(1);
    const [own] = await actionsAt(headed);
    expect(titles([own!])).toEqual(["faial-ts: verify at this file's launch (test header: blockDim = 1, gridDim = 1)"]);
    expect(races(await ran(headed, own!))).toBe(0);

    const hosted = join(dir, 'hosted.cu');
    expect(races(await opened(hosted, `${KERNEL}void run(int *a) {\n  k<<<1, 1>>>(a);\n}\n`))).toBe(0);
    const [anyLaunch] = await actionsAt(hosted);
    expect(titles([anyLaunch!])).toEqual(['faial-ts: verify for every launch']);
    expect(races(await ran(hosted, anyLaunch!))).toBe(1);
    expect(titles(await actionsAt(hosted))).toEqual(["faial-ts: verify at this file's launch (launch of k: blockDim = 1, gridDim = 1)"]);

    // the settings fix a block of 4 threads: over the test header's
    const configured = client.nextDiagnostics(uriOf(headed));
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { 'faial-ts': { blockDim: 4 } } });
    expect(races(await configured)).toBe(1);
    const offered = await actionsAt(headed);
    expect(titles(offered)).toEqual(["faial-ts: verify at this file's launch (test header: blockDim = 1, gridDim = 1)", 'faial-ts: verify for every launch']);
    expect(races(await ran(headed, offered[0]!))).toBe(0);
    const back = await actionsAt(headed);
    expect(titles(back)).toEqual(["faial-ts: verify at the settings' launch (blockDim = 4)", 'faial-ts: verify for every launch']);
    expect(races(await ran(headed, back[0]!))).toBe(1);
    // a client that asks for quick fixes only gets none of these
    expect(await actionsAt(headed, [], ['quickfix'])).toEqual([]);
    expect(titles(await actionsAt(headed, [], ['source']))).toHaveLength(2);
  });
});

describe('faial-ts lsp: redundant barriers', () => {
  it('warns of a barrier proved redundant, says so on hover, and its quick fix removes it', async () => {
    const path = join(dir, 'own.bcu');
    const uri = uriOf(path);
    // each thread reads back only its own element: the barrier orders nothing between threads
    const text = 'kernel own() {\n  shared s;\n  s[tid] := tid;\n  sync;\n  let x = s[tid] in\n  s[tid] := x + 1\n}\n';
    const diagnostics = await opened(path, text);
    const redundant = diagnostics.filter((d) => d.code === 'faial/redundant-barrier');
    expect(redundant.map((d) => [d.severity, d.range.start.line, d.range.start.character])).toEqual([[2, 3, 2]]);
    expect(redundant[0]!.message).toContain('redundant barrier in kernel own: without it the kernel is still proved DRF');
    const hover: Hover | null = await client.connection.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 3, character: 3 } });
    expect((hover?.contents as { value: string }).value).toContain('redundant: without it the kernel is still proved DRF');
    const actions = await actionsAt(path, redundant, ['quickfix']);
    expect(titles(actions)).toEqual(['faial-ts: remove 1 redundant barrier in kernel own (proved DRF)']);
    const edits: TextEdit[] = actions[0]!.edit!.changes![uri]!;
    const repaired = TextDocument.applyEdits(TextDocument.create(uri, 'faial', 0, text), edits);
    expect(repaired).not.toContain('sync');
    const after = client.nextDiagnostics(uri);
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: client.version() }, contentChanges: [{ text: repaired }] });
    expect((await after).filter((d) => d.severity === 1 || d.severity === 2)).toEqual([]);
  });

  it('does not warn of a barrier the kernel needs', async () => {
    // each thread reads its neighbour's element: the barrier orders the write before it
    const text = 'kernel shift() {\n  shared s;\n  s[tid] := tid;\n  sync;\n  if (tid + 1 < blockDim.x) { let x = s[tid + 1] in skip } else { skip }\n}\n';
    const diagnostics = await opened(join(dir, 'shift.bcu'), text);
    expect(diagnostics.filter((d) => d.severity === 1 || d.severity === 2)).toEqual([]);
  });
});
