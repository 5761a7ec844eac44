/**
 * The playground page: the editor, the options, and the results of the
 * verifier's worker (worker.ts) as verdicts, alarms with their witnesses, and
 * the stages' tabs. Nothing leaves the page: the pipeline runs here.
 */
import { createEditor, type Editor, type TextChange } from './editor.js';
import { commandLine } from './command.js';
import { isolation } from './isolation.js';
import { languageOfPath, type LanguageName } from './languages.js';
import { DEFAULT_OPTIONS, fragmentOf, safeName, stateOf, type PageState } from './permalink.js';
import type { AlarmView, DiagnosticView, FromWorker, KernelFixView, KernelView, OptionsText, StageView, ToWorker, WitnessView } from './protocol.js';

interface Example {
  /** relative to examples/, e.g. `paper/figure3.bcu`, or a header such as `cuda/macros/common.cuh` */
  readonly path: string;
  readonly text: string;
}

const isHeader = (p: string): boolean => /\.(cuh|h)$/.test(p);
const folderOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '.');

const DEFAULT_EXAMPLE = 'paper/figure3.bcu';

/** Where the page keeps the last text and settings (this browser only). */
const STORAGE_KEY = 'faial-ts.playground';

/** Text pasted over a whole file is called this, in the language it looks written in. */
const PASTED_NAME = 'kernel';

function element<T extends HTMLElement>(id: string): T {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`the page has no #${id}`);
  return e as T;
}

function node<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  e.append(...children);
  return e;
}

const ui = {
  examples: element<HTMLSelectElement>('examples'),
  fileName: element<HTMLInputElement>('file-name'),
  copyCommand: element<HTMLButtonElement>('copy-command'),
  language: element<HTMLSelectElement>('language'),
  verify: element<HTMLButtonElement>('verify'),
  fix: element<HTMLButtonElement>('fix'),
  stop: element<HTMLButtonElement>('stop'),
  link: element<HTMLButtonElement>('copy-link'),
  status: element<HTMLElement>('status'),
  editor: element<HTMLElement>('editor'),
  verdict: element<HTMLElement>('verdict'),
  map: element<HTMLElement>('tab-map'),
  phases: element<HTMLElement>('tab-phases'),
  smt: element<HTMLElement>('tab-smt'),
  core: element<HTMLElement>('tab-core'),
  coreTab: element<HTMLButtonElement>('tab-button-core'),
  blockDim: element<HTMLInputElement>('opt-block'),
  gridDim: element<HTMLInputElement>('opt-grid'),
  params: element<HTMLInputElement>('opt-params'),
  timeout: element<HTMLInputElement>('opt-timeout'),
  maxRaces: element<HTMLInputElement>('opt-races'),
  warpSize: element<HTMLInputElement>('opt-warp'),
  replay: element<HTMLInputElement>('opt-replay'),
};

let path = 'kernel.bcu';
/** The example the text was loaded from, whose folder's headers it may include; null for the user's own text. */
let origin: Example | null = null;
let editor: Editor;
let examples: readonly Example[] = [];

/** The example kernel of this file name (a link names a file by its last component only). */
function exampleNamed(file: string): Example | null {
  return examples.find((e) => !isHeader(e.path) && e.path.split('/').pop() === file) ?? null;
}

/** The headers a .cu file may include: those of its example's folder, by path relative to it; none for the user's own text. */
function headersFor(from: Example | null): Record<string, string> {
  if (from === null) return {};
  const folder = folderOf(from.path);
  const prefix = folder === '.' ? '' : `${folder}/`;
  return Object.fromEntries(examples.filter((e) => isHeader(e.path) && e.path.startsWith(prefix)).map((e) => [e.path.slice(prefix.length), e.text]));
}

// ---- the worker -------------------------------------------------------------

let worker: Worker;
let running: { id: number; started: number } | null = null;
let nextId = 1;
let z3Ready = false;
let workerEnded = false;

