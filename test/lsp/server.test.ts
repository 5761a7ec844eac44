/**
 * `faial-ts lsp` end to end: the real server in a child process, driven over
 * stdio with vscode-jsonrpc as an editor would, its answers compared with
 * what `verify --json` says about the same files.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CodeAction, Diagnostic, Hover, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { cliResult } from '../../src/cli/main.js';
import { startServer, uriOf, type TestClient } from './client.js';

interface ProgressValue {
  readonly kind: 'begin' | 'report' | 'end';
  readonly message?: string;
}

let client: TestClient;
const progress: { token: string | number; value: ProgressValue }[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faial-lsp-'));
  client = startServer();
  client.connection.onNotification('$/progress', (p: { token: string | number; value: ProgressValue }) => void progress.push(p));
  const init = await client.initialize(process.cwd(), { window: { workDoneProgress: true } }, { debounceMs: 50 });
  expect(init.capabilities.hoverProvider).toBe(true);
}, 120_000);

afterAll(async () => {
  await client.close();
  await rm(dir, { recursive: true, force: true });
});

const opened = (path: string, text: string): Promise<Diagnostic[]> => client.open(path, text);

const alarmCodes = new Set(['faial/data-race', 'faial/barrier-divergence']);

interface JsonRange {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

const rangeOf = (r: JsonRange) => ({ start: { line: r.line - 1, character: r.column - 1 }, end: { line: r.endLine - 1, character: r.endColumn - 1 } });

interface VerifyJson {
  kernels: {
    races: { confidence: string; benign?: boolean; accesses: JsonRange[]; witness: { blockDim: number[] } }[];
    divergences: (JsonRange & { confidence: string })[];
    errors: (JsonRange & { code: string })[];
    warnings?: (JsonRange & { code: string })[];
  }[];
}

async function verifyJson(path: string): Promise<VerifyJson> {
  const r = await cliResult(['verify', '--json', path]);
  return JSON.parse(r.stdout) as VerifyJson;
}

describe('faial-ts lsp', () => {
  // every file of examples/cuda/reductions/ (the measure of done), and BabyCUDA figures and a divergence
  const reductions = readdirSync('examples/cuda/reductions').filter((f) => f.endsWith('.cu')).map((f) => `examples/cuda/reductions/${f}`);
  for (const example of [...reductions, 'examples/paper/figure3.bcu', 'examples/paper/figure4.bcu', 'examples/divergence/bounds-guard-sync.bcu']) {
    it(`publishes for ${example} the alarms verify --json reports, at the same spans`, async () => {
      const path = resolve(example);
      const diagnostics = await opened(path, await readFile(path, 'utf8'));
      const json = await verifyJson(example);
      const expected = json.kernels.flatMap((k) => [
        ...k.races.map((race) => ({
          code: 'faial/data-race',
          severity: race.benign === true ? 3 : race.confidence === 'confirmed' ? 1 : 2,
          range: rangeOf(race.accesses[0]!),
          related: [rangeOf(race.accesses[1]!)],
        })),
        ...k.divergences.map((d) => ({ code: 'faial/barrier-divergence', severity: d.confidence === 'confirmed' ? 1 : 2, range: rangeOf(d), related: [] })),
      ]);
      const alarms = diagnostics
        .filter((d) => alarmCodes.has(String(d.code)))
        .map((d) => ({ code: d.code, severity: d.severity, range: d.range, related: (d.relatedInformation ?? []).map((r) => r.location.range) }));
      const order = (xs: typeof expected) => [...xs].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      expect(order(alarms as typeof expected)).toEqual(order(expected));
      // a DRF file has nothing to warn about; a racy one carries its witness in the message
      if (/figure4|reduce2-sequential\.cu/.test(example)) expect(expected).toEqual([]);
      // an operation outside the scope that some launch may reach is a warning, DRF or not, as verify --json's warnings say
      const warned = json.kernels.flatMap((k) => (k.warnings ?? []).map((w) => [w.code, w.line - 1, w.column - 1]));
      expect(diagnostics.filter((d) => d.code === 'W0801').map((d) => [d.code, d.range.start.line, d.range.start.character])).toEqual(warned.filter((w) => w[0] === 'W0801'));
      if (expected.length === 0) expect(diagnostics.filter((d) => (d.severity === 1 || d.severity === 2) && d.code !== 'W0801')).toEqual([]);
      for (const race of json.kernels.flatMap((k) => k.races)) {
        expect(diagnostics.some((d) => d.message.includes('witness: ') && d.message.includes(`blockDim = ${race.witness.blockDim[0]}`))).toBe(true);
      }
      // closed, so that the settings' changes below do not verify it again
      await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: uriOf(path) } });
    });
  }

  it('verifies the text as edited, not the file on disk, and publishes the new diagnostics after a change', async () => {
    const path = join(dir, 'edited.bcu');
    const text = 'kernel k() {\n  shared A;\n  if (tid = 0) { A[0] := tid } else { skip }\n}\n';
    expect(await opened(path, text)).toEqual([]);
    const uri = uriOf(path);
    const racy = client.nextDiagnostics(uri);
    // an incremental change: the guard removed, so that every thread writes A[0]
    const start = text.indexOf('if (tid');
    const end = text.indexOf('}\n}');
    const range = { start: { line: 2, character: start - text.indexOf('  if') }, end: { line: 2, character: end + 1 - text.indexOf('  if') } };
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: client.version() }, contentChanges: [{ range, text: 'A[0] := tid' }] });
    const after = await racy;
    expect(after.map((d) => [d.code, d.severity, d.range.start.line, d.range.start.character])).toEqual([['faial/data-race', 1, 2, 2]]);
    expect(after[0]!.message).toContain('data race on A[0] in kernel k (write-write, confirmed)');
  });

  it('puts a syntax error where verify --json puts it, with its code', async () => {
    const path = join(dir, 'syntax.bcu');
    const text = 'kernel k() {\n  shared A;\n  A[0] := \n}\n';
    await writeFile(path, text);
    const diagnostics = await opened(path, text);
    const [error] = (await verifyJson(path)).kernels[0]!.errors;
    expect(diagnostics.map((d) => ({ code: d.code, severity: d.severity, range: d.range }))).toEqual([{ code: error!.code, severity: 1, range: rangeOf(error!) }]);
    expect(diagnostics[0]!.message).toContain('syntax error');
  });

  it("publishes a race in an included header on the header's document, and reads includes from the document's directory", async () => {
    const header = join(dir, 'h.cuh');
    await writeFile(header, '__global__ void hk(int *a) {\n  a[0] = threadIdx.x;\n}\n');
    const main = join(dir, 'main.cu');
    const onHeader = client.nextDiagnostics(uriOf(header), (ds) => ds.some((d) => d.code === 'faial/data-race'));
    const own = await opened(main, '#include "h.cuh"\n__global__ void k(int *a) { if (threadIdx.x == 0) a[0] = 1; }\n');
    expect(own.filter((d) => alarmCodes.has(String(d.code)))).toEqual([]);
    const inHeader = await onHeader;
    expect(inHeader.filter((d) => d.code === 'faial/data-race').map((d) => [d.range.start.line, d.range.start.character, d.message.split(' (')[0]])).toEqual([[1, 2, 'data race on a[0] in kernel hk']]);
  });

  it("verifies a .cu file with the editor's unsaved text of an open header, again as the header changes, and with the disk's once it closes", async () => {
    const header = join(dir, 'hdr', 'idx.cuh');
    const main = join(dir, 'hdr', 'main.cu');
    await mkdir(join(dir, 'hdr'), { recursive: true });
    // on disk, each thread writes its own element
    await writeFile(header, '#define IDX threadIdx.x\n');
    const races = (ds: readonly Diagnostic[]) => ds.filter((d) => d.code === 'faial/data-race').length;
    expect(races(await opened(main, '#include "idx.cuh"\n__global__ void k(int *a) {\n  a[IDX] = 1;\n}\n'))).toBe(0);
    const mainUri = uriOf(main);
    const headerUri = uriOf(header);
    const next = (count: number) => client.nextDiagnostics(mainUri, (ds) => races(ds) === count);
    // the editor holds another text: every thread writes a[0]
    let racy = next(1);
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: headerUri, languageId: 'cuda-cpp', version: client.version(), text: '#define IDX 0\n' } });
    expect((await racy).filter((d) => d.code === 'faial/data-race').map((d) => [d.range.start.line, d.message.split(' (')[0]])).toEqual([[2, 'data race on a[0] in kernel k']]);
    const drf = next(0);
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: headerUri, version: client.version() }, contentChanges: [{ text: '#define IDX threadIdx.x\n' }] });
    await drf;
    racy = next(1);
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri: headerUri, version: client.version() }, contentChanges: [{ text: '#define IDX 0\n' }] });
    await racy;
    // closed unsaved: the disk's text again
    const closed = next(0);
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: headerUri } });
    await closed;
  });

  it('does not read an open header outside the include roots', async () => {
    const outside = join(dir, 'hdr', 'outside.cuh');
    const far = join(dir, 'hdr', 'sub', 'far.cu');
    // only the editor holds it, and it is above the including file's directory (its include root)
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: uriOf(outside), languageId: 'cuda-cpp', version: client.version(), text: '#define OUT 1\n' } });
    const diagnostics = await opened(far, '#include "../outside.cuh"\n__global__ void k(int *a) {\n  a[threadIdx.x] = OUT;\n}\n');
    expect(diagnostics.map((d) => d.message.split('\n')[0])).toContain("'../outside.cuh' is outside the include roots: not read");
  });

  it('hovers on an access with its MAP entry, phase and data dependence, and on a barrier with the phases it separates', async () => {
    const reduce = resolve('examples/reductions/reduce-missing-sync.bcu');
    await opened(reduce, await readFile(reduce, 'utf8'));
    const hover = (path: string, line: number, character: number): Promise<Hover | null> => client.connection.sendRequest('textDocument/hover', { textDocument: { uri: uriOf(path) }, position: { line, character } });
    const valueOf = (h: Hover | null): string => (h === null ? '' : (h.contents as { value: string }).value);
    const barrier = await hover(reduce, 11, 3);
    expect(valueOf(barrier)).toContain('`sync`: a barrier among the threads of a block');
    expect(valueOf(barrier)).toContain('ends phase 0 (from the start to the sync at 12:3)');
    expect(valueOf(barrier)).toContain('opens phase 1 (from the sync at 12:3 to the end)');
    const read = await hover(reduce, 15, 17);
    expect(valueOf(read)).toContain('MAP entry: `rd sdata[tid + s]`');
    expect(valueOf(read)).toContain('in phase 1');
    expect(valueOf(read)).toContain('index: not data-dependent');
    expect(read?.range).toEqual({ start: { line: 15, character: 14 }, end: { line: 15, character: 28 } });
    const scatter = resolve('examples/data-dependent/scatter.bcu');
    const text = await readFile(scatter, 'utf8');
    await opened(scatter, text);
    const at = TextDocument.create('x', 'x', 0, text).positionAt(text.indexOf('dst[j] :=') + 1);
    const write = await hover(scatter, at.line, at.character);
    expect(valueOf(write)).toContain('MAP entry: `wr dst[j]`');
    expect(valueOf(write)).toMatch(/index: data-dependent on `j` \(read from idx at \d+:\d+\)/);
    expect(await hover(reduce, 0, 0)).toBeNull();
  });

  it("offers fix's proved repair as a quick fix, and the repaired text verifies without alarms", async () => {
    const path = resolve('examples/reductions/reduce-missing-sync.bcu');
    const text = await readFile(path, 'utf8');
    const diagnostics = await opened(path, text);
    const races = diagnostics.filter((d) => d.code === 'faial/data-race');
    expect(races.length).toBeGreaterThan(0);
    const actions: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri: uriOf(path) },
      range: races[0]!.range,
      context: { diagnostics: races },
    });
    expect(actions.map((a) => a.title)).toEqual(['faial-ts: insert 1 barrier in kernel reduce_missing_sync (proved DRF)']);
    const edits: TextEdit[] = actions[0]!.edit!.changes![uriOf(path)]!;
    const repaired = TextDocument.applyEdits(TextDocument.create(uriOf(path), 'faial', 0, text), edits);
    expect(repaired).toContain('};\n    sync\n  };');
    const uri = uriOf(path);
    const after = client.nextDiagnostics(uri);
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: client.version() }, contentChanges: [{ text: repaired }] });
    expect((await after).filter((d) => alarmCodes.has(String(d.code)))).toEqual([]);
    // a DRF kernel gets no action
    const none: CodeAction[] = await client.connection.sendRequest('textDocument/codeAction', { textDocument: { uri }, range: races[0]!.range, context: { diagnostics: [] } });
    expect(none).toEqual([]);
  });

  it('takes settings from the client: a launch that rules the race out, then back; a bad value is said, not applied; Verify file verifies again', async () => {
    const path = join(dir, 'configured.bcu');
    const uri = uriOf(path);
    const text = await readFile('examples/paper/figure3.bcu', 'utf8');
    const races = (ds: readonly Diagnostic[]) => ds.filter((d) => d.code === 'faial/data-race').length;
    expect(races(await opened(path, text))).toBe(2);
    const configure = async (settings: unknown): Promise<Diagnostic[]> => {
      const next = client.nextDiagnostics(uri);
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: { 'faial-ts': settings } });
      return next;
    };
    // one thread per block and one block: no two threads to race
    expect(races(await configure({ blockDim: '1', gridDim: [1, 1, 1] }))).toBe(0);
    const shown = new Promise<{ type: number; message: string }>((done) => client.connection.onNotification('window/showMessage', done));
    expect(races(await configure({ blockDim: 'many' }))).toBe(0);
    expect(await shown).toEqual({ type: 2, message: expect.stringContaining('faial-ts settings: blockDim: blockDim many') });
    expect(races(await configure({ blockDim: null, gridDim: null }))).toBe(2);
    const again = client.nextDiagnostics(uri);
    await client.connection.sendRequest('workspace/executeCommand', { command: 'faial-ts.verify', arguments: [uri] });
    expect(races(await again)).toBe(2);
  });

  it('cancels a verification when the document changes: it stops early and its results are never published', async () => {
    const path = join(dir, 'slow.bcu');
    const uri = uriOf(path);
    const reduce = (await readFile('examples/reductions/reduce-missing-sync.bcu', 'utf8')).replace(/^\/\/.*\n/gm, '');
    const count = 40;
    const slow = Array.from({ length: count }, (_, i) => reduce.replace('reduce_missing_sync', `slow_${i}`)).join('\n');
    const seen = progress.length;
    const started = new Promise<void>((done) => {
      const poll = setInterval(() => {
        if (progress.slice(seen).some((p) => p.value.kind === 'report' && /kernel slow_1 /.test(p.value.message ?? ''))) {
          clearInterval(poll);
          done();
        }
      }, 10);
    });
    const publishedBefore = client.published.length;
    await client.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'faial', version: client.version(), text: slow } });
    await started;
    const quick = client.nextDiagnostics(uri);
    await client.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: client.version() }, contentChanges: [{ text: 'kernel quick() {\n  shared A;\n  A[0] := tid\n}\n' }] });
    const fresh = await quick;
    expect(fresh.map((d) => d.message.split(' (')[0])).toEqual(['data race on A[0] in kernel quick']);
    // the slow run's progress ended before it reached its last kernel
    const slowToken = progress.slice(seen).find((p) => p.value.kind === 'report' && /kernel slow_1 /.test(p.value.message ?? ''))!.token;
    await new Promise((r) => setTimeout(r, 500));
    const slowRun = progress.filter((p) => p.token === slowToken);
    expect(slowRun.at(-1)?.value.kind).toBe('end');
    const reached = slowRun.flatMap((p) => /\((\d+) of (\d+)\)/.exec(p.value.message ?? '') ?? []).filter((_, i) => i % 3 === 1).map(Number);
    expect(Math.max(...reached)).toBeLessThan(count);
    expect(client.published.slice(publishedBefore).filter((p) => p.uri === uri).flatMap((p) => p.diagnostics).some((d) => d.message.includes('slow_'))).toBe(false);
  });
});
