/**
 * The playground page: the editor, the options, and the results of the
 * verifier's worker (worker.ts) as verdicts, alarms with their witnesses, and
 * the stages' tabs. Nothing leaves the page: the pipeline runs here.
 */
import { createEditor, type Editor, type TextChange } from './editor.js';
import { commandLine } from './command.js';
import { isolation } from './isolation.js';
import { languageOfPath, type LanguageName } from './languages.js';
import { reportMarkdown } from './markdown.js';
import { DEFAULT_OPTIONS, fragmentOf, safeName, stateOf, type PageState } from './permalink.js';
import type { AlarmView, DiagnosticView, FromWorker, KernelFixView, KernelView, OptionsText, PhaseLineView, RunRequest, StageView, ToWorker, WitnessView } from './protocol.js';
import { DEFAULT_SHARE, MAX_SHARE, MIN_SHARE, splitter } from './splitter.js';

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

/** Where it keeps the preferences that are not part of a file's state: verifying as you type, the editor's width. */
const PREFS_KEY = 'faial-ts.playground.prefs';

/**
 * Verifying as you type: only a file up to this many characters (every
 * example is under 2,000), so that a large paste does not start a long
 * verification at each pause; a larger file keeps the stale mark until Verify.
 */
const LIVE_LIMIT = 4000;

/** The pause in typing after which the text is verified. */
const LIVE_DELAY_MS = 700;

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
  live: element<HTMLInputElement>('opt-live'),
  kernelPicker: element<HTMLElement>('kernel-picker'),
  kernel: element<HTMLSelectElement>('kernel'),
};

interface Prefs {
  /** verify as you type (small files) */
  readonly live: boolean;
  /** the editor's share of the width, in percent */
  readonly split: number;
}

function prefs(): Prefs {
  try {
    const v = JSON.parse(localStorage.getItem(PREFS_KEY) ?? '{}') as { live?: unknown; split?: unknown };
    return { live: typeof v.live === 'boolean' ? v.live : true, split: typeof v.split === 'number' ? v.split : DEFAULT_SHARE };
  } catch {
    return { live: true, split: DEFAULT_SHARE };
  }
}

function savePrefs(change: Partial<Prefs>): void {
  try {
    localStorage.setItem(PREFS_KEY, JSON.stringify({ ...prefs(), ...change }));
  } catch {
    // storage refused (a private window): the preference lasts this visit
  }
}

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

/** A run of the worker: what it was asked, whether typing started it, and at which edit. */
interface Run {
  readonly request: RunRequest;
  readonly started: number;
  /** started by a pause in typing (superseded by the next edit), not by a button */
  readonly auto: boolean;
  /** the edit it verifies (see `edits`) */
  readonly edit: number;
}

let worker: Worker;
let running: Run | null = null;
let nextId = 1;

/** Counts the changes to the text, the file name and the options: results belong to the count they were made at. */
let edits = 0;

/** The edit the results on screen belong to; null when none are shown (a placeholder, a stopped run). */
let shown: number | null = null;
let z3Ready = false;
let workerEnded = false;

function startWorker(): void {
  z3Ready = false;
  workerEnded = false;
  const w = new Worker(FAIAL_PAGE_ASSETS.worker, { name: 'faial-ts verifier' });
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
  if (m.kind === 'cancelled') {
    // the worker dropped a superseded run; what it asked after the cancel is wasted work (the features test looks)
    document.body.dataset['cancelledRuns'] = String(Number(document.body.dataset['cancelledRuns'] ?? 0) + 1);
    document.body.dataset['queriesAfterCancel'] = String(Number(document.body.dataset['queriesAfterCancel'] ?? 0) + m.queriesAfterCancel);
    return;
  }
  // a superseded or stopped run's messages: its results belong to a text no longer there
  const run = running;
  if (run === null || m.id !== run.request.id) return;
  switch (m.kind) {
    case 'progress':
      setStatus(`verifying ${m.kernel} (kernel ${m.kernelIndex + 1} of ${m.kernels}) · ${m.queries} ${m.queries === 1 ? 'query' : 'queries'} answered · ${seconds()}`, 'busy');
      return;
    case 'rejected': {
      const wasFix = fixing !== null;
      fixing = null;
      finish();
      showRejected(m.diagnostics, m.usage, run.request.path);
      shownAt(run);
      if (wasFix && m.usage !== null) setStatus('not repaired: see the message', 'error');
      return;
    }
    case 'verified':
      showVerified(m.kernels, m.notices, m.summary, m.internal, run);
      addReportButtons(m.json, m.sarif, { kernels: m.kernels, notices: m.notices, summary: m.summary, internal: m.internal }, run.request);
      shownAt(run);
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
      shownAt(run);
      return;
    case 'crashed':
      crashed(m.message);
      return;
  }
}

