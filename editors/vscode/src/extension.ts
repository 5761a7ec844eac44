/**
 * The VS Code client of faial-ts: starts the language server bundled with
 * the extension (`server/bin/faial-ts.js lsp`) for CUDA and BabyCUDA files,
 * passes it the `faial-ts.*` settings (it asks for them through
 * workspace/configuration and is told when they change), and adds the
 * command "faial-ts: Verify file".
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

/** The server's command that verifies a document now (src/cli/lsp/server.ts). */
const SERVER_VERIFY = 'faial-ts.verify';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const module = context.asAbsolutePath('server/bin/faial-ts.js');
  const serverOptions: ServerOptions = {
    run: { module, args: ['lsp'], transport: TransportKind.stdio },
    debug: { module, args: ['lsp'], transport: TransportKind.stdio },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'babycuda' },
      { scheme: 'file', language: 'cuda-cpp' },
      { scheme: 'file', pattern: '**/*.{cu,cuh,bcu}' },
    ],
    synchronize: { configurationSection: 'faial-ts' },
  };
  client = new LanguageClient('faial-ts', 'faial-ts', serverOptions, clientOptions);
  context.subscriptions.push(
    vscode.commands.registerCommand('faial-ts.verifyFile', async () => {
      const editor = vscode.window.activeTextEditor;
      if (editor === undefined || client === undefined) return;
      await client.sendRequest('workspace/executeCommand', { command: SERVER_VERIFY, arguments: [editor.document.uri.toString()] });
    }),
  );
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
