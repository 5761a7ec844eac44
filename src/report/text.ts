/**
 * The human report of `faial-ts verify`: one block per kernel (its verdict,
 * and for every alarm the source with both accesses marked and a witness
 * table), then one summary line over all kernels.
 */
import type { Launch } from '../core/launch.js';
import { colorsOf, framedSpan, framedSpans, lineColOf, locationOf, renderedDiagnostics, type Colors } from '../diagnostics/render.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { undefinedDiagnostics } from './undefined.js';
import type { FileResult } from '../verify/result.js';
import type { Divergence, KernelResult, Race, ReplayRecord, Status, Witness } from '../verify/result.js';
import { assertNever } from '../util/assert.js';
import { shownText } from '../diagnostics/shown.js';
import { userSpan } from '../core/source.js';
import { barriersText } from './barriers.js';
import { LOCKSTEP_ONLY_TEXT, STATUSES, BENIGN_TEXT, vacuousText, accessNoun, accessVerb, approximationText, budgetHint, budgetText, largeGridHint, dimText, statedText, elementText, executionText, idText, launchText, plural, raceScopeText, reasonText, scopeText, statusName, wellTypedText, type SolvingRun } from './describe.js';

export interface TextOptions {
  readonly colour: boolean;
  /** the facts the command line fixed for this kernel, named in the verdict */
  readonly launchOf?: (r: KernelResult) => Launch | null;
  /** the solver and budget, stated before the summary */
  readonly solving?: SolvingRun;
  /** the sizes the program's launches fixed for this kernel and where (note N0620), named in the verdict */
  readonly hostLaunch?: string | null;
}

/**
 * What the host code's launches fixed for `r`, from its note N0620 (`kernel k
 * is verified at blockDim = 64, from its launch here`): the sizes and the
 * sites by file:line, or null when no launch fixed any.
 */
function hostLaunchOf(r: KernelResult, notices: readonly Diagnostic[]): string | null {
  const prefix = `kernel ${r.kernel} is verified at `;
  const note = notices.find((d) => d.code === 'N0620' && d.message.startsWith(prefix));
  if (note === undefined) return null;
  const m = /^(.*?), from (.*?)(?: \((?:gridDim|blockDim)(?: and blockDim)?: every value\))?$/.exec(note.message.slice(prefix.length));
  if (m === null) return null;
  const site = userSpan(note.file, note.span);
  const here = `${shownText(site.file.path)}:${site.start.line}`;
  const from = m[2]!
    .replace('its launch here', here)
    .replace(/^its launch at /, '')
    .replace(/^the (\d+) launches of the project, which agree on it \((.*)\)$/, '$2')
    .replace(/, which agree on it$/, '');
  return `${m[1]!} (from ${from})`;
}

export function textReport(files: readonly FileResult[], options: TextOptions): string {
  const blocks = files.flatMap((f) =>
    f.ok ? [...f.kernels.map((k) => kernelText(k, { ...options, hostLaunch: hostLaunchOf(k, f.notices ?? []) })), ...noticesText(f.notices ?? [], options.colour)] : [fileErrorText(f, options.colour)],
  );
  const budget = options.solving === undefined ? [] : [`budget: ${budgetText(options.solving)}; solver ${options.solving.solver}`];
  const table = statusCounts(files).total > 1 ? [summaryTable(files, options.colour)] : [];
  return `${[...blocks, ...budget, ...table, summaryText(files, options.colour)].join('\n')}\n`;
}

function fileErrorText(f: Extract<FileResult, { ok: false }>, colour: boolean): string {
  const c = colorsOf(colour);
  return `${c.red('✗')} ${shownText(f.path)}: ${c.bold('error')} — ${plural(f.diagnostics.length, 'error')}, nothing verified\n${renderedDiagnostics(f.diagnostics, colour)}`;
}

/** A front end's notices about a file, one line each: `k.cu:12:3: note[N0603]: …`. */
function noticesText(notices: readonly Diagnostic[], colour: boolean): string[] {
  if (notices.length === 0) return [];
  const c = colorsOf(colour);
  return [`${notices.map((d) => `${locationOf(d.file, d.span)}: ${c.cyan(`${d.severity}[${d.code}]`)}: ${d.message}`).join('\n')}\n`];
}

function statsText(r: KernelResult): string {
  const s = r.stats;
  return `${plural(s.phases, 'phase')}, ${plural(s.arrays, 'array')}, ${plural(s.queries, 'query', 'queries')}, ${Math.round(s.milliseconds)} ms`;
}

