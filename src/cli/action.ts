/**
 * The decisions of the GitHub Action (action.yml, scripts/action/run.js),
 * as pure functions a test can call: the command lines it runs, whether the
 * job fails, the job summary, the annotations, the docs URL for the rules'
 * helpUri. scripts/action/run.js does the processes and files.
 */
import type { Log, Result } from 'sarif';
import { EXIT_ALARM, EXIT_BAD_INPUT, EXIT_DRF, EXIT_UNKNOWN, EXIT_VACUOUS } from './exit.js';

/**
 * When the job fails: `confirmed` on a proved alarm (a confirmed race or
 * barrier divergence), a kernel that could not be verified, or a vacuous
 * one; `possible` unless every kernel is proved (verify's exit code 0:
 * DRF, benign races only); `never` only when faial-ts itself did not run to
 * a report. A file without any kernel (a header, host code) fails neither.
 */
export type FailOn = 'confirmed' | 'possible' | 'never';

export interface ActionInputs {
  readonly paths: readonly string[];
  readonly compileCommands: string | null;
  readonly failOn: FailOn;
  readonly extraArgs: readonly string[];
  readonly sarifPath: string;
  readonly upload: boolean;
}

/** The action's inputs as the workflow gives them (strings); a wrong one is an error that names it. */
export function actionInputsOf(env: Readonly<Record<string, string | undefined>>): ActionInputs | { readonly error: string } {
  const failOn = (env['FAIAL_FAIL_ON'] ?? 'confirmed').trim() || 'confirmed';
  if (failOn !== 'confirmed' && failOn !== 'possible' && failOn !== 'never') return { error: `fail-on: '${failOn}' is none of confirmed, possible, never` };
  const upload = (env['FAIAL_UPLOAD'] ?? 'true').trim() || 'true';
  if (upload !== 'true' && upload !== 'false') return { error: `upload: '${upload}' is neither true nor false` };
  const paths = words(env['FAIAL_PATHS']);
  const compileCommands = (env['FAIAL_COMPILE_COMMANDS'] ?? '').trim() || null;
  if (paths.length === 0 && compileCommands === null) return { error: 'give paths (files or directories) or compile-commands' };
  return { paths, compileCommands, failOn, extraArgs: words(env['FAIAL_ARGS']), sarifPath: (env['FAIAL_SARIF'] ?? '').trim() || 'faial-ts.sarif', upload: upload === 'true' };
}

/** A list input: items separated by white space or new lines (no quoting: a path with a space is not supported). */
function words(text: string | undefined): string[] {
  return (text ?? '').split(/\s+/).filter((w) => w !== '');
}

/** The arguments of the two `faial-ts verify` runs: the SARIF log and the text report. */
export function verifyArgs(inputs: ActionInputs, report: 'sarif' | 'text', helpUrl: string | null): string[] {
  const project = inputs.compileCommands === null ? [] : ['--compile-commands', inputs.compileCommands];
  const sarif = report === 'sarif' ? ['--sarif', ...(helpUrl === null ? [] : ['--sarif-help-url', helpUrl])] : [];
  return ['verify', ...sarif, ...project, ...inputs.extraArgs, ...(inputs.paths.length > 0 ? ['--', ...inputs.paths] : [])];
}

/**
 * The docs/ folder of the action's own checkout on GitHub, for the rules'
 * helpUri: the given URL; else the action's repository at its ref (which
 * composite actions do not always know); else, when the action is the
 * workflow's own repository (`uses: ./`), that repository at the commit; else none.
 */
export function docsUrlOf(env: Readonly<Record<string, string | undefined>>, actionDir: string): string | null {
  const given = (env['FAIAL_DOCS_URL'] ?? '').trim();
  if (given !== '') return given;
  const server = env['GITHUB_SERVER_URL'] || 'https://github.com';
  const repo = env['FAIAL_ACTION_REPOSITORY'];
  const ref = env['FAIAL_ACTION_REF'];
  if (repo && ref) return `${server}/${repo}/blob/${ref}/docs/`;
  const workspace = env['GITHUB_WORKSPACE'];
  if (workspace && env['GITHUB_REPOSITORY'] && env['GITHUB_SHA'] && isInside(actionDir, workspace)) return `${server}/${env['GITHUB_REPOSITORY']}/blob/${env['GITHUB_SHA']}/docs/`;
  return null;
}

function isInside(dir: string, root: string): boolean {
  const r = root.replace(/[\\/]+$/, '');
  return dir === r || dir.startsWith(`${r}/`) || dir.startsWith(`${r}\\`);
}

/** A race or divergence proved real (error level), not benign. */
function isConfirmedAlarm(r: Result): boolean {
  return (r.ruleId === 'faial/data-race' || r.ruleId === 'faial/barrier-divergence') && r.level === 'error';
}

export interface Gate {
  readonly fail: boolean;
  readonly reason: string;
}

/** A file without any kernel (a header, host code): E0606, which makes verify's exit code 2 but is nothing to verify. */
function isKernelLess(r: Result): boolean {
  return r.ruleId === 'faial/input-error' && r.properties?.['code'] === 'E0606';
}

