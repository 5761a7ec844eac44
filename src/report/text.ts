/**
 * The human report of `faial-ts verify`: one block per kernel (its verdict,
 * and for every alarm the source with both accesses marked and a witness
 * table), then one summary line over all kernels.
 */
import type { Launch } from '../encode/query.js';
import { colorsOf, framedSpan, framedSpans, lineColOf, renderedDiagnostics, type Colors } from '../diagnostics/render.js';
import type { FileResult } from '../verify/pipeline.js';
import type { Divergence, KernelResult, Race, Status, Witness } from '../verify/result.js';
import { assertNever } from '../util/assert.js';
import { dimText, elementText, idText, launchText, plural, reasonText, wellTypedText } from './describe.js';

export interface TextOptions {
  readonly colour: boolean;
  /** the facts the command line fixed for this kernel, named in the verdict */
  readonly launchOf?: (r: KernelResult) => Launch | null;
}

const STATUSES: readonly Status[] = ['drf', 'racy', 'divergent', 'unknown', 'error'];

function statusName(s: Status): string {
  switch (s) {
    case 'drf':
      return 'DRF';
    case 'racy':
      return 'racy';
    case 'divergent':
      return 'divergent';
    case 'unknown':
      return 'unknown';
    case 'error':
      return 'error';
    default:
      return assertNever(s);
  }
}

export function textReport(files: readonly FileResult[], options: TextOptions): string {
  const blocks = files.flatMap((f) => (f.ok ? f.kernels.map((k) => kernelText(k, options)) : [fileErrorText(f, options.colour)]));
  return `${[...blocks, summaryText(files, options.colour)].join('\n')}\n`;
}

function fileErrorText(f: Extract<FileResult, { ok: false }>, colour: boolean): string {
  const c = colorsOf(colour);
  return `${c.red('✗')} ${f.path}: ${c.bold('error')} — ${plural(f.diagnostics.length, 'error')}, nothing verified\n${renderedDiagnostics(f.diagnostics, colour)}`;
}

function statsText(r: KernelResult): string {
  const s = r.stats;
  return `${plural(s.phases, 'phase')}, ${plural(s.arrays, 'array')}, ${plural(s.queries, 'query', 'queries')}, ${Math.round(s.milliseconds)} ms`;
}

