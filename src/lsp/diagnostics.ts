/**
 * A file's verification result as LSP diagnostics, grouped by the file each
 * one is in: a CUDA file's diagnostic whose span came from an included header
 * goes to that header's document, as `verify` names the header in its report.
 * The same alarms as `verify --json` and `--sarif`, at the same spans:
 *
 *   a race        on thread 1's access; thread 2's access is its related
 *                 information, the witness is in the message; Error when
 *                 confirmed, Warning when possible, Information when benign
 *   a divergence  on the barrier, Error or Warning as a race
 *   front end     each diagnostic at its span, hints in the message
 *   a barrier     proved redundant (the `barriers` setting, as `verify
 *                 --barriers`): a Warning on it
 *   kernel-wide   unknown (Warning), vacuous (Error), lockstep-only
 *                 (Warning) at the kernel's first line; the scope of a
 *                 machine-integer verdict as a Hint there
 *
 * Protocol-independent: positions and messages only, no transport.
 */
import type { Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, Range } from 'vscode-languageserver';
import { userSpan, type SourceFile, type Span } from '../core/source.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import { BENIGN_TEXT, LOCKSTEP_ONLY_TEXT, kernelHead, accessNoun, accessVerb, elementText, executionText, raceScopeText, reasonText, scopeText, statusName, vacuousText } from '../report/describe.js';
import { raceGroups, witnessRows } from '../report/text.js';
import { assertNever } from '../util/assert.js';
import type { BarrierCheck, Confidence, Divergence, FileResult, KernelResult, Race, Witness } from '../verify/result.js';
import { barrierReasonText } from '../report/barriers.js';
import { undefinedDiagnostics } from '../report/undefined.js';

/** The `source` of every diagnostic this server publishes. */
export const SOURCE = 'faial-ts';

const ERROR: DiagnosticSeverity = 1;
const WARNING: DiagnosticSeverity = 2;
const INFORMATION: DiagnosticSeverity = 3;
const HINT: DiagnosticSeverity = 4;

/** What a code action needs to know about an alarm's diagnostic: the kernel it is in. */
export interface AlarmData {
  readonly kernel: string;
}

/** A file path as the client names it (a `file:` URI). */
export type UriOf = (path: string) => string;

/** Where a span of `file` is for the user, as an LSP location: in the file they wrote, through macros and includes. */
export function locationOf(file: SourceFile, span: Span, uriOf: UriOf): Location & { readonly path: string } {
  const u = userSpan(file, span);
  return { path: u.file.path, uri: uriOf(u.file.path), range: { start: { line: u.start.line - 1, character: u.start.column - 1 }, end: { line: u.end.line - 1, character: u.end.column - 1 } } };
}

/** The diagnostics of one file's verification, by the path of the file each is in (the verified file first, even with none). */
export function diagnosticsByPath(result: FileResult, uriOf: UriOf): Map<string, LspDiagnostic[]> {
  const out = new Map<string, LspDiagnostic[]>([[result.path, []]]);
  const add = (path: string, d: LspDiagnostic): void => void out.set(path, [...(out.get(path) ?? []), d]);
  const placed = (file: SourceFile, span: Span, make: (range: Range) => LspDiagnostic): void => {
    const at = locationOf(file, span, uriOf);
    add(at.path, make(at.range));
  };
  if (!result.ok) {
    for (const d of result.diagnostics) placed(d.file, d.span, (range) => frontEndDiagnostic(d, range, uriOf));
    return out;
  }
  for (const r of result.kernels) {
    for (const d of r.errors) placed(d.file, d.span, (range) => frontEndDiagnostic(d, range, uriOf));
    for (const race of raceGroups(r.races).flat()) placed(r.file, race.accesses[0].span, (range) => raceDiagnostic(r, race, range, uriOf));
    for (const d of r.divergences) placed(r.file, d.sync.span, (range) => divergenceDiagnostic(r, d, range));
    for (const b of r.barriers ?? []) if (b.verdict === 'redundant') placed(r.file, b.sync.span, (range) => redundantDiagnostic(r, b, range));
    for (const d of kernelWide(r)) placed(r.file, kernelHead(r.file, r.span), (range) => ({ ...d, range }));
    // an operation outside the scope that some launch may reach, where it is (W0801)
    for (const d of undefinedDiagnostics(r)) placed(d.file, d.span, (range) => frontEndDiagnostic(d, range, uriOf));
    for (const a of r.approximations ?? []) {
      placed(r.file, a.span, (range) => ({ range, severity: INFORMATION, source: SOURCE, code: 'faial/approximation', message: `approximated in kernel ${r.kernel}: ${a.what} (${a.why}); alarms that depend on it are only possible` }));
    }
  }
  for (const d of result.notices ?? []) placed(d.file, d.span, (range) => frontEndDiagnostic(d, range, uriOf));
  return out;
}

function severityOf(s: Severity): DiagnosticSeverity {
  switch (s) {
    case 'error':
      return ERROR;
    case 'warning':
      return WARNING;
    case 'note':
      return INFORMATION;
    default:
      return assertNever(s);
  }
}