/** verify's exit code as the results give it, for when exit code 2 (which masks 1, 4 and 3) came only from files without kernels. */
function exitCodeOfResults(results: readonly Result[]): number {
  if (results.some((r) => (r.ruleId === 'faial/data-race' || r.ruleId === 'faial/barrier-divergence') && (r.level === 'error' || r.level === 'warning'))) return EXIT_ALARM;
  if (results.some((r) => r.ruleId === 'faial/vacuous')) return EXIT_VACUOUS;
  if (results.some((r) => r.ruleId === 'faial/unknown')) return EXIT_UNKNOWN;
  return EXIT_DRF;
}

/** Whether the job fails, from verify's exit code and its SARIF log (null: none was printed, or it is not JSON). */
export function gateOf(failOn: FailOn, exitCode: number, log: Log | null): Gate {
  const known = [EXIT_DRF, EXIT_ALARM, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_VACUOUS].includes(exitCode);
  if (!known || log === null) return { fail: true, reason: `faial-ts stopped without a report (exit code ${exitCode})` };
  const results = log.runs.flatMap((run) => run.results ?? []);
  const confirmed = results.filter(isConfirmedAlarm).length;
  const onlyKernelLess = exitCode === EXIT_BAD_INPUT && results.some(isKernelLess) && !results.some((r) => r.ruleId === 'faial/input-error' && !isKernelLess(r));
  const code = onlyKernelLess ? exitCodeOfResults(results) : exitCode;
  switch (failOn) {
    case 'never':
      return { fail: false, reason: `fail-on: never (verify's exit code ${exitCode})` };
    case 'possible':
      return code === EXIT_DRF ? { fail: false, reason: 'every kernel is proved' } : { fail: true, reason: `fail-on: possible, and not every kernel is proved (verify's exit code ${code})` };
    case 'confirmed':
      if (code === EXIT_BAD_INPUT) return { fail: true, reason: 'some input could not be verified (exit code 2)' };
      if (code === EXIT_VACUOUS) return { fail: true, reason: "some kernel's assumptions exclude every launch (exit code 4)" };
      if (confirmed > 0) return { fail: true, reason: `${confirmed} confirmed alarm${confirmed === 1 ? '' : 's'}` };
      return { fail: false, reason: code === EXIT_DRF ? 'every kernel is proved' : `no confirmed alarm (verify's exit code ${code})` };
  }
}

/** Results by level and rule, for the summary's table. */
function counts(log: Log): { rule: string; level: string; count: number }[] {
  const byKey = new Map<string, { rule: string; level: string; count: number }>();
  for (const r of log.runs.flatMap((run) => run.results ?? [])) {
    const rule = r.ruleId ?? '';
    const level = r.level ?? 'warning';
    const key = `${level}\u0000${rule}`;
    const entry = byKey.get(key) ?? { rule, level, count: 0 };
    byKey.set(key, { ...entry, count: entry.count + 1 });
  }
  const order = ['error', 'warning', 'note', 'none'];
  return [...byKey.values()].sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level) || a.rule.localeCompare(b.rule));
}

/** GitHub takes a job summary of at most 1 MiB: the text report is cut well below, the whole of it is in the step's log. */
export const SUMMARY_REPORT_LIMIT = 512 * 1024;

/** The job summary (Markdown): the gate, the findings by rule and level, and the text report. */
export function summaryMarkdown(gate: Gate, log: Log | null, wholeReport: string): string {
  const textReport = wholeReport.length <= SUMMARY_REPORT_LIMIT ? wholeReport : `${wholeReport.slice(0, SUMMARY_REPORT_LIMIT)}\n… (cut here: the whole report is in the step's log)\n`;
  const lines = [`## faial-ts: ${gate.fail ? 'failed' : 'passed'}`, '', gate.reason, ''];
  const rows = log === null ? [] : counts(log);
  if (rows.length > 0) lines.push('| level | rule | findings |', '| --- | --- | --- |', ...rows.map((r) => `| ${r.level} | \`${r.rule}\` | ${r.count} |`), '');
  // a fence longer than any run of backticks in the report
  const fence = '`'.repeat(Math.max(3, ...[...textReport.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  lines.push('<details><summary>The report</summary>', '', `${fence}text`, textReport.trimEnd(), fence, '', '</details>', '');
  return lines.join('\n');
}

/** GitHub workflow commands that annotate the errors and warnings of the log where they are (when its SARIF is not uploaded). */
export function annotations(log: Log, limit: number): string[] {
  const out: string[] = [];
  for (const r of log.runs.flatMap((run) => run.results ?? [])) {
    if (r.level !== 'error' && r.level !== 'warning') continue;
    const where = r.locations?.[0]?.physicalLocation;
    const file = where?.artifactLocation?.uri === undefined ? null : fileOfUri(where.artifactLocation.uri);
    const region = where?.region;
    const props = [
      ...(file === null ? [] : [`file=${property(file)}`]),
      ...(region?.startLine === undefined ? [] : [`line=${region.startLine}`]),
      ...(region?.startColumn === undefined ? [] : [`col=${region.startColumn}`]),
      `title=${property(r.ruleId ?? 'faial-ts')}`,
    ];
    out.push(`::${r.level} ${props.join(',')}::${data(r.message.text ?? '')}`);
    if (out.length === limit) break;
  }
  return out;
}

/** A SARIF artifact URI as the path GitHub annotates: relative to the checkout, or the file:// path. */
function fileOfUri(uri: string): string {
  return decodeURIComponent(uri.startsWith('file://') ? uri.slice('file://'.length) : uri);
}

// the escapes of GitHub's workflow commands
function data(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function property(text: string): string {
  return data(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