export function kernelText(r: KernelResult, options: TextOptions): string {
  const c = colorsOf(options.colour);
  const name = `${c.bold(r.kernel)} (${r.file.path})`;
  const launch = options.launchOf?.(r) ?? null;
  const given = launch === null ? null : launchText(launch);
  const scope = given === null ? 'for all parameters and launches' : `for all parameters and launches with ${given}`;
  const lines: string[] = [];
  switch (r.status) {
    case 'drf':
      lines.push(`${c.green('✓')} ${name}: ${c.green('DRF')} — proved ${scope}: ${statsText(r)}`);
      lines.push(wellTypedText(r));
      break;
    case 'racy':
      lines.push(`${c.red('✗')} ${name}: ${c.red('racy')} — ${plural(r.races.length, 'data race')} ${scope}: ${statsText(r)}`);
      lines.push(wellTypedText(r));
      for (const race of r.races) lines.push(raceText(r, race, c, options.colour));
      break;
    case 'divergent':
      lines.push(`${c.red('✗')} ${name}: ${c.red('divergent')} — ${plural(r.divergences.length, 'barrier divergence')} ${scope}: ${statsText(r)}`);
      lines.push(wellTypedText(r));
      for (const d of r.divergences) lines.push(divergenceText(r, d, c, options.colour));
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
  // An alarm does not need every query answered, but what was not answered is still not proved.
  if (r.unknowns.length > 0) {
    if (r.status !== 'unknown') lines.push(c.yellow(`also not proved (${plural(r.unknowns.length, 'query', 'queries')} without an answer):`));
    for (const u of r.unknowns) lines.push(`  query ${u.query}: ${u.reason || 'the solver gave no reason'}`);
    if (r.unknowns.some((u) => /timeout|canceled/i.test(u.reason))) lines.push(`${c.green('hint')}: a larger --timeout may help`);
  }
  return `${lines.join('\n')}\n`;
}

function raceText(r: KernelResult, race: Race, c: Colors, colour: boolean): string {
  const [a1, a2] = race.accesses;
  const confidence = race.confidence === 'confirmed' ? c.red('confirmed') : c.yellow('possible');
  const why = race.confidence === 'possible' ? `: ${reasonText(r.file, race.confidence, race.doubts)}` : '';
  const where = race.level === 'block' ? `within a block, phase ${race.phase ?? '?'}` : 'between blocks';
  const head = `${c.red('✗')} data race on ${c.bold(elementText(race.array, race.index))} (${race.kind}, ${confidence}${why})`;
  const accesses = `  ${where}: thread 1 ${a1.mode}s at ${lineColOf(r.file, a1.span)}, thread 2 ${a2.mode}s at ${lineColOf(r.file, a2.span)}`;
  const marks =
    a1.span.start === a2.span.start && a1.span.end === a2.span.end
      ? [{ span: a1.span, label: `${a1.mode} (both threads)` }]
      : [
          { span: a1.span, label: `${a1.mode} (thread 1)` },
          { span: a2.span, label: `${a2.mode} (thread 2)` },
        ];
  return [head, accesses, indent(framedSpans(r.file, marks, colour)), indent(witnessTable(race.witness, ['thread 1', 'thread 2'], c))].join('\n');
}

function divergenceText(r: KernelResult, d: Divergence, c: Colors, colour: boolean): string {
  const confidence = d.confidence === 'confirmed' ? c.red('confirmed') : c.yellow('possible');
  const why = d.confidence === 'possible' ? `: ${reasonText(r.file, d.confidence, d.doubts)}` : '';
  const head = `${c.red('✗')} barrier divergence at ${lineColOf(r.file, d.sync.span)} (${confidence}${why})`;
  const frame = framedSpan(r.file, d.sync.span, 'thread 1 reaches this barrier, thread 2 does not', colour);
  return [head, indent(frame), indent(witnessTable(d.witness, ['thread 1 (reaches)', 'thread 2 (does not)'], c))].join('\n');
}

/** Parameters and dimensions, then one column per thread. */
export function witnessTable(w: Witness, heads: readonly [string, string], c: Colors): string {
  const rows: [string, string, string][] = [];
  const [t1, t2] = w.threads;
  rows.push(['threadIdx', idText(t1.threadIdx, w.blockDim), idText(t2.threadIdx, w.blockDim)]);
  const manyBlocks = w.gridDim.some((d) => d > 1n);
  if (manyBlocks) rows.push(['blockIdx', idText(t1.blockIdx, w.gridDim), idText(t2.blockIdx, w.gridDim)]);
  const names = [...new Set([...t1.locals.keys(), ...t2.locals.keys()])];
  for (const n of names) rows.push([n, String(t1.locals.get(n) ?? '—'), String(t2.locals.get(n) ?? '—')]);
  const wName = Math.max(...rows.map((r) => r[0].length), 0);
  const w1 = Math.max(heads[0].length, ...rows.map((r) => r[1].length));
  const params = [...w.parameters].map(([n, v]) => `${n} = ${v}`).join(', ');
  const out = [
    `witness: ${params === '' ? 'no parameters' : params}; blockDim = ${dimText(w.blockDim)}, gridDim = ${dimText(w.gridDim)}`,
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

export function summaryText(files: readonly FileResult[], colour: boolean): string {
  const c = colorsOf(colour);
  const { total, byStatus } = statusCounts(files);
  const parts = STATUSES.filter((s) => (byStatus.get(s) ?? 0) > 0).map((s) => `${byStatus.get(s)} ${statusName(s)}`);
  return c.bold(`${plural(total, 'kernel')}: ${parts.length === 0 ? 'nothing verified' : parts.join(', ')}`);
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? l : `  ${l}`))
    .join('\n');
}