function startWorker(): void {
  z3Ready = false;
  workerEnded = false;
  const w = new Worker('worker.js', { name: 'faial-ts verifier' });
  worker = w;
  w.onmessage = (e: MessageEvent<FromWorker>) => {
    // an ended worker says nothing more; were it to, the page would count it (the Stop test looks)
    if (w !== worker) {
      document.body.dataset['staleMessages'] = String(Number(document.body.dataset['staleMessages'] ?? 0) + 1);
      return;
    }
    received(e.data);
  };
  w.onerror = (e) => {
    e.preventDefault();
    if (w === worker) crashed(`the verifier stopped: ${e.message || 'an error in the worker'}`);
  };
}

/** The worker is ended; the next Verify starts a fresh one (not at once: a Z3 that cannot start would fail again and again). */
function crashed(message: string): void {
  worker.terminate();
  workerEnded = true;
  finish();
  setStatus(message, 'error');
  ui.verdict.dataset['status'] = 'crashed';
  ui.verdict.replaceChildren(node('p', { class: 'internal' }, `internal error: ${message}`, node('br'), 'this is a bug in faial-ts, or the browser ran out of memory; please report it with the kernel (Copy link).'));
}

function received(m: FromWorker): void {
  if (m.kind === 'ready') {
    z3Ready = true;
    document.body.dataset['z3'] = 'ready';
    document.body.dataset['z3Ms'] = String(Math.round(m.milliseconds));
    if (running === null && statusAtLoad) setStatus(`ready (Z3 started in ${Math.round(m.milliseconds)} ms)`, 'idle');
    return;
  }
  if (m.kind === 'crashed' && m.id === null) return crashed(m.message);
  if (running === null || m.id !== running.id) return;
  switch (m.kind) {
    case 'progress':
      setStatus(`verifying ${m.kernel} (kernel ${m.kernelIndex + 1} of ${m.kernels}) · ${m.queries} ${m.queries === 1 ? 'query' : 'queries'} answered · ${seconds()}`, 'busy');
      return;
    case 'rejected': {
      const wasFix = fixing !== null;
      fixing = null;
      finish();
      showRejected(m.diagnostics, m.usage);
      if (wasFix && m.usage !== null) setStatus('not repaired: see the message', 'error');
      return;
    }
    case 'verified':
      showVerified(m.kernels, m.notices, m.summary, m.internal);
      addDownloads(m.json, m.sarif);
      setStatus(`${m.summary} · ${(m.milliseconds / 1000).toFixed(1)} s · computing the stages…`, 'busy');
      return;
    case 'stages':
      // a kernel in error (a CUDA syntax error) is no verdict: red, as a BabyCUDA file's errors are
      setStatus(`${ui.verdict.dataset['summary'] ?? 'done'} · ${seconds()}`, ui.verdict.dataset['status']?.split(' ').includes('error') === true ? 'error' : 'idle');
      finish();
      showStages(m.stages);
      return;
    case 'fixed':
      finish();
      showFix(m.text, m.diff, m.kernels);
      return;
    case 'crashed':
      crashed(m.message);
      return;
  }
}

function seconds(): string {
  return running === null ? '' : `${((performance.now() - running.started) / 1000).toFixed(1)} s`;
}

/** Nothing has been said on the status line since the page loaded: only then does Z3's start say "ready" there (not over a rejection shown meanwhile). */
let statusAtLoad = true;

function setStatus(text: string, state: 'idle' | 'busy' | 'error'): void {
  statusAtLoad = false;
  ui.status.textContent = text;
  ui.status.dataset['state'] = state;
}

function finish(): void {
  running = null;
  ui.verify.disabled = false;
  ui.fix.disabled = false;
  ui.stop.disabled = true;
  document.body.dataset['running'] = 'no';
}

function options(): OptionsText {
  return {
    blockDim: ui.blockDim.value,
    gridDim: ui.gridDim.value,
    params: ui.params.value,
    timeout: ui.timeout.value,
    maxRaces: ui.maxRaces.value,
    warpSize: ui.warpSize.value,
    replay: ui.replay.checked,
  };
}

