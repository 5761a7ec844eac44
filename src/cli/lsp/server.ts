/**
 * `faial-ts lsp`: a language server over stdio for `.cu`, `.cuh` and `.bcu`
 * documents. This module is the transport and the bookkeeping; what is said
 * (diagnostics, hover, the repair) is src/lsp/'s, from src/api/'s results.
 *
 * A document is verified when it opens, when it is saved, and when it
 * changes, once typing pauses for `debounceMs` and only while it is at most
 * `maxChangeSize` long; in a worker thread (workers.ts), so that the server
 * keeps answering while a long check runs. A change cancels the
 * verification in progress (its worker stops or is terminated; nothing it
 * computed is published); results are cached per path, text, settings and
 * launch mode, and the editor's texts of the headers they read, so undoing a
 * change publishes at once. An included header open in the editor is read
 * from the editor, and a change to it verifies again the open documents that
 * include it. Diagnostics in an included header go to the header's
 * document; each document's diagnostics are the union of what every
 * verified file says about it.
 */
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lsp from 'vscode-languageserver/node.js';
import type { CancellationToken, CodeAction, Connection, Diagnostic as LspDiagnostic, Hover, InitializeResult } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { isCudaPath } from '../../api/check.js';
import { removesBarriers, repairableKernel, repairAction, wantsKind, type ProposedRepair } from '../../lsp/actions.js';
import { hoverAt } from '../../lsp/hover.js';
import { isLaunchMode, LAUNCH_ACTION_KIND, LAUNCH_COMMAND, launchActions, type LaunchMode } from '../../lsp/launch.js';
import { DEFAULT_SETTINGS, settingsOf, type LspSettings } from '../../lsp/settings.js';
import { isWithin } from '../includes.js';
import type { Analysis } from './protocol.js';
import { VerifierPool, type Task } from './workers.js';

const { createConnection, MessageType, ProposedFeatures, ShowMessageNotification, StreamMessageReader, StreamMessageWriter, TextDocuments, TextDocumentSyncKind } = lsp;

/** The file extensions the server verifies. */
export const VERIFIED = /\.(cuh?|bcu)$/i;

/** The server's command that verifies the document its argument names now (the editor's "Verify file"). */
export const VERIFY_COMMAND = 'faial-ts.verify';

/** Analyses (and repairs) kept for undo and for documents verified again unchanged. */
const CACHE_SIZE = 32;

/** Worker threads that verify at once: two at least, so that one long verification does not hold the other documents. */
const WORKERS = Math.min(4, Math.max(2, availableParallelism()));

interface Run {
  readonly version: number;
  cancelled: boolean;
  task: Task<Analysis> | null;
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

/** A repair being computed, shared by the requests that ask for it. */
interface Repairing {
  readonly task: Task<ProposedRepair | null>;
  cancelled: boolean;
}

const pathOf = (uri: string): string | null => (uri.startsWith('file:') ? fileURLToPath(uri) : null);
const uriOf = (path: string): string => pathToFileURL(path).href;

/** `value` put last in `map`, the oldest entries dropped beyond CACHE_SIZE. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > CACHE_SIZE) map.delete(map.keys().next().value!);
}

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
  const pool = new VerifierPool(WORKERS);
  const states = new Map<string, DocumentState>();
  const cache = new Map<string, Analysis>();
  const repairs = new Map<string, ProposedRepair | null>();
  const repairing = new Map<string, Repairing>();
  /** the launch mode a code action chose for a document, while it is open (absent: the settings') */
  const modes = new Map<string, LaunchMode>();
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

  const modeOf = (uri: string): LaunchMode => modes.get(uri) ?? 'settings';

  const cacheKey = (path: string, text: string, used: LspSettings, mode: LaunchMode): string => JSON.stringify([path, text, used, root, mode]);

