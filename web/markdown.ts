/**
 * A verification as Markdown, to paste into a GitHub issue or comment: the
 * summary, each kernel's verdict, each alarm with its label, where its
 * accesses are and its witness as a table, and the text report in a
 * collapsed section; then the version, the command line and the link that
 * reproduce it. Made from the same views the page shows.
 */
import type { AlarmView, DiagnosticView, KernelView, WitnessView } from './protocol.js';

export interface MarkdownReport {
  /** the file's name, as the report names it */
  readonly path: string;
  /** the text that was verified: the accesses' lines are counted in it */
  readonly text: string;
  readonly summary: string;
  readonly kernels: readonly KernelView[];
  readonly notices: readonly DiagnosticView[];
  readonly internal: readonly string[];
  readonly version: string;
  /** the equivalent command line */
  readonly command: string;
  /** the playground link that reproduces it, if any */
  readonly link: string | null;
}

/** Text that Markdown shows as written: its punctuation escaped, its line breaks as spaces. */
export function escaped(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]<>|#~&!]/g, '\\$&');
}

/** A code span holding `text` whatever backticks it contains. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${ticks}${pad}${text.replace(/[\r\n]+/g, ' ')}${pad}${ticks}`;
}

/** A fenced block holding `text` whatever fences it contains. */
function fenced(text: string, info = 'text'): string[] {
  const longest = Math.max(0, ...(text.match(/^ {0,3}`{3,}/gm) ?? []).map((r) => r.trim().length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, text.replace(/\n$/, ''), fence];
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < Math.min(offset, text.length); i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function witnessTable(w: WitnessView): string[] {
  const cell = escaped;
  return [
    `${escaped(w.caption)}: ${escaped(w.launch)}`,
    '',
    `| | ${cell(w.heads[0])} | ${cell(w.heads[1])} |`,
    '| --- | --- | --- |',
    // a table's cells end at any |, in code too (GitHub's tables): escaped there as well
    ...w.rows.map(([name, v1, v2]) => `| ${codeSpan(name).replace(/\|/g, '\\|')} | ${cell(v1)} | ${cell(v2)} |`),
    ...(w.names.length === 0 ? [] : ['', ...w.names.map((n) => `- ${escaped(n)}`)]),
  ];
}

function alarmLines(a: AlarmView, text: string): string[] {
  const where = a.marks.map((m) => `${m.label} at line ${lineAt(text, m.start)}`).join(', ');
  return [
    `**${escaped(a.label)}**: ${escaped(a.title)}${where === '' ? '' : `; ${escaped(where)}`}`,
    '',
    `${a.label === 'confirmed' ? 'confirmed' : `why only ${escaped(a.label)}`}: ${escaped(a.reason)}`,
    '',
    ...witnessTable(a.witness),
    ...(a.replay === null ? [] : ['', escaped(a.replay)]),
    '',
  ];
}

function kernelLines(k: KernelView, text: string): string[] {
  const facts = [k.wellTyped, k.execution].filter((f): f is string => f !== null);
  return [
    `#### ${escaped(k.headline)}`,
    '',
    ...(facts.length === 0 ? [] : [...facts.map((f) => `- ${escaped(f)}`), '']),
    ...k.alarms.flatMap((a) => alarmLines(a, text)),
    ...(k.unknowns.length === 0 ? [] : ['Not proved (queries without an answer):', '', ...k.unknowns.map((u) => `- ${escaped(u)}`), '']),
    ...(k.errors.length === 0 ? [] : [...fenced(k.errors.map((d) => d.text).join('\n')), '']),
    '<details><summary>text report</summary>',
    '',
    ...fenced(k.text),
    '',
    '</details>',
    '',
  ];
}

/** A URL as a link's destination: the characters that would end it percent-encoded. */
function linkTarget(url: string): string {
  return url.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The report as Markdown (GitHub's dialect: tables, <details>). */
export function reportMarkdown(r: MarkdownReport): string {
  const footer = [`faial-ts ${escaped(r.version)}`, codeSpan(r.command), ...(r.link === null ? [] : [`[open in the playground](${linkTarget(r.link)})`])];
  return [
    `### faial-ts: ${codeSpan(r.path)}`,
    '',
    `**${escaped(r.summary)}**`,
    '',
    ...r.internal.flatMap((f) => [`**internal error**: ${escaped(f)} (a confirmed alarm the interpreter did not reproduce: a bug in faial-ts)`, '']),
    ...r.kernels.flatMap((k) => kernelLines(k, r.text)),
    ...(r.notices.length === 0 ? [] : ['Notes:', '', ...fenced(r.notices.map((d) => d.text).join('\n')), '']),
    footer.join(' · '),
    '',
  ].join('\n');
}