/** The text the running `fix` was given: its repair applies only to that text. */
let fixing: string | null = null;

function run(kind: ToWorker['kind']): void {
  if (running !== null || !crossOriginIsolated) return;
  if (workerEnded) startWorker();
  running = { id: nextId++, started: performance.now() };
  ui.verify.disabled = true;
  ui.fix.disabled = true;
  ui.stop.disabled = false;
  document.body.dataset['running'] = 'yes';
  delete ui.verdict.dataset['status'];
  const doing = kind === 'fix' ? 'looking for a repair…' : 'verifying…';
  setStatus(z3Ready ? doing : 'starting Z3…', 'busy');
  clearResults(doing);
  document.body.dataset['pane'] = 'result';
  const text = editor.text();
  fixing = kind === 'fix' ? text : null;
  const message: ToWorker = { kind, id: running.id, path, text, options: options(), headers: headersFor(origin) };
  worker.postMessage(message);
  void updateLink('push');
}

const verify = (): void => run('verify');

/** A Z3 check cannot be interrupted: the worker goes, and a fresh one starts Z3 again. */
function stop(): void {
  if (running === null) return;
  worker.terminate();
  finish();
  setStatus('stopped', 'idle');
  clearResults('stopped: the verifier was ended before it finished; nothing was proved.');
  ui.verdict.dataset['status'] = 'stopped';
  startWorker();
}

// ---- results ----------------------------------------------------------------

function clearResults(text: string): void {
  delete ui.verdict.dataset['stale'];
  editor.showMarks([]);
  editor.showDiagnostics([]);
  ui.verdict.replaceChildren(node('p', { class: 'placeholder' }, text));
  for (const tab of [ui.map, ui.phases, ui.smt, ui.core]) tab.replaceChildren(node('p', { class: 'placeholder' }, 'available after a verification'));
}

function lineOf(offset: number): number {
  return editor.view.state.doc.lineAt(Math.min(offset, editor.view.state.doc.length)).number;
}

function diagnosticNode(d: DiagnosticView): HTMLElement {
  const pre = node('pre', { class: `diagnostic ${d.severity}`, 'data-line': String(lineOf(d.start)), 'data-code': d.code }, d.text);
  pre.addEventListener('click', () => {
    editor.view.dispatch({ selection: { anchor: Math.min(d.start, editor.view.state.doc.length) }, scrollIntoView: true });
    editor.view.focus();
  });
  return pre;
}

function showRejected(diagnostics: readonly DiagnosticView[], usage: string | null): void {
  ui.verdict.dataset['status'] = 'error';
  if (usage !== null) {
    ui.verdict.replaceChildren(node('pre', { class: 'diagnostic error usage' }, `error: ${usage}`));
    setStatus('the options are not valid', 'error');
    return;
  }
  editor.showDiagnostics(diagnostics);
  ui.verdict.replaceChildren(node('p', { class: 'headline error' }, `${path}: ${diagnostics.length} ${diagnostics.length === 1 ? 'error' : 'errors'}, nothing verified`), ...diagnostics.map(diagnosticNode));
  setStatus('not verified: the kernel has errors', 'error');
}

function witnessTable(w: WitnessView): HTMLElement {
  const head = node('tr', {}, node('th'), node('th', { class: 't1' }, w.heads[0]), node('th', { class: 't2' }, w.heads[1]));
  const rows = w.rows.map(([name, v1, v2]) => node('tr', {}, node('th', { scope: 'row' }, name), node('td', { class: 't1' }, v1), node('td', { class: 't2' }, v2)));
  return node(
    'div',
    { class: 'witness' },
    node('p', {}, `${w.caption}: ${w.launch}`),
    node('table', {}, node('thead', {}, head), node('tbody', {}, ...rows)),
    ...(w.names.length === 0 ? [] : [node('ul', { class: 'names' }, ...w.names.map((n) => node('li', {}, n)))]),
  );
}