function seconds(): string {
  return running === null ? '' : `${((performance.now() - running.started) / 1000).toFixed(1)} s`;
}

/** The results on screen are the run's: marked stale when the text or options changed since it started. */
function shownAt(run: Run): void {
  shown = run.edit;
  markStale();
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
  delete document.body.dataset['runBy'];
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

/**
 * Starts a run of the editor's text. A button's run (`auto` false) clears
 * the results and shows the result pane; a run started by a pause in typing
 * leaves the results (marked stale) until its own come, and gives way to
 * the next edit. A run of older text gives way to a new one; a button's run
 * under way is not restarted by another press.
 */
function run(kind: RunRequest['kind'], auto = false): void {
  window.clearTimeout(liveTimer);
  if (!crossOriginIsolated) return;
  if (running !== null) {
    // this very text is being verified already: a press only makes it the button's run
    if (running.edit === edits && running.request.kind === kind) {
      if (!auto && running.auto) pressed(running);
      return;
    }
    if (!auto && !running.auto) return;
    supersede();
  }
  if (workerEnded) startWorker();
  const text = editor.text();
  const request: RunRequest = { kind, id: nextId++, path, text, options: options(), headers: headersFor(origin) };
  const started: Run = { request, started: performance.now(), auto, edit: edits };
  running = started;
  ui.stop.disabled = false;
  document.body.dataset['running'] = 'yes';
  fixing = kind === 'fix' ? text : null;
  if (auto) {
    document.body.dataset['runBy'] = 'typing';
    setStatus(z3Ready ? 'verifying as you type…' : 'starting Z3…', 'busy');
    worker.postMessage(request satisfies ToWorker);
    void updateLink('replace');
    return;
  }
  pressed(started);
  worker.postMessage(request satisfies ToWorker);
}

/** A run is the button's: the buttons wait for it, the old results go, the result pane shows (on a phone), and the text is a history entry. */
function pressed(r: Run): void {
  running = { ...r, auto: false };
  document.body.dataset['runBy'] = 'button';
  ui.verify.disabled = true;
  ui.fix.disabled = true;
  delete ui.verdict.dataset['status'];
  const doing = r.request.kind === 'fix' ? 'looking for a repair…' : 'verifying…';
  setStatus(z3Ready ? doing : 'starting Z3…', 'busy');
  clearResults(doing);
  document.body.dataset['pane'] = 'result';
  void updateLink('push');
}

/** The run under way is no longer wanted: the worker drops it at its next query, and the page ignores what it still says. */
function supersede(): void {
  if (running === null) return;
  worker.postMessage({ kind: 'cancel', id: running.request.id } satisfies ToWorker);
  fixing = null;
  finish();
  document.body.dataset['superseded'] = String(Number(document.body.dataset['superseded'] ?? 0) + 1);
  // the stages of a verdict whose run went are not coming
  for (const tab of [ui.map, ui.phases, ui.smt, ui.core]) if (tab.querySelector('.pending') !== null) tab.replaceChildren(node('p', { class: 'placeholder' }, 'available after a verification'));
}

const verify = (): void => run('verify');

let liveTimer: number | undefined;

/** Whether the text is verified as you type: on, and small enough (and Z3 can run here). */
function liveFor(text: string): 'yes' | 'off' | 'too-large' {
  if (!ui.live.checked || !crossOriginIsolated) return 'off';
  return text.length <= LIVE_LIMIT ? 'yes' : 'too-large';
}

/** After a pause in typing, a small file is verified (unless a run of this very text is under way). */
function scheduleLive(): void {
  window.clearTimeout(liveTimer);
  if (liveFor(editor.text()) !== 'yes') return;
  liveTimer = window.setTimeout(() => {
    if (running === null || running.edit !== edits) run('verify', true);
  }, LIVE_DELAY_MS);
}

/** A Z3 check cannot be interrupted: the worker goes, and a fresh one starts Z3 again. */
function stop(): void {
  window.clearTimeout(liveTimer);
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
  shown = null;
  replacingResults();
  ui.verdict.replaceChildren(node('p', { class: 'placeholder' }, text));
  showKernels([]);
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

function showRejected(diagnostics: readonly DiagnosticView[], usage: string | null, file: string): void {
  replacingResults();
  ui.verdict.dataset['status'] = 'error';
  showKernels([]);
  if (usage !== null) {
    ui.verdict.replaceChildren(node('pre', { class: 'diagnostic error usage' }, `error: ${usage}`));
    setStatus('the options are not valid', 'error');
    return;
  }
  editor.showDiagnostics(diagnostics);
  ui.verdict.replaceChildren(node('p', { class: 'headline error' }, `${file}: ${diagnostics.length} ${diagnostics.length === 1 ? 'error' : 'errors'}, nothing verified`), ...diagnostics.map(diagnosticNode));
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

/** Selects the lines of an alarm's accesses (or barrier) in the editor and scrolls to them. */
function alarmNode(a: AlarmView): HTMLElement {
  const jumps = a.marks.map((m) => {
    const b = node('button', { type: 'button', class: 'jump', title: 'select it in the editor' }, `${m.label} at line ${lineOf(m.start)}`);
    b.addEventListener('click', (e) => {
      // this access alone, in the editor, which gets the focus (on a phone, the editor pane shows)
      e.stopPropagation();
      select(card, a, 'mark');
      jumpToEditor([m], 'span');
    });
    return b;
  });
  const card = node(
    'section',
    { class: `alarm ${a.kind}`, 'data-label': a.label, tabindex: '0' },
    node('h4', {}, node('span', { class: `label ${a.label}` }, a.label), ' ', a.title),
    node('p', { class: 'where' }, ...jumps.flatMap((j, i) => (i === 0 ? [j] : [', ', j]))),
    node('p', { class: 'reason' }, `${a.label === 'confirmed' ? 'confirmed' : 'why only ' + a.label}: ${a.reason}`),
    witnessTable(a.witness),
    ...(a.replay === null ? [] : [node('p', { class: `replay ${a.replay.startsWith('replayed') ? 'ok' : 'not'}` }, a.replay)]),
    ...(a.solverWitness === null ? [] : [node('details', { class: 'solver-witness' }, node('summary', {}, "the solver's witness (larger; this one was not run)"), witnessTable(a.solverWitness))]),
    node('details', {}, node('summary', {}, 'as the text report prints it'), node('pre', {}, a.text)),
  );
  // a click or the keyboard's focus: the editor follows (without taking the focus)
  card.addEventListener('click', () => select(card, a, 'jump'));
  card.addEventListener('focus', () => select(card, a, 'jump'));
  alarmOf.set(card, a);
  return card;
}

const alarmOf = new WeakMap<HTMLElement, AlarmView>();

/**
 * Marks an alarm's accesses in the editor, and `scroll`s to them or `jump`s
 * (selects their lines, as a click on the alarm asks). A fresh result only
 * marks (and scrolls, after a press of Verify): the selection is where the
 * user's typing goes.
 */
function select(card: HTMLElement, a: AlarmView, how: 'mark' | 'scroll' | 'jump'): void {
  for (const c of ui.verdict.querySelectorAll('.alarm.selected')) c.classList.remove('selected');
  card.classList.add('selected');
  editor.showMarks(a.marks, how === 'scroll');
  if (how === 'jump') editor.jumpTo(a.marks, 'lines');
}

/** Marks the first alarm shown (of the kernel picked, if any). */
function selectFirstAlarm(how: 'mark' | 'scroll'): void {
  const first = ui.verdict.querySelector<HTMLElement>('.kernel:not([hidden]) .alarm');
  const a = first === null ? undefined : alarmOf.get(first);
  if (first !== null && a !== undefined) select(first, a, how);
  else editor.showMarks([], false);
}

/** Selects `spans` in the editor and gives it the focus; on a phone the editor pane shows. */
function jumpToEditor(spans: readonly { start: number; end: number }[], how: 'lines' | 'span'): void {
  document.body.dataset['pane'] = 'editor';
  editor.jumpTo(spans, how);
  editor.view.focus();
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

/** New results replace the old: no stale mark, no marks or underlines or stages of the old ones. */
function replacingResults(): void {
  delete ui.verdict.dataset['stale'];
  editor.showMarks([], false);
  editor.showDiagnostics([]);
  for (const tab of [ui.map, ui.phases, ui.smt, ui.core]) tab.replaceChildren(node('p', { class: 'placeholder' }, 'available after a verification'));
}

function showVerified(kernels: readonly KernelView[], notices: readonly DiagnosticView[], summary: string, internal: readonly string[], run: Run): void {
  replacingResults();
  const statuses = new Set(kernels.map((k) => k.status));
  ui.verdict.dataset['status'] = [...statuses].join(' ');
  ui.verdict.dataset['summary'] = summary;
  ui.verdict.replaceChildren(
    node('p', { class: 'summary' }, summary),
    ...internal.map((f) => node('p', { class: 'internal' }, `internal error: ${f} (a confirmed alarm the interpreter did not reproduce: a bug in faial-ts, please report it)`)),
    ...kernels.map(kernelNode),
    ...(notices.length === 0 ? [] : [node('div', { class: 'notices' }, ...notices.map(diagnosticNode))]),
  );
  for (const tab of [ui.map, ui.phases, ui.smt, ui.core]) tab.replaceChildren(node('p', { class: 'placeholder pending' }, 'computing…'));
  editor.showDiagnostics([...kernels.flatMap((k) => k.errors), ...notices]);
  showKernels(kernels);
  // a run started by typing does not move the editor
  selectFirstAlarm(run.auto ? 'mark' : 'scroll');
}

/** The repair as a diff, what was done per kernel, and a button that puts it in the editor (one undoable change). */
function showFix(repaired: string, diff: string, kernels: readonly KernelFixView[]): void {
  const from = fixing;
  fixing = null;
  replacingResults();
  showKernels([]);
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
function downloadButton(label: string, text: string, file: string, extension: string, type: string): HTMLButtonElement {
  const b = node('button', { type: 'button', class: 'download', 'data-format': extension }, label);
  b.addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([text], { type }));
    const a = node('a', { href: url, download: `${file.replace(/\.[^.]*$/, '')}.${extension}` });
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  return b;
}

/** What a verification showed, for its report as Markdown. */
interface Verified {
  readonly kernels: readonly KernelView[];
  readonly notices: readonly DiagnosticView[];
  readonly summary: string;
  readonly internal: readonly string[];
}

/** The verification as `verify --json` and `verify --sarif` write it, to save, and as Markdown, to paste into an issue or comment. */
function addReportButtons(json: string, sarif: string, verified: Verified, request: RunRequest): void {
  const markdown = node('button', { type: 'button', id: 'copy-markdown', title: 'the verdicts and alarms with their witnesses, as a GitHub issue or comment shows them' }, 'Copy as Markdown');
  markdown.addEventListener('click', () => {
    const state: PageState = { path: request.path, text: request.text, options: request.options, version: FAIAL_VERSIONS.faial };
    const made = fragmentOf(state).then((fragment) =>
      reportMarkdown({ ...verified, path: request.path, text: request.text, version: FAIAL_VERSIONS.faial, command: commandLine(request.path, request.options), link: new URL(fragment, location.href).href }),
    );
    copied('report as Markdown', made);
  });
  ui.verdict.querySelector('.summary')?.after(
    node(
      'p',
      { class: 'downloads' },
      downloadButton('Download JSON', json, request.path, 'json', 'application/json'),
      ' ',
      downloadButton('Download SARIF', sarif, request.path, 'sarif', 'application/sarif+json'),
      ' ',
      markdown,
    ),
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

/** A kernel's phase listing, each phase's heading a button that selects the phase's lines in the editor. */
function phasesNode(kernel: string, lines: readonly PhaseLineView[]): HTMLElement {
  const line = (l: PhaseLineView): (Node | string)[] => {
    const spans = l.spans;
    if (spans === null || spans.length === 0) return [l.text];
    const indent = /^\s*/.exec(l.text)![0];
    const first = Math.min(...spans.map((s) => lineOf(s.start)));
    const last = Math.max(...spans.map((s) => lineOf(s.end)));
    const b = node('button', { type: 'button', class: 'jump phase', title: `select lines ${first}–${last} in the editor` }, l.text.slice(indent.length));
    b.dataset['lines'] = `${first}-${last}`;
    b.addEventListener('click', () => jumpToEditor(spans, 'lines'));
    return [indent, b];
  };
  return node('pre', { 'data-kernel': kernel }, ...lines.flatMap((l, i) => [...(i === 0 ? [] : ['\n']), ...line(l)]));
}

function showStages(stages: readonly StageView[]): void {
  ui.map.replaceChildren(...stages.map((s) => node('pre', { 'data-kernel': s.kernel }, s.map)));
  ui.phases.replaceChildren(...stages.map((s) => phasesNode(s.kernel, s.phases)));
  ui.smt.replaceChildren(
    ...stages.flatMap((s) => s.queries.map((q) => node('div', { class: 'query', 'data-kernel': s.kernel }, copyButton(q), node('pre', {}, q)))),
  );
  const lowered = stages.filter((s) => s.lowered !== null);
  ui.core.replaceChildren(...(lowered.length === 0 ? [node('p', { class: 'placeholder' }, 'only CUDA kernels are lowered; a BabyCUDA kernel is its own core program')] : lowered.map((s) => node('pre', { 'data-kernel': s.kernel }, s.lowered ?? ''))));
  showPicked();
}

// ---- the kernel picker --------------------------------------------------------

/**
 * The kernel whose results the tabs show, '' for all. A filter of the
 * file's results, not a narrower verification (`--kernel`): the summary,
 * the downloads and the link stay those of the whole file as the command
 * line verifies it, switching is instant, and verifying as you type keeps
 * checking every kernel, so an edit that breaks another kernel is not
 * missed. The pick is kept across verifications of the file while the
 * kernel is in it.
 */
let picked = '';

/** The kernels of the results on screen, for the picker (shown for two or more). */
let pickable: readonly KernelView[] = [];

function showKernels(kernels: readonly KernelView[]): void {
  pickable = kernels;
  ui.kernelPicker.hidden = kernels.length < 2;
  // no results (a run under way, a rejection) keep the pick for the next; results without the kernel drop it
  if (kernels.length > 0 && !kernels.some((k) => k.name === picked)) picked = '';
  ui.kernel.replaceChildren(node('option', { value: '' }, `all ${kernels.length} kernels`), ...kernels.map((k) => node('option', { value: k.name }, `${k.name}: ${k.status}`)));
  ui.kernel.value = picked;
  showPicked();
}

/** Every tab shows the picked kernel's results only. */
function showPicked(): void {
  for (const e of document.querySelectorAll<HTMLElement>('#results [data-kernel]')) e.hidden = picked !== '' && e.dataset['kernel'] !== picked;
}

/** A kernel picked: its results, its first alarm marked, and the editor at its definition. */
function pick(name: string): void {
  picked = name;
  showPicked();
  selectFirstAlarm('mark');
  const span = pickable.find((k) => k.name === name)?.span ?? null;
  if (span !== null) editor.jumpTo([{ start: span.start, end: span.start }], 'span');
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

/** The results on screen no longer belong to the text and options (until the next results come): say so, and whether they will be verified as you type. */
function markStale(): void {
  const note = ui.verdict.querySelector<HTMLElement>(':scope > .stale');
  if (shown === null || shown === edits) {
    note?.remove();
    delete ui.verdict.dataset['stale'];
    return;
  }
  const live = liveFor(editor.text());
  const text =
    live === 'yes'
      ? 'Changed since this verification: verifying the new text as you type…'
      : `Changed since this verification: these results are for the earlier text or options. Verify again (Ctrl-Enter).${live === 'too-large' ? ` Files over ${LIVE_LIMIT.toLocaleString('en')} characters are not verified as you type.` : ''}`;
  ui.verdict.dataset['stale'] = live === 'yes' ? 'live' : live;
  // the same note is not made again at each keystroke (a screen reader would read it each time)
  if (note !== null && note.textContent === text) return;
  if (note !== null) note.textContent = text;
  else ui.verdict.prepend(node('p', { class: 'stale', role: 'status' }, text));
}

/** The text, the file's name or an option changed: a run started by typing goes, the results are stale, a small file is verified after a pause, and the link follows. */
function changed(how: 'push' | 'replace' = 'replace'): void {
  edits++;
  if (running?.auto === true) supersede();
  markStale();
  scheduleLive();
  if (how === 'push') void updateLink('push');
  else linkLater();
}

let linkTimer: number | undefined;

/** The URL and the browser's copy follow the editor and options (debounced, and replaceState: no history entry per keystroke). */
function linkLater(): void {
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
  // another file: what was under way was for the one that goes
  window.clearTimeout(liveTimer);
  supersede();
  edits++;
  picked = '';
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
      changed();
      return;
    case 'replaced': {
      // someone else's kernel: not the example's file, nor its folder's headers
      setOrigin(null);
      const language = languageOfText(change.text) ?? languageOfPath(path);
      setPath(`${PASTED_NAME}.${language}`);
      changed('push');
      return;
    }
  }
}

function renamed(): void {
  const name = safeName(ui.fileName.value.trim());
  ui.fileName.value = name;
  if (name === path) return;
  setPath(name);
  changed();
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
  examples = (await (await fetch(FAIAL_PAGE_ASSETS.examples)).json()) as Example[];
  fillExamples();
  const fromLink = await stateOf(location.hash);
  const kept = fromLink === null ? stored() : null;
  const defaultExample = examples.find((e) => e.path === DEFAULT_EXAMPLE) ?? null;
  const initial = fromLink ?? kept?.state ?? { path: 'figure3.bcu', text: defaultExample?.text ?? '', options: DEFAULT_OPTIONS };
  const from = fromLink !== null ? exampleNamed(fromLink.path) : kept !== null ? (examples.find((e) => e.path === kept.origin) ?? null) : defaultExample;
  editor = createEditor(ui.editor, initial.text, languageOfPath(initial.path), verify, textChanged);
  const preferred = prefs();
  ui.live.checked = preferred.live;
  element('live-limit').textContent = LIVE_LIMIT.toLocaleString('en');
  const split = element('splitter');
  split.setAttribute('aria-valuemin', String(MIN_SHARE));
  split.setAttribute('aria-valuemax', String(MAX_SHARE));
  splitter(split, document.querySelector('main')!, preferred.split, (share) => savePrefs({ split: share }));
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
    changed();
  });
  for (const input of [ui.blockDim, ui.gridDim, ui.params, ui.timeout, ui.maxRaces, ui.warpSize, ui.replay]) input.addEventListener('input', () => changed());
  ui.live.addEventListener('change', () => {
    savePrefs({ live: ui.live.checked });
    markStale();
    scheduleLive();
  });
  ui.kernel.addEventListener('change', () => pick(ui.kernel.value));
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
  // the page is here; what may still be loading is Z3 (not said with setStatus: Z3's start may still say "ready")
  if (crossOriginIsolated && !z3Ready && statusAtLoad) ui.status.textContent = 'starting Z3…';
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