export function kernelText(r: KernelResult, options: TextOptions): string {
  const c = colorsOf(options.colour);
  const name = `${c.bold(r.kernel)} (${shownText(r.file.path)})`;
  const launch = options.launchOf?.(r) ?? null;
  const given = launch === null ? null : launchText(launch);
  const host = options.hostLaunch ?? null;
  const fixed = [given, host === null ? null : `the launch ${host}`].filter((x) => x !== null).join(' and ');
  const stated = statedText(r);
  const assuming = stated === null ? '' : `, ${stated}`;
  const scope = `${fixed === '' ? 'for all parameters and launches' : `for all parameters, at ${fixed}`}${assuming}`;
  const found = `${fixed === '' ? 'found' : `found at ${fixed}`}${assuming}`;
  const lines: string[] = [];
  switch (r.status) {
    case 'drf':
      lines.push(`${c.green('✓')} ${name}: ${c.green('DRF')} — proved ${scope}: ${statsText(r)}`);
      lines.push(wellTypedText(r));
      break;
    case 'racy':
    case 'benign':
      lines.push(
        r.status === 'racy'
          ? `${c.red('✗')} ${name}: ${c.red('racy')} — ${plural(r.races.length, 'data race')} ${found}: ${statsText(r)}`
          : `${c.yellow('⚠')} ${name}: ${c.yellow('benign races only')} — ${plural(r.races.length, 'data race')} ${found}, each two writes of the same value (not an error; --strict-races makes it one): ${statsText(r)}`,
      );
      lines.push(wellTypedText(r));
      for (const group of raceGroups(r.races)) {
        lines.push(c.bold(`data races on ${group[0]!.array}: ${plural(group.length, 'access pair')}`));
        for (const race of group) lines.push(raceText(r, race, c, options.colour));
      }
      break;
    case 'divergent':
      lines.push(`${c.red('✗')} ${name}: ${c.red('divergent')} — ${plural(r.divergences.length, 'barrier divergence')} ${found}: ${statsText(r)}`);
      lines.push(wellTypedText(r));
      for (const d of r.divergences) lines.push(divergenceText(r, d, c, options.colour));
      break;
    case 'vacuous':
      lines.push(`${c.yellow('!')} ${name}: ${c.yellow('vacuous')} — ${vacuousText(r)}: ${statsText(r)}`);
      break;
    case 'unknown':
      lines.push(`${c.yellow('?')} ${name}: ${c.yellow('unknown')} — not proved: ${plural(r.unknowns.length, 'query', 'queries')} without an answer: ${statsText(r)}`);
      lines.push(wellTypedText(r));
      break;
    case 'error':
      lines.push(`${c.red('✗')} ${name}: ${c.bold('error')}`);
      lines.push(renderedDiagnostics(r.errors, options.colour));
      break;
    default:
      return assertNever(r.status);
  }
  // what the verdict rests on, right under it: the scope of machine integers and the front end's approximations
  if (r.status !== 'error') lines.splice(2, 0, ...scopeLines(r));
  if (r.barriers !== undefined) lines.push(barriersText(r, r.barriers, scope, options.colour));
  // the operations outside the scope that some launch may reach: each named, with its frame
  const undefinedOps = undefinedDiagnostics(r);
  if (undefinedOps.length > 0) lines.push(renderedDiagnostics(undefinedOps, options.colour).trimEnd());
  // An alarm does not need every query answered, but what was not answered is still not proved.
  if (r.unknowns.length > 0) {
    if (r.status !== 'unknown') lines.push(c.yellow(`also not proved (${plural(r.unknowns.length, 'query', 'queries')} without an answer):`));
    for (const u of r.unknowns) lines.push(`  query ${u.query}: ${u.reason || 'the solver gave no reason'}`);
    const hint = budgetHint(r.unknowns.map((u) => u.reason));
    if (hint !== null) lines.push(`${c.green('hint')}: ${hint}`);
  }
  return `${lines.join('\n')}\n`;
}

function scopeLines(r: KernelResult): string[] {
  const scope = scopeText(r);
  const approximations = r.approximations ?? [];
  return [
    `execution: ${executionText(r)}`,
    ...(r.lockstepOnly === true ? [LOCKSTEP_ONLY_TEXT] : []),
    ...(scope === null ? [] : [scope]),
    ...(approximations.length === 0 ? [] : [`approximated (sound; alarms that depend on them are possible): ${approximations.map((a) => approximationText(r.file, a)).join('; ')}`]),
  ];
}

/**
 * Races by array, in the order the arrays were first reported; within an
 * array by where the pair of accesses is in the source.
 */