function alarmNode(a: AlarmView): HTMLElement {
  const where = a.marks.map((m) => `${m.label} at line ${lineOf(m.start)}`).join(', ');
  const card = node(
    'section',
    { class: `alarm ${a.kind}`, 'data-label': a.label, tabindex: '0' },
    node('h4', {}, node('span', { class: `label ${a.label}` }, a.label), ' ', a.title),
    node('p', { class: 'where' }, where),
    node('p', { class: 'reason' }, `${a.label === 'confirmed' ? 'confirmed' : 'why only ' + a.label}: ${a.reason}`),
    witnessTable(a.witness),
    ...(a.replay === null ? [] : [node('p', { class: `replay ${a.replay.startsWith('replayed') ? 'ok' : 'not'}` }, a.replay)]),
    ...(a.solverWitness === null ? [] : [node('details', { class: 'solver-witness' }, node('summary', {}, "the solver's witness (larger; this one was not run)"), witnessTable(a.solverWitness))]),
    node('details', {}, node('summary', {}, 'as the text report prints it'), node('pre', {}, a.text)),
  );
  const select = (): void => {
    for (const c of ui.verdict.querySelectorAll('.alarm.selected')) c.classList.remove('selected');
    card.classList.add('selected');
    editor.showMarks(a.marks);
  };
  card.addEventListener('click', select);
  card.addEventListener('focus', select);
  return card;
}

function kernelNode(k: KernelView): HTMLElement {
  return node(
    'article',
    { class: `kernel ${k.status}`, 'data-status': k.status, 'data-kernel': k.name },
    node('h3', { class: 'headline' }, k.headline),
    ...(k.wellTyped === null ? [] : [node('p', { class: 'typing' }, k.wellTyped)]),
    ...(k.execution === null ? [] : [node('p', { class: 'execution' }, k.execution)]),
    ...k.alarms.map(alarmNode),
    ...(k.unknowns.length === 0 ? [] : [node('div', { class: 'unknowns' }, node('p', {}, 'not proved (queries without an answer):'), node('ul', {}, ...k.unknowns.map((u) => node('li', {}, u))))]),
    ...k.errors.map(diagnosticNode),
    node('details', {}, node('summary', {}, 'text report'), node('pre', {}, k.text)),
  );
}

function showVerified(kernels: readonly KernelView[], notices: readonly DiagnosticView[], summary: string, internal: readonly string[]): void {
  const statuses = new Set(kernels.map((k) => k.status));
  ui.verdict.dataset['status'] = [...statuses].join(' ');
  ui.verdict.dataset['summary'] = summary;
  ui.verdict.replaceChildren(
    node('p', { class: 'summary' }, summary),
    ...internal.map((f) => node('p', { class: 'internal' }, `internal error: ${f} (a confirmed alarm the interpreter did not reproduce: a bug in faial-ts, please report it)`)),
    ...kernels.map(kernelNode),
    ...(notices.length === 0 ? [] : [node('div', { class: 'notices' }, ...notices.map(diagnosticNode))]),
  );
  editor.showDiagnostics([...kernels.flatMap((k) => k.errors), ...notices]);
  ui.verdict.querySelector<HTMLElement>('.alarm')?.click();
}

/** The repair as a diff, what was done per kernel, and a button that puts it in the editor (one undoable change). */
function showFix(repaired: string, diff: string, kernels: readonly KernelFixView[]): void {
  const from = fixing;
  fixing = null;
  ui.verdict.dataset['status'] = 'fix';
  const changed = diff !== '';
  setStatus(changed ? 'a repair was found: see the diff' : 'no change to suggest', 'idle');
  const apply = node('button', { id: 'apply-fix', type: 'button' }, 'Apply to the editor');
  apply.addEventListener('click', () => {
    // an edit made meanwhile is not overwritten: the repair belongs to the text it was found for
    if (editor.text() !== from) {
      setStatus('the text changed since the repair was found: suggest a fix again', 'error');
      return;
    }
    editor.replaceText(repaired);
    apply.disabled = true;
    setStatus('repair applied (Ctrl-Z undoes it); Verify to see the verdict', 'idle');
  });
  ui.verdict.replaceChildren(
    node('p', { class: 'summary' }, changed ? 'Suggested repair (as faial-ts fix gives it):' : 'Nothing to change:'),
    node('ul', { class: 'fix-kernels' }, ...kernels.map((k) => node('li', { class: k.outcome, 'data-outcome': k.outcome }, k.text))),
    ...(changed ? [node('pre', { class: 'diff' }, ...diff.split('\n').map((l) => node('span', { class: l.startsWith('+') && !l.startsWith('+++') ? 'add' : l.startsWith('-') && !l.startsWith('---') ? 'del' : '' }, `${l}\n`))), apply] : []),
  );
}

