/**
 * The VS Code extension (editors/vscode/): its manifest agrees with the
 * server's settings and names the language, grammar and command; `npm run
 * package:vscode` builds the .vsix, and the server bundled in it, unpacked
 * alone, starts, answers `initialize` and verifies a file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node.js';
import type { InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver';
import { DEFAULT_SETTINGS } from '../../src/lsp/settings.js';

const run = promisify(execFile);
const EXT = 'editors/vscode';

interface Manifest {
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    languages: { id: string; extensions: string[]; configuration: string }[];
    grammars: { language: string; scopeName: string; path: string }[];
    commands: { command: string; title: string }[];
    configuration: { properties: Record<string, { default: unknown }> };
  };
}

const manifest = async (): Promise<Manifest> => JSON.parse(await readFile(join(EXT, 'package.json'), 'utf8')) as Manifest;

async function mtime(path: string): Promise<number | null> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return null;
  }
}

describe('the VS Code extension', () => {
  it("has a setting for each of the server's, with the server's default", async () => {
    const properties = (await manifest()).contributes.configuration.properties;
    expect(Object.keys(properties).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).map((k) => `faial-ts.${k}`).sort());
    for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) expect(properties[`faial-ts.${key}`]!.default, key).toEqual(value);
  });

  it('declares BabyCUDA with its grammar and language configuration, the Verify file command, and activates on CUDA and BabyCUDA', async () => {
    const m = await manifest();
    expect(m.main).toBe('./dist/extension.js');
    expect(m.activationEvents.sort()).toEqual(['onLanguage:babycuda', 'onLanguage:cuda-cpp']);
    expect(m.contributes.languages).toEqual([expect.objectContaining({ id: 'babycuda', extensions: ['.bcu'] })]);
    expect(m.contributes.commands).toEqual([{ command: 'faial-ts.verifyFile', title: 'faial-ts: Verify file' }]);
    const [grammar] = m.contributes.grammars;
    expect(grammar).toMatchObject({ language: 'babycuda', scopeName: 'source.babycuda' });
    const tm = JSON.parse(await readFile(join(EXT, grammar!.path), 'utf8')) as { scopeName: string; repository: Record<string, { patterns: { name: string; match?: string }[] }> };
    expect(tm.scopeName).toBe('source.babycuda');
    // the keywords of grammar/babycuda.ohm are keywords here (the patterns are plain regular expressions)
    const control = new RegExp(tm.repository['keywords']!.patterns.find((p) => p.name === 'keyword.other.sync.babycuda')!.match!, 'g');
    expect('sync; syncwarp; synced'.match(control)).toEqual(['sync', 'syncwarp']);
    const config = JSON.parse(await readFile(join(EXT, m.contributes.languages[0]!.configuration), 'utf8')) as { comments: { lineComment: string } };
    expect(config.comments.lineComment).toBe('//');
  });

  describe('npm run package:vscode', () => {
    let unpacked: string;

    beforeAll(async () => {
      const built = await mtime('dist/bundle/cli.cjs');
      const sources = await Promise.all(['src/cli/main.ts', 'src/cli/lsp/server.ts', 'src/cli/lsp/lsp-worker.ts', 'scripts/bundle.js'].map(mtime));
      if (built === null || sources.some((s) => s !== null && s > built)) {
        await run('npx', ['tsc', '-p', 'tsconfig.build.json']).catch(() => undefined);
        await run('node', ['scripts/bundle.js']);
      }
      await rm(join(EXT, 'faial-ts.vsix'), { force: true });
      await run('node', ['scripts/package-vscode.js'], { maxBuffer: 16 * 1024 * 1024 });
      unpacked = await mkdtemp(join(tmpdir(), 'faial-vsix-'));
      await run('unzip', ['-q', join(EXT, 'faial-ts.vsix'), '-d', unpacked]);
      return () => rm(unpacked, { recursive: true, force: true });
    }, 300_000);

    it('builds a .vsix with the client, the grammar and the server', async () => {
      for (const file of ['extension/package.json', 'extension/dist/extension.js', 'extension/syntaxes/babycuda.tmLanguage.json', 'extension/server/bin/faial-ts.js', 'extension/server/dist/bundle/cli.cjs', 'extension/server/dist/bundle/cli.cjs.cache']) {
        expect(await mtime(join(unpacked, file)), file).not.toBeNull();
      }
      expect(await mtime(join(unpacked, 'extension/src/extension.ts'))).toBeNull();
    });

    it('has a server that starts from the unpacked extension alone, answers initialize and verifies a file', async () => {
      const child = spawn(process.execPath, [join(unpacked, 'extension/server/bin/faial-ts.js'), 'lsp', '--stdio'], { cwd: unpacked, stdio: ['pipe', 'pipe', 'pipe'] });
      const connection = createMessageConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
      const path = resolve('examples/paper/figure3.bcu');
      const uri = pathToFileURL(path).href;
      // a DRF kernel whose proof needs the solver (a nonlinear index): the bundled Z3 answers
      const solved = pathToFileURL(join(unpacked, 'square.bcu')).href;
      const publications: PublishDiagnosticsParams[] = [];
      const next = (of: string): Promise<PublishDiagnosticsParams> =>
        new Promise((done) => {
          const poll = setInterval(() => {
            const p = publications.find((x) => x.uri === of);
            if (p !== undefined) {
              clearInterval(poll);
              done(p);
            }
          }, 20);
        });
      connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => void publications.push(p));
      connection.listen();
      const init: InitializeResult = await connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {}, initializationOptions: { solver: 'z3-wasm' } });
      expect(init.serverInfo?.name).toBe('faial-ts');
      expect(init.capabilities.hoverProvider).toBe(true);
      await connection.sendNotification('initialized', {});
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'babycuda', version: 1, text: await readFile(path, 'utf8') } });
      const { diagnostics } = await next(uri);
      expect(diagnostics.map((d) => d.code)).toEqual(['faial/data-race', 'faial/data-race']);
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: solved, languageId: 'babycuda', version: 1, text: 'kernel sq(n) {\n  global A;\n  A[tid * tid + n] := 0\n}\n' } });
      expect((await next(solved)).diagnostics).toEqual([]);
      await connection.sendRequest('shutdown');
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      await connection.sendNotification('exit');
      expect(await exited).toBe(0);
      connection.dispose();
    });
  });
});