export function raceGroups(races: readonly Race[]): Race[][] {
  const groups = new Map<string, Race[]>();
  for (const race of races) groups.set(race.array, [...(groups.get(race.array) ?? []), race]);
  const place = (race: Race): [number, number] => {
    const [a, b] = race.accesses.map((x) => x.span.start).sort((x, y) => x - y);
    return [a!, b!];
  };
  return [...groups.values()].map((g) =>
    [...g].sort((x, y) => {
      const [x1, x2] = place(x);
      const [y1, y2] = place(y);
      return x1 - y1 || x2 - y2;
    }),
  );
}

export function raceText(r: KernelResult, race: Race, c: Colors, colour: boolean): string {
  const [a1, a2] = race.accesses;
  const confidence = race.confidence === 'confirmed' ? c.red(race.confirmedBy === 'run' ? 'confirmed by a run' : 'confirmed') : c.yellow('possible');
  const why = race.confidence === 'possible' ? `: ${reasonText(r.file, race.confidence, race.doubts)}` : race.confirmedBy === 'run' ? ': every array zero-filled' : '';
  const where = raceScopeText(race);
  const head =
    race.benign === true
      ? `${c.yellow('⚠')} data race on ${c.bold(elementText(race))} (${race.kind}, ${confidence}${why}, ${c.yellow('benign')}: ${BENIGN_TEXT})`
      : `${c.red('✗')} data race on ${c.bold(elementText(race))} (${race.kind}, ${confidence}${why})`;
  const accesses = `  ${where}: thread 1 ${accessVerb(a1)} at ${lineColOf(r.file, a1.span)}, thread 2 ${accessVerb(a2)} at ${lineColOf(r.file, a2.span)}`;
  const marks =
    a1.span.start === a2.span.start && a1.span.end === a2.span.end
      ? [{ span: a1.span, label: `${accessNoun(a1)} (both threads)` }]
      : [
          { span: a1.span, label: `${accessNoun(a1)} (thread 1)` },
          { span: a2.span, label: `${accessNoun(a2)} (thread 2)` },
        ];
  const replay = race.replay === undefined ? [] : replayLines(race.replay, ['thread 1', 'thread 2'], c);
  return [head, accesses, indent(framedSpans(r.file, marks, colour)), indent(witnessTable(race.witness, ['thread 1', 'thread 2'], c)), ...gridHintLines(race.witness, c), ...replay].join('\n');
}

/** The outcome of `--replay`, with the small witness that was run when the reported one was too large. */
function replayLines(r: ReplayRecord, heads: readonly [string, string], c: Colors): string[] {
  const verdict = r.replayed ? `  ${c.green('replayed')}: the interpreter reproduces it` : `  ${c.yellow('not replayed')}: ${r.note ?? 'no reason given'}`;
  if (r.minimised === null) return [verdict];
  const element = r.minimised.index.length === 0 ? '' : ` (element [${r.minimised.index.join('][')}])`;
  return [`  minimised witness${element}, the one replayed:`, indent(indent(witnessTable(r.minimised.witness, heads, c))), verdict];
}

export function divergenceText(r: KernelResult, d: Divergence, c: Colors, colour: boolean): string {
  const confidence = d.confidence === 'confirmed' ? c.red('confirmed') : c.yellow('possible');
  const why = d.confidence === 'possible' ? `: ${reasonText(r.file, d.confidence, d.doubts)}` : '';
  const head = `${c.red('✗')} barrier divergence at ${lineColOf(r.file, d.sync.span)} (${confidence}${why})`;
  const frame = framedSpan(r.file, d.sync.span, d.sync.scope === 'warp' ? 'thread 1 reaches this syncwarp, thread 2 of its warp does not' : 'thread 1 reaches this barrier, thread 2 does not', colour);
  const heads = ['thread 1 (reaches)', 'thread 2 (does not)'] as const;
  const replay = d.replay === undefined ? [] : replayLines(d.replay, heads, c);
  return [head, indent(frame), indent(witnessTable(d.witness, heads, c)), ...gridHintLines(d.witness, c), ...replay].join('\n');
}

function gridHintLines(w: Witness, c: Colors): string[] {
  const hint = largeGridHint(w);
  return hint === null ? [] : [`  ${c.green('hint')}: ${hint}`];
}

export interface WitnessRows {
  /** `M = 1; blockDim = 2, gridDim = 1` */
  readonly launch: string;
  /** name, thread 1's value, thread 2's value: threadIdx, blockIdx when there are several blocks, then locals */
  readonly rows: readonly (readonly [string, string, string])[];
}