/** A button that saves `text` as a file named after the kernel's file. */
function downloadButton(label: string, text: string, extension: string, type: string): HTMLButtonElement {
  const b = node('button', { type: 'button', class: 'download', 'data-format': extension }, label);
  b.addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = node('a', { href: url, download: `${path.replace(/\.[^.]*$/, '')}.${extension}` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  return b;
}

/** The verification as `verify --json` and `verify --sarif` write it, to save. */
function addDownloads(json: string, sarif: string): void {
  ui.verdict.querySelector('.summary')?.after(
    node('p', { class: 'downloads' }, downloadButton('Download JSON', json, 'json', 'application/json'), ' ', downloadButton('Download SARIF', sarif, 'sarif', 'application/sarif+json')),
  );
}

function copyButton(text: string): HTMLButtonElement {
  const b = node('button', { class: 'copy', type: 'button' }, 'Copy');
  b.addEventListener('click', () => {
    void navigator.clipboard.writeText(text).then(
      () => (b.textContent = 'Copied'),
      () => (b.textContent = 'Copy failed: select the text'),
    );
  });
  return b;
}

function showStages(stages: readonly StageView[]): void {
  ui.map.replaceChildren(...stages.map((s) => node('pre', { 'data-kernel': s.kernel }, s.map)));
  ui.phases.replaceChildren(...stages.map((s) => node('pre', { 'data-kernel': s.kernel }, s.phases)));
  ui.smt.replaceChildren(
    ...stages.flatMap((s) => s.queries.map((q) => node('div', { class: 'query', 'data-kernel': s.kernel }, copyButton(q), node('pre', {}, q)))),
  );
  const lowered = stages.filter((s) => s.lowered !== null);
  ui.core.replaceChildren(...(lowered.length === 0 ? [node('p', { class: 'placeholder' }, 'only CUDA kernels are lowered; a BabyCUDA kernel is its own core program')] : lowered.map((s) => node('pre', { 'data-kernel': s.kernel }, s.lowered ?? ''))));
}

// ---- tabs, examples, permalinks ---------------------------------------------

const tabButtons = (): HTMLButtonElement[] => [...document.querySelectorAll<HTMLButtonElement>('.tabs button')].filter((b) => !b.hidden);

function showTab(name: string): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('.tabs button')) {
    const selected = b.dataset['tab'] === name;
    b.setAttribute('aria-selected', String(selected));
    // one tab stop for the tab list: the arrow keys move within it (WAI-ARIA tabs pattern)
    b.tabIndex = selected ? 0 : -1;
  }
  for (const p of document.querySelectorAll<HTMLElement>('.tab-panel')) p.hidden = p.id !== `tab-${name}`;
}

/** Left and Right (wrapping), Home and End move to a tab and show it. */
function tabKey(e: KeyboardEvent): void {
  const tabs = tabButtons();
  const at = tabs.findIndex((b) => b === document.activeElement);
  if (at < 0) return;
  const next = e.key === 'ArrowRight' ? (at + 1) % tabs.length : e.key === 'ArrowLeft' ? (at - 1 + tabs.length) % tabs.length : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
  if (next === null) return;
  e.preventDefault();
  const b = tabs[next]!;
  showTab(b.dataset['tab'] ?? 'verdict');
  b.focus();
}