function frontEndDiagnostic(d: Diagnostic, range: Range, uriOf: UriOf): LspDiagnostic {
  const related: DiagnosticRelatedInformation[] = d.related.map((rel) => ({ location: locationOf(d.file, rel.span, uriOf), message: rel.message }));
  return {
    range,
    severity: severityOf(d.severity),
    source: SOURCE,
    code: d.code,
    message: [d.label === undefined ? d.message : `${d.message} (${d.label})`, ...d.hints.map((h) => `hint: ${h}`)].join('\n'),
    ...(related.length === 0 ? {} : { relatedInformation: related }),
  };
}

function alarmSeverity(confidence: Confidence): DiagnosticSeverity {
  return confidence === 'confirmed' ? ERROR : WARNING;
}

/** `witness: N = 4; blockDim = 2, gridDim = 1; threadIdx 0 | 1; i 3 | 3` */
export function witnessLine(w: Witness): string {
  const { launch, rows } = witnessRows(w);
  return `witness: ${[launch, ...rows.map(([name, v1, v2]) => `${name} ${v1} | ${v2}`)].join('; ')}`;
}

function raceDiagnostic(r: KernelResult, race: Race, range: Range, uriOf: UriOf): LspDiagnostic {
  const [a1, a2] = race.accesses;
  const other = locationOf(r.file, a2.span, uriOf);
  const where = race.level === 'grid' ? raceScopeText(race) : `${raceScopeText(race)}, ${executionText(r)}`;
  const confidence = race.confidence === 'possible' ? `possible: ${reasonText(r.file, race.confidence, race.doubts)}` : race.confirmedBy === 'run' ? 'confirmed by a run, every array zero-filled' : 'confirmed';
  const benign = race.benign === true ? ` Benign: ${BENIGN_TEXT}.` : '';
  const data: AlarmData = { kernel: r.kernel };
  return {
    range,
    severity: race.benign === true ? INFORMATION : alarmSeverity(race.confidence),
    source: SOURCE,
    code: 'faial/data-race',
    message:
      `data race on ${elementText(race)} in kernel ${r.kernel} (${race.kind}, ${confidence}): ` +
      `thread 1 ${accessVerb(a1)} here, thread 2 ${accessVerb(a2)} at ${other.range.start.line + 1}:${other.range.start.character + 1} (${where}).${benign}\n${witnessLine(race.witness)}`,
    relatedInformation: [{ location: { uri: other.uri, range: other.range }, message: `${accessNoun(a2)} by thread 2 (the other access of the race on ${race.array})` }],
    data,
  };
}

function divergenceDiagnostic(r: KernelResult, d: Divergence, range: Range): LspDiagnostic {
  const confidence = d.confidence === 'confirmed' ? 'confirmed' : `possible: ${reasonText(r.file, d.confidence, d.doubts)}`;
  const among = d.sync.scope === 'warp' ? 'warp (a syncwarp)' : 'block';
  const data: AlarmData = { kernel: r.kernel };
  return {
    range,
    severity: alarmSeverity(d.confidence),
    source: SOURCE,
    code: 'faial/barrier-divergence',
    message: `barrier divergence in kernel ${r.kernel} (${confidence}): thread 1 reaches this barrier, thread 2 of the same ${among} does not.\n${witnessLine(d.witness)}`,
    data,
  };
}

function redundantDiagnostic(r: KernelResult, b: BarrierCheck, range: Range): LspDiagnostic {
  const data: AlarmData = { kernel: r.kernel };
  return {
    range,
    severity: WARNING,
    source: SOURCE,
    code: 'faial/redundant-barrier',
    message: `redundant barrier in kernel ${r.kernel}: ${barrierReasonText(r, b)} (this barrier alone removed; removing several at once needs its own proof)`,
    data,
  };
}

/** The kernel's diagnostics that are about the whole kernel, without their range. */
function kernelWide(r: KernelResult): Omit<LspDiagnostic, 'range'>[] {
  const out: Omit<LspDiagnostic, 'range'>[] = [];
  const at = (severity: DiagnosticSeverity, code: string, message: string): void => void out.push({ severity, source: SOURCE, code, message });
  if (r.status === 'unknown') at(WARNING, 'faial/unknown', `kernel ${r.kernel} is not proved data-race free: ${r.unknowns.length} solver ${r.unknowns.length === 1 ? 'query' : 'queries'} got no answer (${r.unknowns.map((u) => u.reason || 'no reason given').join('; ')})`);
  if (r.status === 'vacuous') at(ERROR, 'faial/vacuous', `kernel ${r.kernel}: ${vacuousText(r)}`);
  if (r.lockstepOnly === true) at(WARNING, 'faial/lockstep-only', `kernel ${r.kernel}: ${LOCKSTEP_ONLY_TEXT}`);
  const scope = scopeText(r);
  if (scope !== null && r.status !== 'error') at(HINT, 'faial/scope', `kernel ${r.kernel} (${statusName(r.status)}): ${scope}`);
  return out;
}

