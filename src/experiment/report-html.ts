/**
 * report.html, written by `faial-ts experiment` beside summary.md: the same
 * summary (class table, verdicts, alarms, time per stage), the time per stage
 * of the slowest kernels as a chart, and one table row per kernel, which the
 * chart and the list of alarmed kernels link to. One file, no script, no
 * network.
 */
import { statusName } from '../report/describe.js';
import { escapedXml, stackedBarsSvg } from './svg.js';
import { htmlPage, inlineHtml, markdownHtml } from './html.js';
import { summaryMarkdown, type ExperimentResults } from './results.js';
import { STAGES, type ExperimentRow } from './rows.js';

/** The chart shows at most this many kernels, the slowest. */
export const CHARTED_KERNELS = 50;

export const rowId = (i: number): string => `kernel-${i + 1}`;

const rowName = (r: ExperimentRow): string => (r.kind === 'kernel' ? `${r.kernel} (${r.file})` : `${r.file} (file error)`);

function rowHtml(r: ExperimentRow, i: number): string {
  const num = (n: number | string): string => `<td class="num">${n}</td>`;
  const verdict = r.kind === 'kernel' ? r.verdict : 'error';
  const cells = [
    num(i + 1),
    `<td>${escapedXml(r.file)}</td>`,
    `<td>${r.kind === 'kernel' ? escapedXml(r.kernel) : '—'}</td>`,
    `<td>${r.kind === 'kernel' ? r.class : '—'}</td>`,
    `<td class="${verdict}">${statusName(verdict)}</td>`,
    ...(r.kind === 'kernel' ? [num(r.confirmedAlarms), num(r.possibleAlarms), num(r.unknownQueries), num(r.queries), num(r.solverQueries)] : [num('—'), num('—'), num('—'), num('—'), num('—')]),
    ...STAGES.map((s) => num(r.times[s].toFixed(1))),
    num(r.totalMs.toFixed(1)),
    `<td>${r.error === null ? '' : `<code>${escapedXml(r.error.split('\n')[0]!)}</code>`}</td>`,
  ];
  return `<tr id="${rowId(i)}">${cells.join('')}</tr>`;
}

export function experimentHtml(results: ExperimentResults): string {
  const rows = results.rows;
  const slowest = rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => b.r.totalMs - a.r.totalMs)
    .slice(0, CHARTED_KERNELS);
  const chart = stackedBarsSvg({
    title: 'Time per stage (ms)',
    xLabel: 'milliseconds',
    parts: [...STAGES],
    bars: slowest.map(({ r, i }) => ({ label: rowName(r), href: `#${rowId(i)}`, values: STAGES.map((s) => r.times[s]) })),
  });
  const alarmed = rows.flatMap((r, i) => (r.kind === 'kernel' && r.confirmedAlarms + r.possibleAlarms > 0 ? [{ r, i }] : []));
  const head = ['#', 'file', 'kernel', 'class', 'verdict', 'confirmed', 'possible', 'unknown queries', 'queries', 'solver queries', ...STAGES.map((s) => `${s} ms`), 'total ms', 'error'];
  const body = [
    markdownHtml(summaryMarkdown(results)),
    '<h2>Alarms by kernel</h2>',
    alarmed.length === 0
      ? '<p>No kernel has an alarm.</p>'
      : `<ul>${alarmed
          .map(({ r, i }) => (r.kind === 'kernel' ? `<li><a href="#${rowId(i)}">${inlineHtml(rowName(r))}</a>: ${statusName(r.verdict)}, ${r.confirmedAlarms} confirmed, ${r.possibleAlarms} possible</li>` : ''))
          .join('')}</ul>`,
    `<h2>Time per stage${rows.length > CHARTED_KERNELS ? `, the ${CHARTED_KERNELS} slowest kernels` : ''}</h2>`,
    chart,
    '<h2>Kernels</h2>',
    `<table class="kernels"><thead><tr>${head.map((h) => `<th>${escapedXml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map(rowHtml).join('\n')}</tbody></table>`,
  ];
  return htmlPage(`faial-ts experiment: ${rows.length} rows`, body.join('\n'));
}