function setLanguage(language: LanguageName): void {
  ui.language.value = language;
  editor.setLanguage(language);
  ui.coreTab.hidden = language !== 'cu';
  if (language !== 'cu' && ui.coreTab.getAttribute('aria-selected') === 'true') showTab('verdict');
}

function setPath(p: string): void {
  path = p;
  ui.fileName.value = p;
  setLanguage(languageOfPath(p));
}

/** The examples menu shows the example the text came from, "Examples…" for the user's own. */
function setOrigin(from: Example | null): void {
  origin = from;
  ui.examples.value = from?.path ?? '';
}

function setOptions(o: OptionsText): void {
  ui.blockDim.value = o.blockDim;
  ui.gridDim.value = o.gridDim;
  ui.params.value = o.params;
  ui.timeout.value = o.timeout;
  ui.maxRaces.value = o.maxRaces;
  ui.warpSize.value = o.warpSize;
  ui.replay.checked = o.replay;
  // options a link fixed are part of its result: show them
  if ((Object.keys(o) as (keyof OptionsText)[]).some((k) => o[k] !== DEFAULT_OPTIONS[k])) element<HTMLDetailsElement>('options').open = true;
}

/** The results on screen no longer belong to the text and options: say so (until the next Verify). */
function markStale(): void {
  if (ui.verdict.dataset['status'] === undefined || ui.verdict.dataset['stale'] !== undefined || running !== null) return;
  ui.verdict.dataset['stale'] = 'yes';
  ui.verdict.prepend(node('p', { class: 'stale', role: 'status' }, 'Changed since this verification: these results are for the earlier text or options. Verify again (Ctrl-Enter).'));
}

let linkTimer: number | undefined;

/** The URL and the browser's copy follow the editor and options (debounced, and replaceState: no history entry per keystroke). */
function linkLater(): void {
  markStale();
  window.clearTimeout(linkTimer);
  linkTimer = window.setTimeout(() => void updateLink('replace'), 300);
}

/** What a history entry holds besides its fragment: the example the text came from. */
interface HistoryState {
  readonly origin: string | null;
}

/** The history entry the page is at, as it was made: edits move the URL along, and a push gives this entry its own state back first. */
let entryMade: { fragment: string; state: HistoryState } | null = null;

/**
 * Puts the page's state in the URL and in localStorage. A new file or a
 * verification of changed text is a new history entry, so that Back returns
 * to the text before it; keystrokes only move the URL along.
 */
async function updateLink(how: 'push' | 'replace'): Promise<string> {
  window.clearTimeout(linkTimer);
  const state: PageState = { path, text: editor.text(), options: options(), version: FAIAL_VERSIONS.faial };
  const fragment = await fragmentOf(state);
  const entry: HistoryState = { origin: origin?.path ?? null };
  if (how === 'push' && fragment !== entryMade?.fragment) {
    if (entryMade !== null && location.hash !== entryMade.fragment) history.replaceState(entryMade.state, '', entryMade.fragment);
    history.pushState(entry, '', fragment);
    entryMade = { fragment, state: entry };
  } else history.replaceState(entry, '', fragment);
  entryMade ??= { fragment, state: entry };
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...state, origin: entry.origin }));
  } catch {
    // storage full or refused (a private window): the link still holds the state
  }
  return location.href;
}

/** The last text and settings this browser kept, or null. */
function stored(): { state: PageState; origin: string | null } | null {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as { path?: unknown; text?: unknown; options?: unknown; origin?: unknown } | null;
    if (v === null || typeof v.text !== 'string' || typeof v.path !== 'string' || typeof v.options !== 'object' || v.options === null) return null;
    const options = { ...DEFAULT_OPTIONS };
    for (const k of Object.keys(DEFAULT_OPTIONS) as (keyof OptionsText)[]) {
      const value = (v.options as Record<string, unknown>)[k];
      if (typeof value === typeof DEFAULT_OPTIONS[k]) (options as Record<string, unknown>)[k] = value;
    }
    return { state: { path: safeName(v.path), text: v.text, options }, origin: typeof v.origin === 'string' ? v.origin : null };
  } catch {
    return null;
  }
}

