/**
 * `faial-ts lsp`: a language server over stdio for `.cu`, `.cuh` and `.bcu`
 * documents. This module is the transport and the bookkeeping; what is said
 * (diagnostics, hover, the repair) is src/lsp/'s, from src/api/'s results.
 *
 * A document is verified when it opens, when it is saved, and when it
 * changes, once typing pauses for `debounceMs` and only while it is at most
 * `maxChangeSize` long. A change cancels the verification in progress (it
 * stops at its next solver check and publishes nothing); results are cached
 * per path, text and settings, so undoing a change publishes at once.
 * Diagnostics in an included header go to the header's document; each
 * document's diagnostics are the union of what every verified file says
 * about it.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver/node.js';
import type { CodeAction, Connection, Diagnostic as LspDiagnostic, Hover, InitializeResult } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isCudaPath } from '../../api/check.js';
import { launchFor } from '../../core/launch.js';
import { fixKernel, type KernelFix } from '../../fix/fix.js';
import { DEFAULT_LIMITS } from '../../fix/search.js';
import { alarmKernel, repairAction } from '../../lsp/actions.js';
import { diagnosticsByPath } from '../../lsp/diagnostics.js';
import { hoverAt } from '../../lsp/hover.js';
import { DEFAULT_SETTINGS, settingsOf, type LspSettings } from '../../lsp/settings.js';
import { solverOf } from '../../solve/backends.js';
import { analysed, cancellable, Cancelled, solverChoiceOf, type Analysis } from './analyse.js';

const { createConnection, MessageType, ProposedFeatures, ShowMessageNotification, StreamMessageReader, StreamMessageWriter, TextDocuments, TextDocumentSyncKind } = lsp;

/** The file extensions the server verifies. */
export const VERIFIED = /\.(cuh?|bcu)$/i;

/** The server's command that verifies the document its argument names now (the editor's "Verify file"). */
export const VERIFY_COMMAND = 'faial-ts.verify';

/** Analyses kept for undo and for documents verified again unchanged. */
const CACHE_SIZE = 32;

/** Races a kernel may have before its repair: fix's own bound (src/cli/fix.ts). */
const FIX_MAX_RACES = 64;

interface Run {
  readonly version: number;
  cancelled: boolean;
}

interface DocumentState {
  /** the verification in progress, or the one scheduled */
  run: Run | null;
  timer: NodeJS.Timeout | null;
  /** the last analysis published for this document */
  analysis: Analysis | null;
  /** the version of the document last given to verify */
  verifying: number | null;
}

const pathOf = (uri: string): string | null => (uri.startsWith('file:') ? fileURLToPath(uri) : null);
const uriOf = (path: string): string => pathToFileURL(path).href;

export function lspCommand(): Promise<number> {
  const connection = createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  const documents = new TextDocuments(TextDocument);
  serve(connection, documents);
  documents.listen(connection);
  connection.listen();
  // the library ends the process on `exit` and when the client's streams close
  return new Promise(() => undefined);
}

