/**
 * A language client for the tests: spawns `faial-ts lsp` (from the sources,
 * through tsx) and talks to it over stdio with vscode-jsonrpc, collecting
 * the diagnostics it publishes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node.js';
import type { ClientCapabilities, Diagnostic, InitializeResult, PublishDiagnosticsParams } from 'vscode-languageserver';

export interface TestClient {
  readonly connection: MessageConnection;
  readonly child: ChildProcess;
  /** every publishDiagnostics received, in order */
  readonly published: PublishDiagnosticsParams[];
  /** the next diagnostics published for `uri` after this call (that `accept` takes) */
  nextDiagnostics(uri: string, accept?: (ds: readonly Diagnostic[]) => boolean): Promise<Diagnostic[]>;
  /** `initialize` (the workspace folder `root`, the client's capabilities and the server's settings), then `initialized` */
  initialize(root: string, capabilities: ClientCapabilities, settings: unknown): Promise<InitializeResult>;
  /** a new version number for a document opened or changed */
  version(): number;
  /** opens a document with `text` (the file itself need not exist) and waits for its diagnostics */
  open(path: string, text: string): Promise<Diagnostic[]>;
  close(): Promise<void>;
}

export const uriOf = (path: string): string => pathToFileURL(path).href;

export function startServer(args: readonly string[] = [], env: NodeJS.ProcessEnv = {}): TestClient {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/lsp/serve.ts', 'lsp', '--stdio', ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => void (stderr = (stderr + d).slice(-4000)));
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) process.stderr.write(`faial-ts lsp exited with ${code}: ${stderr}\n`);
  });
  const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const published: PublishDiagnosticsParams[] = [];
  const waiting: { uri: string; accept: (ds: readonly Diagnostic[]) => boolean; resolve: (ds: Diagnostic[]) => void }[] = [];
  connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
    published.push(p);
    const i = waiting.findIndex((w) => w.uri === p.uri && w.accept(p.diagnostics));
    if (i >= 0) waiting.splice(i, 1)[0]!.resolve(p.diagnostics);
  });
  // the server logs through window/logMessage; a test that fails shows it
  connection.onNotification('window/logMessage', (p: { message: string }) => void (stderr += `${p.message}\n`));
  connection.onRequest('window/workDoneProgress/create', () => null);
  connection.listen();
  let version = 1;
  const nextDiagnostics: TestClient['nextDiagnostics'] = (uri, accept = () => true) => new Promise((resolve) => waiting.push({ uri, accept, resolve }));
  return {
    connection,
    child,
    published,
    nextDiagnostics,
    initialize: async (root, capabilities, settings) => {
      const init: InitializeResult = await connection.sendRequest('initialize', { processId: process.pid, rootUri: uriOf(root), capabilities, initializationOptions: settings });
      await connection.sendNotification('initialized', {});
      return init;
    },
    version: () => version++,
    open: async (path, text) => {
      const uri = uriOf(path);
      const published = nextDiagnostics(uri);
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'faial', version: version++, text } });
      return published;
    },
    close: async () => {
      await connection.sendRequest('shutdown').catch(() => undefined);
      connection.sendNotification('exit').catch(() => undefined);
      await new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.on('exit', () => resolve())));
      connection.dispose();
    },
  };
}