/** A witness as rows of a table: the text report prints them, the playground shows them as a table. */
export function witnessRows(w: Witness): WitnessRows {
  const rows: [string, string, string][] = [];
  const [t1, t2] = w.threads;
  rows.push(['threadIdx', idText(t1.threadIdx, w.blockDim), idText(t2.threadIdx, w.blockDim)]);
  const manyBlocks = w.gridDim.some((d) => d > 1n);
  if (manyBlocks) rows.push(['blockIdx', idText(t1.blockIdx, w.gridDim), idText(t2.blockIdx, w.gridDim)]);
  const names = [...new Set([...t1.locals.keys(), ...t2.locals.keys()])];
  for (const n of names) rows.push([n, String(t1.locals.get(n) ?? '—'), String(t2.locals.get(n) ?? '—')]);
  const params = [...w.parameters].map(([n, v]) => `${n} = ${v}`).join(', ');
  return { launch: `${params === '' ? 'no parameters' : params}; blockDim = ${dimText(w.blockDim)}, gridDim = ${dimText(w.gridDim)}`, rows };
}

/** Parameters and dimensions, then one column per thread. */
export function witnessTable(w: Witness, heads: readonly [string, string], c: Colors): string {
  const { launch, rows } = witnessRows(w);
  const wName = Math.max(...rows.map((r) => r[0].length), 0);
  const w1 = Math.max(heads[0].length, ...rows.map((r) => r[1].length));
  const out = [
    `witness: ${launch}`,
    `  ${''.padEnd(wName)}   ${c.bold(heads[0].padEnd(w1))} | ${c.bold(heads[1])}`,
    ...rows.map(([n, v1, v2]) => `  ${n.padEnd(wName)}   ${v1.padEnd(w1)} | ${v2}`),
  ];
  return out.join('\n');
}

export interface StatusCounts {
  readonly total: number;
  readonly byStatus: ReadonlyMap<Status, number>;
}

/** A file that failed before inference counts as one kernel in error. */
export function statusCounts(files: readonly FileResult[]): StatusCounts {
  const byStatus = new Map<Status, number>(STATUSES.map((s) => [s, 0]));
  let total = 0;
  for (const f of files) {
    const statuses: Status[] = f.ok ? f.kernels.map((k) => k.status) : ['error'];
    for (const s of statuses) {
      byStatus.set(s, (byStatus.get(s) ?? 0) + 1);
      total++;
    }
  }
  return { total, byStatus };
}

/** A file in error only because it has no kernel (E0606), or a project's host file (its E0606 a note): said as that, not counted as a kernel in error. */
export const withoutKernel = (f: FileResult): boolean =>
  f.ok ? f.kernels.length === 0 && (f.notices ?? []).some((d) => d.code === 'E0606') : f.diagnostics.length > 0 && f.diagnostics.every((d) => d.code === 'E0606');

export function summaryText(files: readonly FileResult[], colour: boolean): string {
  const c = colorsOf(colour);
  const empty = files.filter(withoutKernel).length;
  const { total, byStatus } = statusCounts(files.filter((f) => !withoutKernel(f)));
  const parts = STATUSES.filter((s) => (byStatus.get(s) ?? 0) > 0).map((s) => `${byStatus.get(s)} ${statusName(s)}`);
  if (total === 0 && empty > 0) return c.bold(empty === 1 && files.length === 1 ? 'no kernel in this file' : `no kernel in ${plural(empty, 'file')}`);
  const kernels = `${plural(total, 'kernel')}: ${parts.length === 0 ? 'nothing verified' : parts.join(', ')}`;
  return c.bold(empty === 0 ? kernels : `${kernels}; no kernel in ${plural(empty, 'file')}`);
}

/** One row per kernel (a file that failed before inference is one row), for runs over many kernels. */
export function summaryTable(files: readonly FileResult[], colour: boolean): string {
  const c = colorsOf(colour);
  const paint = (s: Status, text: string): string => (s === 'drf' ? c.green(text) : s === 'unknown' || s === 'vacuous' ? c.yellow(text) : s === 'error' ? c.bold(text) : c.red(text));
  const rows = files.flatMap((f): { status: Status; cells: string[] }[] =>
    f.ok
      ? f.kernels.map((k) => ({
          status: k.status,
          cells: [statusName(k.status), k.kernel, f.path, String(k.races.length + k.divergences.length), String(k.unknowns.length), String(k.stats.queries), `${Math.round(k.stats.milliseconds)} ms`],
        }))
      : [{ status: 'error', cells: [statusName('error'), '—', f.path, '—', '—', '—', '—'] }],
  );
  const head = ['status', 'kernel', 'file', 'alarms', 'unknown', 'queries', 'time'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r.cells[i]!.length)));
  // text columns flush left, counts flush right
  const line = (cells: readonly string[]): string => cells.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [c.bold(line(head)), ...rows.map((r) => paint(r.status, r.cells[0]!.padEnd(widths[0]!)) + line(r.cells).slice(widths[0]!))].join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}