  /** The editor's texts of the open documents other than `uri`, by path: what its includes read instead of the disk. */
  const buffersBesides = (uri: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const d of documents.all()) {
      const path = pathOf(d.uri);
      if (path !== null && d.uri !== uri) out.set(path, d.getText());
    }
    return out;
  };

  /** Whether the files an analysis's includes read still say what they said: an open one the editor's text, a closed one the disk's (not read again: "Verify file" does). */
  const includesCurrent = (a: Analysis): boolean =>
    a.includes.every((r) => {
      const open = documents.get(uriOf(r.path));
      return open === undefined ? !r.fromBuffer : open.getText() === r.text;
    });

  /** The open documents whose last analysis read the file at `uri`. */
  const includersOf = (uri: string): TextDocument[] => {
    const path = pathOf(uri);
    return documents.all().filter((d) => d.uri !== uri && states.get(d.uri)?.analysis?.includes.some((r) => r.path === path) === true);
  };

  /** The path as the progress shows it: from the workspace folder when below it. */
  const shown = (path: string): string => (isWithin(path, root) ? relative(root, path) : path);

  const cancel = (s: DocumentState): void => {
    if (s.timer !== null) clearTimeout(s.timer);
    s.timer = null;
    if (s.run !== null) {
      s.run.cancelled = true;
      s.run.task?.cancel();
    }
    s.run = null;
  };

  const verify = async (doc: TextDocument, fresh = false): Promise<void> => {
    const path = pathOf(doc.uri);
    if (path === null || !VERIFIED.test(path)) return;
    const s = stateOf(doc.uri);
    cancel(s);
    const run: Run = { version: doc.version, cancelled: false, task: null };
    s.run = run;
    s.verifying = doc.version;
    const text = doc.getText();
    const mode = modeOf(doc.uri);
    const used = settings;
    const key = cacheKey(path, text, used, mode);
    // the editor's "Verify file" asks again: an included header may have changed on disk
    const cached = fresh ? undefined : cache.get(key);
    let analysis = cached !== undefined && includesCurrent(cached) ? cached : null;
    if (analysis === null) {
      const progress = showsProgress ? await connection.window.createWorkDoneProgress().catch(() => null) : null;
      if (run.cancelled) {
        progress?.done();
        return;
      }
      const name = shown(path);
      progress?.begin('faial-ts', 0, `verifying ${name}`, false);
      run.task = pool.run({ kind: 'verify', path, text, settings: used, mode, root, buffers: buffersBesides(doc.uri) }, (kernel, index, total) =>
        progress?.report(Math.round((100 * index) / total), `verifying ${name}: kernel ${kernel} (${index + 1} of ${total})`),
      );
      try {
        analysis = await run.task.result;
      } catch (e) {
        connection.console.error(`faial-ts: verifying ${path} failed: ${e instanceof Error ? e.message : String(e)}`);
        analysis = null;
      } finally {
        progress?.done();
      }
      if (analysis !== null) remember(cache, key, analysis);
    }
    // a result for a text the document no longer has, or of a run another replaced, is never published
    if (analysis === null || run.cancelled || s.run !== run || documents.get(doc.uri)?.version !== run.version) return;
    s.run = null;
    // an open header changed while the document was verified: verify it again with the header's new text
    if (!includesCurrent(analysis)) return verify(documents.get(doc.uri)!);
    s.analysis = analysis;
    setSaid(doc.uri, new Map(analysis.diagnostics.map(([uri, ds]) => [uri, ds])));
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

  /** The open documents that include `uri` and read another text of it than it has now, verified again (after a pause, as typing). */
  const includersAgain = (uri: string, debounced: boolean): void => {
    for (const d of includersOf(uri)) {
      const a = states.get(d.uri)?.analysis;
      if (a === null || a === undefined || includesCurrent(a)) continue;
      if (debounced) schedule(d);
      else background(verify(d));
    }
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
        codeActionProvider: { codeActionKinds: ['quickfix', LAUNCH_ACTION_KIND] },
        executeCommandProvider: { commands: [VERIFY_COMMAND, LAUNCH_COMMAND] },
      },
      serverInfo: { name: 'faial-ts' },
    };
  });

  connection.onInitialized(() => {
    pool.warm();
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
    if (stateOf(e.document.uri).verifying !== e.document.version) schedule(e.document);
    includersAgain(e.document.uri, true);
  });
  documents.onDidSave((e) => background(verify(e.document)));
  documents.onDidClose((e) => {
    const s = stateOf(e.document.uri);
    cancel(s);
    states.delete(e.document.uri);
    modes.delete(e.document.uri);
    setSaid(e.document.uri, null);
    // its includers read the disk's text now
    includersAgain(e.document.uri, false);
  });

  connection.onExecuteCommand(async (params) => {
    const [uri, mode] = params.arguments ?? [];
    const doc = typeof uri === 'string' ? documents.get(uri) : undefined;
    if (doc === undefined) return;
    if (params.command === VERIFY_COMMAND) await verify(doc, true);
    if (params.command === LAUNCH_COMMAND && isLaunchMode(mode)) {
      if (mode === 'settings') modes.delete(doc.uri);
      else modes.set(doc.uri, mode);
      await verify(doc);
    }
  });

  connection.onHover((params): Hover | null => {
    const doc = documents.get(params.textDocument.uri);
    const analysis = states.get(params.textDocument.uri)?.analysis;
    if (doc === undefined || analysis === undefined || analysis === null || analysis.text !== doc.getText()) return null;
    const found = hoverAt(analysis.hovers, doc.offsetAt(params.position));
    if (found === null) return null;
    return { contents: { kind: 'markdown', value: found.markdown }, range: { start: doc.positionAt(found.span.start), end: doc.positionAt(found.span.end) } };
  });

  /** The repair of a kernel of a document as analysed, computed once (a request cancelled meanwhile leaves none: the next one asks again). */
  const repairOf = async (analysis: Analysis, mode: LaunchMode, kernel: string, removeBarriers: boolean, token: CancellationToken): Promise<ProposedRepair | null> => {
    const key = JSON.stringify([cacheKey(analysis.path, analysis.text, settings, mode), kernel, removeBarriers]);
    if (repairs.has(key)) return repairs.get(key)!;
    let r = repairing.get(key);
    if (r === undefined) {
      const task = pool.run({ kind: 'repair', path: analysis.path, text: analysis.text, settings, mode, root, kernel, removeBarriers });
      const started: Repairing = { task, cancelled: false };
      repairing.set(key, started);
      r = started;
    }
    const shared = r;
    const stop = token.onCancellationRequested(() => {
      shared.cancelled = true;
      shared.task.cancel();
    });
    try {
      const repair = await shared.task.result;
      if (!shared.cancelled) remember(repairs, key, repair);
      return shared.cancelled ? null : repair;
    } catch (e) {
      connection.console.error(`faial-ts: repairing ${kernel} failed: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    } finally {
      stop.dispose();
      if (repairing.get(key) === shared) repairing.delete(key);
    }
  };

  connection.onCodeAction(async (params, token): Promise<CodeAction[]> => {
    const doc = documents.get(params.textDocument.uri);
    const analysis = states.get(params.textDocument.uri)?.analysis;
    if (doc === undefined || analysis === undefined || analysis === null || analysis.text !== doc.getText()) return [];
    const mode = modeOf(doc.uri);
    const only = params.context.only;
    const actions: CodeAction[] = [];
    // fix rewrites BabyCUDA text only
    if (wantsKind(only, 'quickfix') && !isCudaPath(analysis.path)) {
      const byKernel = new Map<string, LspDiagnostic[]>();
      for (const d of params.context.diagnostics) {
        const kernel = repairableKernel(d);
        if (kernel !== null) byKernel.set(kernel, [...(byKernel.get(kernel) ?? []), d]);
      }
      for (const [kernel, diagnostics] of byKernel) {
        const repair = await repairOf(analysis, mode, kernel, removesBarriers(diagnostics), token);
        if (repair !== null && !token.isCancellationRequested) actions.push(repairAction(doc.uri, analysis.text, repair, diagnostics));
      }
    }
    if (wantsKind(only, LAUNCH_ACTION_KIND)) actions.push(...launchActions(doc.uri, mode, analysis.launches));
    return actions;
  });
}
