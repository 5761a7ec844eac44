/**
 * Verification results as the page shows them (protocol.ts), made in the
 * worker from the same data and printers as the CLI's text report: only
 * offsets and strings cross to the page.
 */
import { located, type SourceFile, type Span } from '../src/core/source.js';
import type { Diagnostic } from '../src/diagnostics/diagnostic.js';
import { colorsOf, renderedDiagnostic } from '../src/diagnostics/render.js';
import { LOCKSTEP_ONLY_TEXT, elementText, executionText, raceScopeText, reasonText, wellTypedText } from '../src/report/describe.js';
import { divergenceText, kernelText, raceText, witnessRows } from '../src/report/text.js';
import type { Launch } from '../src/core/launch.js';
import type { Divergence, KernelResult, Race, ReplayRecord, Witness } from '../src/verify/result.js';
import type { KernelFix } from '../src/fix/fix.js';
import type { KernelMap } from '../src/map/map.js';
import { codeSpans } from '../src/phases/code.js';
import type { PhaseLine } from '../src/phases/print.js';
import type { AlarmView, DiagnosticView, KernelFixView, KernelView, Mark, PhaseLineView, WitnessView } from './protocol.js';

const plain = colorsOf(false);

/** The span in the editor's text, or null when it lies in another file (an included header). */
function editorSpan(file: SourceFile, span: Span, editorPath: string): Span | null {
  const at = located(file, span);
  return at.file.path === editorPath ? at.span : null;
}

export function diagnosticView(d: Diagnostic, editorPath: string): DiagnosticView {
  const span = editorSpan(d.file, d.span, editorPath) ?? { start: 0, end: 0 };
  return { severity: d.severity, code: d.code, message: d.message, start: span.start, end: span.end, text: renderedDiagnostic(d, false) };
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_]*/g;

/**
 * Where each witness row's name comes from, for the names that are not the
 * source's: a CUDA kernel's lowered program names each assignment anew
 * (`stride_1`) and names the values it reads (`vals_v`).
 */
function nameNotes(rows: WitnessView['rows'], sourceText: string): string[] {
  const source = new Set(sourceText.match(IDENTIFIER) ?? []);
  const notes: string[] = [];
  for (const [name] of rows) {
    if (name === 'threadIdx' || name === 'blockIdx' || source.has(name)) continue;
    const renamed = /^(.+)_(\d+)$/.exec(name);
    const base = renamed?.[1];
    if (base !== undefined && source.has(base)) notes.push(`${name} is ${base} after an assignment to it (the lowered program gives each assignment a new name)`);
    else if (name.endsWith('_v') && source.has(name.slice(0, -2))) notes.push(`${name} is a value read from ${name.slice(0, -2)}`);
    else if (name.endsWith('_old') && source.has(name.slice(0, -4))) notes.push(`${name} is the value an atomic operation on ${name.slice(0, -4)} returns`);
    else notes.push(`${name} is a name of the lowered program, not of the source (see the Lowered core tab)`);
  }
  return notes;
}

function witnessView(w: Witness, heads: readonly [string, string], caption: string, sourceText: string): WitnessView {
  const table = witnessRows(w);
  return { caption, heads, ...table, names: nameNotes(table.rows, sourceText) };
}

/** The witness shown first: the small one the interpreter replayed when there is one, the solver's own otherwise (then also given). */
function witnesses(r: KernelResult, w: Witness, replay: ReplayRecord | undefined, heads: readonly [string, string]): Pick<AlarmView, 'witness' | 'solverWitness'> {
  const small = replay?.minimised ?? null;
  if (small === null) return { witness: witnessView(w, heads, 'witness', r.file.text), solverWitness: null };
  const element = small.index.length === 0 ? '' : ` (element [${small.index.join('][')}])`;
  return {
    witness: witnessView(small.witness, heads, `smallest witness${element}, replayed by the interpreter`, r.file.text),
    solverWitness: witnessView(w, heads, "the solver's witness", r.file.text),
  };
}

function replayNote(r: ReplayRecord | undefined): string | null {
  if (r === undefined) return null;
  const small = r.minimised === null ? '' : ' (on a smaller witness of the same alarm)';
  return r.replayed ? `replayed: the interpreter reproduces it${small}` : `not replayed: ${r.note ?? 'no reason given'}`;
}

function marks(r: KernelResult, spans: readonly (Mark & Span)[], editorPath: string): Mark[] {
  return spans.flatMap((m) => {
    const span = editorSpan(r.file, m, editorPath);
    return span === null ? [] : [{ ...m, ...span }];
  });
}