/** Shows a file: its name, text and options, the example it came from; the old results go. */
function show(state: PageState, from: Example | null): void {
  setPath(state.path);
  editor.setText(state.text);
  setOptions(state.options);
  setOrigin(from);
  clearResults('press Verify (Ctrl-Enter)');
}

function loadExample(which: string): void {
  const e = examples.find((x) => x.path === which);
  if (e === undefined) return;
  show({ path: e.path.split('/').pop()!, text: e.text, options: DEFAULT_OPTIONS }, e);
  void updateLink('push');
}

/** The language a pasted kernel is written in, when it says so plainly. */
function languageOfText(text: string): LanguageName | null {
  if (/__global__|#\s*include|__shared__/.test(text)) return 'cu';
  if (/^\s*kernel\s+\w+\s*\(/m.test(text)) return 'bcu';
  return null;
}

function textChanged(change: TextChange): void {
  switch (change.kind) {
    case 'loaded':
      return;
    case 'edited':
      linkLater();
      return;
    case 'replaced': {
      // someone else's kernel: not the example's file, nor its folder's headers
      setOrigin(null);
      const language = languageOfText(change.text) ?? languageOfPath(path);
      setPath(`${PASTED_NAME}.${language}`);
      markStale();
      void updateLink('push');
      return;
    }
  }
}

function renamed(): void {
  const name = safeName(ui.fileName.value.trim());
  ui.fileName.value = name;
  if (name === path) return;
  setPath(name);
  linkLater();
}

function fillExamples(): void {
  const groups = new Map<string, HTMLOptGroupElement>();
  ui.examples.append(node('option', { value: '' }, 'Examples…'));
  for (const e of examples.filter((x) => !isHeader(x.path))) {
    const dir = folderOf(e.path);
    let group = groups.get(dir);
    if (group === undefined) {
      group = node('optgroup', { label: dir });
      groups.set(dir, group);
      ui.examples.append(group);
    }
    group.append(node('option', { value: e.path }, e.path.slice(dir.length + 1)));
  }
}

/** Z3 cannot start here: the page says why and what would make it work, and offers nothing to press. */
function showUnavailable(): void {
  ui.verify.disabled = true;
  setStatus('cannot verify here: this page is not cross-origin isolated', 'error');
  ui.verdict.dataset['status'] = 'unavailable';
  const link = node('a', { href: 'https://developer.mozilla.org/en-US/docs/Web/API/Window/crossOriginIsolated', target: '_blank', rel: 'noopener' }, 'cross-origin isolation');
  ui.verdict.replaceChildren(
    node(
      'div',
      { class: 'unavailable' },
      node('p', { class: 'headline error' }, 'Nothing can be verified on this page as it is served.'),
      node('p', {}, 'Z3 runs on threads that share memory, which a browser allows only on a page with ', link, '. This page normally gets it from its service worker (sw.js), which adds the two headers and reloads once; here the browser did not let it (a private window, service workers turned off, or not https).'),
      node('p', {}, 'To host the playground, serve the folder with these headers on every response, or over https (or localhost) so that its service worker can add them:'),
      node('pre', {}, 'Cross-Origin-Opener-Policy: same-origin\nCross-Origin-Embedder-Policy: require-corp'),
      node('p', {}, 'The command line gives the same verdicts: ', node('code', {}, 'npx faial-ts verify --replay FILE'), '.'),
    ),
  );
}

function copied(what: string, text: Promise<string> | string): void {
  void Promise.resolve(text)
    .then((t) => navigator.clipboard.writeText(t))
    .then(
      () => setStatus(`${what} copied`, 'idle'),
      () => setStatus(`${what}: the clipboard refused it`, 'error'),
    );
}

async function main(): Promise<void> {
  const isolated = await isolation();
  if (isolated === 'reloading') return;
  document.body.dataset['isolation'] = isolated;
  // without cross-origin isolation there is no SharedArrayBuffer, and Z3 cannot start
  if (crossOriginIsolated) startWorker();
  examples = (await (await fetch('examples.json')).json()) as Example[];
  fillExamples();
  const fromLink = await stateOf(location.hash);
  const kept = fromLink === null ? stored() : null;
  const defaultExample = examples.find((e) => e.path === DEFAULT_EXAMPLE) ?? null;
  const initial = fromLink ?? kept?.state ?? { path: 'figure3.bcu', text: defaultExample?.text ?? '', options: DEFAULT_OPTIONS };
  const from = fromLink !== null ? exampleNamed(fromLink.path) : kept !== null ? (examples.find((e) => e.path === kept.origin) ?? null) : defaultExample;
  editor = createEditor(ui.editor, initial.text, languageOfPath(initial.path), verify, textChanged);
  setPath(safeName(initial.path));
  setOptions(initial.options);
  setOrigin(from);
  clearResults('press Verify (Ctrl-Enter)');
  // the first history entry holds its state too, so that Back returns to it
  if (fromLink === null) void updateLink('replace');
  else {
    entryMade = { fragment: location.hash, state: { origin: from?.path ?? null } };
    history.replaceState(entryMade.state, '', location.href);
  }

  ui.verify.addEventListener('click', verify);
  ui.fix.addEventListener('click', () => run('fix'));
  ui.stop.addEventListener('click', stop);
  ui.examples.addEventListener('change', () => loadExample(ui.examples.value));
  ui.fileName.addEventListener('change', renamed);
  ui.language.addEventListener('change', () => {
    const language = ui.language.value === 'cu' ? 'cu' : 'bcu';
    setPath(path.replace(/\.[^.]*$/, '') + (language === 'cu' ? '.cu' : '.bcu'));
    linkLater();
  });
  for (const input of [ui.blockDim, ui.gridDim, ui.params, ui.timeout, ui.maxRaces, ui.warpSize, ui.replay]) input.addEventListener('input', linkLater);
  ui.link.addEventListener('click', () => copied('link', updateLink('replace')));
  ui.copyCommand.addEventListener('click', () => copied('command line', commandLine(path, options())));
  for (const b of document.querySelectorAll<HTMLButtonElement>('.tabs button')) b.addEventListener('click', () => showTab(b.dataset['tab'] ?? 'verdict'));
  element('tablist').addEventListener('keydown', tabKey);
  for (const b of document.querySelectorAll<HTMLButtonElement>('#panes button')) b.addEventListener('click', () => (document.body.dataset['pane'] = b.dataset['pane'] ?? 'editor'));
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      verify();
    }
  });
  // Back and Forward (and a fragment typed in): the state that entry holds
  window.addEventListener('popstate', (e) => {
    const entry = e.state as HistoryState | null;
    entryMade = { fragment: location.hash, state: entry ?? { origin: null } };
    void stateOf(location.hash).then((s) => {
      if (s === null || (s.text === editor.text() && s.path === path && JSON.stringify(s.options) === JSON.stringify(options()))) return;
      show(s, entry === null ? exampleNamed(s.path) : (examples.find((x) => x.path === entry.origin) ?? null));
    });
  });
  showTab('verdict');
  document.body.dataset['pane'] = 'editor';
  element('versions').textContent = `faial-ts ${FAIAL_VERSIONS.faial} · Z3 ${FAIAL_VERSIONS.z3}`;
  document.body.dataset['page'] = 'ready';
  if (fromLink?.version !== undefined && fromLink.version !== FAIAL_VERSIONS.faial) {
    const note = element('link-note');
    note.textContent = `This link was made with faial-ts ${fromLink.version}; this page is faial-ts ${FAIAL_VERSIONS.faial}, so its verdicts may differ from the ones the link was shared for.`;
    note.hidden = false;
  }
  if (!crossOriginIsolated) showUnavailable();
  // a link is a result to see: verify it at once
  else if (fromLink !== null) verify();
}

void main();