function serve(connection: Connection, documents: InstanceType<typeof TextDocuments<TextDocument>>): void {
  let settings: LspSettings = DEFAULT_SETTINGS;
  let root = process.cwd();
  let pullsConfiguration = false;
  let showsProgress = false;
  const states = new Map<string, DocumentState>();
  const cache = new Map<string, Analysis>();
  const fixes = new Map<string, Promise<{ fix: KernelFix; text: string }>>();
  /** per verified document, the diagnostics it gave each document (itself, its headers) */
  const said = new Map<string, Map<string, LspDiagnostic[]>>();

  // a promise nobody awaits must not reject unhandled: Node would end the server
  const background = (work: Promise<unknown>): void => {
    work.catch((e: unknown) => connection.console.error(`faial-ts: ${e instanceof Error ? e.message : String(e)}`));
  };
  const warn = (message: string): void => background(connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }));

  const stateOf = (uri: string): DocumentState => {
    let s = states.get(uri);
    if (s === undefined) {
      s = { run: null, timer: null, analysis: null, verifying: null };
      states.set(uri, s);
    }
    return s;
  };

  const publish = (targets: Iterable<string>): void => {
    for (const target of new Set(targets)) {
      const diagnostics = [...said.values()].flatMap((m) => m.get(target) ?? []);
      background(connection.sendDiagnostics({ uri: target, diagnostics }));
    }
  };

  const setSaid = (uri: string, byUri: Map<string, LspDiagnostic[]> | null): void => {
    const before = [...(said.get(uri)?.keys() ?? [])];
    if (byUri === null) said.delete(uri);
    else said.set(uri, byUri);
    publish([...before, ...(byUri?.keys() ?? [])]);
  };

  const cacheKey = (path: string, text: string): string => JSON.stringify([path, text, settings, root]);

  const remember = (key: string, a: Analysis): void => {
    cache.delete(key);
    cache.set(key, a);
    while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  };

  const cancel = (s: DocumentState): void => {
    if (s.timer !== null) clearTimeout(s.timer);
    s.timer = null;
    if (s.run !== null) s.run.cancelled = true;
    s.run = null;
  };

  const verify = async (doc: TextDocument, fresh = false): Promise<void> => {
    const path = pathOf(doc.uri);
    if (path === null || !VERIFIED.test(path)) return;
    const s = stateOf(doc.uri);
    cancel(s);
    const run: Run = { version: doc.version, cancelled: false };
    s.run = run;
    s.verifying = doc.version;
    const text = doc.getText();
    const key = cacheKey(path, text);
    // the editor's "Verify file" asks again: an included header may have changed on disk
    let analysis = fresh ? null : (cache.get(key) ?? null);
    if (analysis === null) {
      const progress = showsProgress ? await connection.window.createWorkDoneProgress().catch(() => null) : null;
      progress?.begin('faial-ts', 0, `verifying ${path}`, false);
      try {
        analysis = await analysed(path, text, settings, root, run, (kernel, index, total) => progress?.report(Math.round((100 * index) / total), `verifying kernel ${kernel} (${index + 1} of ${total})`));
      } catch (e) {
        if (!(e instanceof Cancelled)) connection.console.error(`faial-ts: verifying ${path} failed: ${e instanceof Error ? e.message : String(e)}`);
        analysis = null;
      } finally {
        progress?.done();
      }
      if (analysis !== null && !run.cancelled) remember(key, analysis);
    }
    // a result for a text the document no longer has, or of a run another replaced, is never published
    if (analysis === null || run.cancelled || s.run !== run || documents.get(doc.uri)?.version !== run.version) return;
    s.run = null;
    s.analysis = analysis;
    const byPath = diagnosticsByPath(analysis.file, uriOf);
    // a header verified alone that defines no kernel says nothing
    if (/\.cuh$/i.test(path) && !analysis.file.ok && analysis.file.diagnostics.every((d) => d.code === 'E0606')) byPath.set(path, []);
    setSaid(doc.uri, new Map([...byPath].map(([p, ds]) => [uriOf(p), ds])));
  };

  const schedule = (doc: TextDocument): void => {
    const s = stateOf(doc.uri);
    cancel(s);
    if (doc.getText().length > settings.maxChangeSize) return;
    s.timer = setTimeout(() => {
      s.timer = null;
      background(verify(doc));
    }, settings.debounceMs);
  };

  const reverifyAll = (): void => {
    for (const doc of documents.all()) background(verify(doc));
  };

  const refreshSettings = async (): Promise<void> => {
    if (!pullsConfiguration) return;
    const [section] = (await connection.workspace.getConfiguration([{ section: 'faial-ts' }]).catch(() => [null])) as unknown[];
    const read = settingsOf(section, settings);
    settings = read.settings;
    for (const p of read.problems) warn(p);
  };

  connection.onInitialize((params): InitializeResult => {
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri;
    const folderPath = folder === null || folder === undefined ? null : pathOf(folder);
    if (folderPath !== null) root = folderPath;
    const read = settingsOf(params.initializationOptions, DEFAULT_SETTINGS);
    settings = read.settings;
    for (const p of read.problems) connection.console.warn(p);
    pullsConfiguration = params.capabilities.workspace?.configuration === true;
    showsProgress = params.capabilities.window?.workDoneProgress === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
        executeCommandProvider: { commands: [VERIFY_COMMAND] },
      },
      serverInfo: { name: 'faial-ts' },
    };
  });

  connection.onInitialized(() => {
    if (!pullsConfiguration) return;
    background(refreshSettings().then(reverifyAll));
  });

  connection.onDidChangeConfiguration((change) => {
    const pushed = (change.settings as Record<string, unknown> | null)?.['faial-ts'];
    if (!pullsConfiguration && pushed !== undefined) {
      const read = settingsOf(pushed, settings);
      settings = read.settings;
      for (const p of read.problems) warn(p);
    }
    background(refreshSettings().then(reverifyAll));
  });

  documents.onDidOpen((e) => background(verify(e.document)));
  documents.onDidChangeContent((e) => {
    // opening a document is a change too; it is verified already
    if (stateOf(e.document.uri).verifying === e.document.version) return;
    schedule(e.document);
  });
  documents.onDidSave((e) => background(verify(e.document)));
  documents.onDidClose((e) => {
    const s = stateOf(e.document.uri);
    cancel(s);
    states.delete(e.document.uri);
    setSaid(e.document.uri, null);
  });

  connection.onExecuteCommand(async (params) => {
    if (params.command !== VERIFY_COMMAND) return;
    const uri = params.arguments?.[0];
    const doc = typeof uri === 'string' ? documents.get(uri) : undefined;
    if (doc !== undefined) await verify(doc, true);
  });

  connection.onHover((params): Hover | null => {
    const doc = documents.get(params.textDocument.uri);
    const analysis = states.get(params.textDocument.uri)?.analysis;
    if (doc === undefined || analysis === undefined || analysis === null || analysis.text !== doc.getText()) return null;
    const found = hoverAt(analysis.kernels, analysis.path, doc.offsetAt(params.position));
    if (found === null) return null;
    return { contents: { kind: 'markdown', value: found.markdown }, range: { start: doc.positionAt(found.span.start), end: doc.positionAt(found.span.end) } };
  });

  connection.onCodeAction(async (params, token): Promise<CodeAction[]> => {
    const doc = documents.get(params.textDocument.uri);
    const analysis = states.get(params.textDocument.uri)?.analysis;
    // fix rewrites BabyCUDA text only
    if (doc === undefined || analysis === undefined || analysis === null || analysis.text !== doc.getText() || isCudaPath(analysis.path)) return [];
    const byKernel = new Map<string, LspDiagnostic[]>();
    for (const d of params.context.diagnostics) {
      const kernel = alarmKernel(d);
      if (kernel !== null) byKernel.set(kernel, [...(byKernel.get(kernel) ?? []), d]);
    }
    const actions: CodeAction[] = [];
    for (const [kernel, diagnostics] of byKernel) {
      const map = analysis.kernels.find((k) => k.map.name === kernel)?.map;
      if (map === undefined) continue;
      const key = JSON.stringify([cacheKey(analysis.path, analysis.text), kernel]);
      let fixing = fixes.get(key);
      if (fixing === undefined) {
        const stop = { get cancelled() { return token.isCancellationRequested; } };
        const solver = cancellable(solverOf(solverChoiceOf(settings), settings.rlimit), stop);
        fixing = fixKernel(analysis.path, analysis.text, kernel, { launch: launchFor(map.params, analysis.launch), timeoutMs: settings.timeoutMs, maxRaces: FIX_MAX_RACES, solver, keepBarriers: true, limits: DEFAULT_LIMITS });
        fixes.set(key, fixing);
      }
      try {
        const fixed = await fixing;
        // a repair whose checks were refused is no verdict: the next request tries again
        if (token.isCancellationRequested) fixes.delete(key);
        const action = token.isCancellationRequested ? null : repairAction(doc.uri, analysis.text, fixed, diagnostics);
        if (action !== null) actions.push(action);
      } catch (e) {
        // a repair cut short is tried again by the next request
        fixes.delete(key);
        if (!(e instanceof Cancelled)) connection.console.error(`faial-ts: repairing ${kernel} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    return actions;
  });
}