function raceView(r: KernelResult, race: Race, editorPath: string): AlarmView {
  const [a1, a2] = race.accesses;
  const same = a1.span.start === a2.span.start && a1.span.end === a2.span.end;
  const spans: (Mark & Span)[] = same
    ? [{ ...a1.span, label: `${a1.mode} (both threads)`, thread: 0 }]
    : [
        { ...a1.span, label: `${a1.mode} (thread 1)`, thread: 1 },
        { ...a2.span, label: `${a2.mode} (thread 2)`, thread: 2 },
      ];
  return {
    kind: 'race',
    title: `data race on ${elementText(race)} (${race.kind}, ${raceScopeText(race)})`,
    label: race.confidence,
    reason: reasonText(r.file, race.confidence, race.doubts),
    marks: marks(r, spans, editorPath),
    ...witnesses(r, race.witness, race.replay, ['thread 1', 'thread 2']),
    replay: replayNote(race.replay),
    text: raceText(r, race, plain, false),
  };
}

function divergenceView(r: KernelResult, d: Divergence, editorPath: string): AlarmView {
  return {
    kind: 'divergence',
    title: 'barrier divergence',
    label: d.confidence,
    reason: reasonText(r.file, d.confidence, d.doubts),
    marks: marks(r, [{ ...d.sync.span, label: 'thread 1 reaches this barrier, thread 2 does not', thread: 0 }], editorPath),
    ...witnesses(r, d.witness, d.replay, ['thread 1 (reaches)', 'thread 2 (does not)']),
    replay: replayNote(d.replay),
    text: divergenceText(r, d, plain, false),
  };
}

export function kernelView(r: KernelResult, launch: Launch | null, editorPath: string): KernelView {
  const text = kernelText(r, { colour: false, launchOf: () => launch });
  return {
    name: r.kernel,
    span: editorSpan(r.file, r.span, editorPath),
    status: r.status,
    headline: text.split('\n', 1)[0]!,
    // a kernel in error before typing (a syntax error) has no typing verdict to give
    wellTyped: r.status === 'error' && r.violations.length === 0 ? null : wellTypedText(r),
    execution: r.status === 'error' ? null : `execution: ${executionText(r)}${r.lockstepOnly === true ? `. ${LOCKSTEP_ONLY_TEXT}` : ''}`,
    alarms: [...r.races.map((x) => raceView(r, x, editorPath)), ...r.divergences.map((d) => divergenceView(r, d, editorPath))],
    unknowns: r.unknowns.map((u) => `query ${u.query}: ${u.reason || 'the solver gave no reason'}`),
    errors: r.errors.map((d) => diagnosticView(d, editorPath)),
    text,
  };
}

/** The Phases tab's lines: a phase's heading line with where the phase is (its barriers, accesses and the barriers it passes). */
export function phaseViews(map: KernelMap, lines: readonly PhaseLine[], editorPath: string): PhaseLineView[] {
  return lines.map(({ text, phase }) => {
    if (phase === undefined) return { text, spans: null };
    const spans = [...phase.opens, ...phase.closes].map((s) => s.span).concat(codeSpans(phase.code));
    return { text, spans: spans.flatMap((s) => editorSpan(map.file, s, editorPath) ?? []) };
  });
}

const count = (n: number, what: string): string => `${n} ${what}${n === 1 ? '' : 's'}`;

/** What `fix` did to a kernel, in the words of its report (the command line adds the places and the proof's work). */
export function fixView(f: KernelFix): KernelFixView {
  switch (f.kind) {
    case 'drf':
      return { name: f.kernel, outcome: 'drf', text: `${f.kernel}: already DRF; nothing to repair` };
    case 'fixed': {
      const r = f.repair;
      const done = [
        ...(r.inserted.length === 0 ? [] : [`${count(r.inserted.length, 'barrier')} inserted${r.fewest?.proved === true ? ' (the fewest)' : ''}`]),
        ...(r.hoisted.length === 0 ? [] : [`${count(r.hoisted.length, 'diverging barrier')} hoisted out of thread-dependent branches`]),
        ...(r.removed.length === 0 ? [] : [`${count(r.removed.length, 'redundant barrier')} removed`]),
      ];
      return { name: f.kernel, outcome: 'fixed', text: `${f.kernel}: ${done.join(', ')}; the repaired kernel is proved DRF and free of barrier divergence` };
    }
    case 'not-fixed':
      return { name: f.kernel, outcome: 'not-fixed', text: `${f.kernel}: not repaired (${f.before.status}): ${f.why}` };
  }
}
