/**
 * The SARIF 2.1.0 report of `faial-ts verify --sarif`, for CI systems that
 * annotate pull requests. It is made from the same KernelResult data as the
 * text and JSON reports; one run, one result per finding:
 *
 *   faial/data-race           error (confirmed) or warning (possible)
 *   faial/barrier-divergence  error (confirmed) or warning (possible)
 *   faial/unknown             warning: a kernel without an alarm that is not proved
 *   faial/vacuous             error: no launch satisfies the kernel's assumptions (and is free of undefined operations)
 *   faial/input-error         error: the file or kernel could not be verified
 *   faial/redundant-barrier   warning (with --barriers): a proved-redundant sync
 *   faial/notice              note (or warning): what the front end read and
 *                             did not model (an ignored annotation, a fence, a
 *                             launch from the test header…), as the text
 *                             report's notes and the JSON's `notices`
 *   faial/scope               note: a kernel with machine integers, verified
 *                             assuming no undefined operation
 *   faial/approximation       note: an approximation of the front end (what,
 *                             where, why); alarms that rest on it are possible
 *   faial/lockstep-only       warning: DRF only with lockstep warps (pre-Volta);
 *                             racy with independent threads
 *   faial/undefined-operation warning: an operation outside the scope (signed
 *                             overflow, division by zero, a shift out of
 *                             range…) some allowed launch may reach (W0801);
 *                             note: not decided (N0802)
 *
 * A possible alarm is a warning, not an error: it may come from an
 * over-approximation (a data-dependent value, an erased loop), so a CI gate
 * on errors fails only on proved bugs. An unknown is a warning too: nothing
 * was found, but nothing was proved either.
 *
 * A race's primary location is thread 1's access; both accesses are related
 * locations 1 and 2, which its message links to. The witness and the other
 * fields of the `--json` entry are in the result's properties.
 * partialFingerprints hold a hash of what identifies a finding apart from its
 * line (kernel, array, the accesses' kinds and text, their order among
 * findings alike), so that it stays the same across runs and when unrelated
 * lines move (fingerprintOf). Each rule has help text and, given the docs'
 * URL, a helpUri into docs/rules.md.
 */
import type { Launch } from '../core/launch.js';
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { userSpan, type SourceFile, type Span } from '../core/source.js';
import type { FileResult } from '../verify/result.js';
import type { AccessSite, BarrierCheck, Confidence, Divergence, KernelResult, Race } from '../verify/result.js';
import { LOCKSTEP_ONLY_TEXT, BENIGN_TEXT, kernelHead, vacuousText, accessNoun, accessVerb, budgetHint, conditionText, elementText, executionText, statedText, launchText, plural, raceScopeText, statusName, type SolvingRun } from './describe.js';
import { MACHINE_SCOPE } from '../core/types.js';
import type { Approximation } from '../map/map.js';
import { undefinedDiagnostics } from './undefined.js';
import { kernelJson, type KernelJson } from './json.js';
import { raceGroups } from './text.js';
import { fileUri, isAbsolutePath, relativeUri } from '../util/file-uri.js';
import { sha256Hex } from '../util/sha256.js';

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export type RuleId =
  | 'faial/data-race'
  | 'faial/barrier-divergence'
  | 'faial/unknown'
  | 'faial/vacuous'
  | 'faial/input-error'
  | 'faial/redundant-barrier'
  | 'faial/notice'
  | 'faial/scope'
  | 'faial/approximation'
  | 'faial/lockstep-only'
  | 'faial/undefined-operation';

type Level = 'error' | 'warning' | 'note';

interface Rule {
  readonly id: RuleId;
  readonly name: string;
  readonly short: string;
  readonly full: string;
  readonly level: Level;
  /** what to do about a finding, as code scanning shows under "help" (Markdown; docs/rules.md says it at length) */
  readonly help: string;
  /** code scanning filters by these (`properties.tags`) */
  readonly tags: readonly string[];
}

const RULES: readonly Rule[] = [
  {
    id: 'faial/data-race',
    name: 'DataRace',
    short: 'Two threads access the same array element, at least one writes, with no barrier between them.',
    full: 'Two threads may access the same element of a shared or global array in the same barrier phase (or in different blocks), and at least one access is a write. A confirmed race has a witness that is a real execution; a possible one relies on an over-approximation (data read from memory, an unknown value or an approximation of the front end, an erased loop, a large shift, a barrier whose divergence was not decided).',
    level: 'error',
    help: 'Make the two accesses touch different elements, or separate them: a `__syncthreads()` (BabyCUDA `sync`) between them when both threads are in one block, an atomic operation, or a kernel split when they are in different blocks. `faial-ts fix FILE` proposes the fewest barriers and proves the repaired kernel. A *possible* race names what it rests on (a value read from memory, an approximation): when that value keeps the threads apart, say so with an `assume` or a `requires` clause.',
    tags: ['correctness', 'concurrency', 'data-race'],
  },
  {
    id: 'faial/barrier-divergence',
    name: 'BarrierDivergence',
    short: 'Some threads of a block reach a barrier that others do not.',
    full: 'Thread 1 reaches the barrier and thread 2 of the same block does not, in the same iteration of every enclosing loop: the block deadlocks or behaves undefinedly. Confirmed when the witness is a real execution, possible when it depends on data read from memory.',
    level: 'error',
    help: 'Make every thread of the block (or warp, for `__syncwarp()`) reach the barrier the same number of times: move it out of the branch or loop whose condition depends on the thread, or make the condition uniform across the block.',
    tags: ['correctness', 'concurrency', 'barrier-divergence'],
  },
  {
    id: 'faial/unknown',
    name: 'NotProved',
    short: 'The kernel has no alarm but was not proved data-race free.',
    full: 'Some solver queries got no answer (time-out or an encoding limit): nothing was found, and nothing was proved.',
    level: 'warning',
    help: 'Give the solver more budget (`--rlimit N`), fix parameters or the launch (`-p NAME=VALUE`, `--block-dim`, `--grid-dim`), or try another solver (`--solver`, `--portfolio`). Nothing was found, and nothing was proved.',
    tags: ['correctness', 'concurrency', 'not-proved'],
  },
  {
    id: 'faial/vacuous',
    name: 'VacuousAssumptions',
    short: "No launch satisfies the kernel's assumptions, so nothing about it is proved.",
    full: "The requires clauses, the launch clause, the command line and the assume statements every thread reaches contradict each other, or (machine integers) every launch they allow has a thread that evaluates an undefined operation: every query would hold vacuously. Such a kernel is never reported data-race free.",
    level: 'error',
    help: 'Check the `requires` and `assume` clauses, the launch clause and the command-line facts (`-p`, `--block-dim`, `--grid-dim`): together they admit no launch, so the kernel was not verified. `faial-ts infer FILE` prints what the verifier assumes.',
    tags: ['correctness', 'assumptions'],
  },
  {
    id: 'faial/input-error',
    name: 'InputError',
    short: 'The input could not be verified.',
    full: 'A syntax, name or kernel error stopped verification before the solver.',
    level: 'error',
    help: 'Fix the input the message names (a syntax error, an unknown name, a construct faial-ts rejects); the code in the message (E…) is listed with its meaning in the documentation. The file\'s kernels are not verified until then.',
    tags: ['input'],
  },
  {
    id: 'faial/redundant-barrier',
    name: 'RedundantBarrier',
    short: 'The barrier can be removed: the kernel stays data-race free and divergence-free.',
    full: 'The kernel without this barrier (and only it) was proved data-race free and free of barrier divergence, for every launch its requires clauses allow. A barrier costs time; removing several redundant barriers at once needs its own proof.',
    level: 'warning',
    help: 'Remove the barrier to save its cost: the kernel without it was proved data-race free and divergence-free. Remove redundant barriers one at a time and verify again: two barriers that are each redundant may not be redundant together.',
    tags: ['performance', 'barrier'],
  },
  {
    id: 'faial/notice',
    name: 'Notice',
    short: 'The front end read something it does not model, or warns about the input.',
    full: 'A construct read and not modelled (a GPUVerify-only annotation, an unchecked assertion, a memory fence, which synchronises nothing in this model), a template parameter verified for all values, a launch taken from the test header, or a preprocessor warning. Not a finding: it says what the verdict does and does not cover.',
    level: 'note',
    help: 'Nothing to fix: the notice says what the verdict does not cover (an annotation or a fence that is not modelled, a launch taken from a test header). The code in the message (N…) is listed with its meaning in the documentation.',
    tags: ['notice'],
  },
  {
    id: 'faial/scope',
    name: 'VerifiedWithinScope',
    short: 'The kernel uses machine integers: its verdict assumes that no operation is undefined.',
    full: `The kernel computes with C's machine integers. Its verdict holds for the executions in which no thread evaluates an undefined operation: ${MACHINE_SCOPE}. Signed overflow is undefined behaviour in C++; unsigned + - * << wrap around as C defines them; an unsigned loop counter that wraps is left out of the scope. A CUDA kernel that uses the grid along x is verified for grids of fewer than 2^32 threads along x (not a CUDA limit: larger grids make the global index blockIdx.x * blockDim.x + threadIdx.x, or the grid's thread count blockDim.x * gridDim.x, wrap around), and the note says so.`,
    level: 'note',
    help: 'Nothing to fix: the verdict holds for the executions without undefined operations (signed overflow, division by zero, shifts out of range, an unsigned loop counter that wraps). Check those separately (a sanitizer, a test) if they matter.',
    tags: ['scope', 'machine-integers'],
  },
  {
    id: 'faial/lockstep-only',
    name: 'LockstepOnly',
    short: 'The kernel is data-race free only if the threads of a warp run in lockstep, as before sm_70.',
    full: 'Verified with lockstep warps (--warp-size with --arch before sm_70, or a test header\'s --warp-sync), the kernel is data-race free; with independent threads, as NVIDIA GPUs schedule them since Volta (sm_70), it is racy or divergent. Warp-synchronous code needs __syncwarp() (or a barrier) between the accesses on current GPUs.',
    level: 'warning',
    help: 'Put `__syncwarp()` (or a barrier) between the warp\'s accesses: on sm_70 and later the threads of a warp are scheduled independently, and the kernel is racy or divergent there.',
    tags: ['correctness', 'concurrency', 'warp-synchronous'],
  },
  {
    id: 'faial/undefined-operation',
    name: 'UndefinedOperation',
    short: 'Some launch the kernel allows may evaluate an operation outside the scope of the proof (signed overflow, division by zero, a shift out of range, an unsigned loop counter that wraps).',
    full: `The kernel's verdict holds for the executions in which no thread evaluates an undefined operation (${MACHINE_SCOPE}). This operation may be undefined at some launch that the kernel's requires clauses and the command line allow: the solver found a thread and a launch, named in the message. Executions through it are not covered by the verdict. A note (N0802) says when this was not decided.`,
    level: 'warning',
    help: 'State the launches the kernel is meant for with `__requires(…)` on its parameters (the warning goes once no allowed launch makes the operation undefined), or compute in `unsigned`, whose wrap-around is defined and modelled exactly.',
    tags: ['scope', 'machine-integers', 'undefined-behaviour'],
  },
  {
    id: 'faial/approximation',
    name: 'Approximation',
    short: 'The front end approximated part of the kernel: the analysis stays sound, alarms that depend on it are only possible.',
    full: 'A construct the front end could not model exactly (a loop, a value updated in it…) was replaced by an unknown value. A proof of data-race freedom still holds; an alarm that depends on the approximation is reported as possible.',
    level: 'note',
    help: 'Nothing to fix: the front end replaced the named construct by an unknown value. An alarm that depends on it is reported as possible; rewriting the construct into a form faial-ts models (a counted `for` loop) makes such alarms exact.',
    tags: ['approximation'],
  },
];

export interface SarifOptions {
  readonly version: string;
  /** the facts the command line fixed for this kernel, named in proofs' scope */
  readonly launchOf?: (r: KernelResult) => Launch | null;
  /** the solver and budget, in the run's properties */
  readonly solving?: SolvingRun;
  /** the absolute URL of faial-ts's docs/ folder, for each rule's helpUri (absent: rules have help text and no helpUri) */
  readonly helpUrl?: string;
}

export function sarifLog(files: readonly FileResult[], options: SarifOptions): Log {
  // a file's notices after its kernels, as the text report prints them
  const results = numberedFingerprints(
    files.flatMap((f) =>
      f.ok ? [...f.kernels.flatMap((k) => kernelResults(k, options)), ...(f.notices ?? []).map(noticeResult)] : f.diagnostics.map((d) => inputErrorResult(d, null)),
    ),
  );
  const paths = [...new Set(files.map((f) => f.path))];
  // the execution models the verdicts hold for (a GPUVerify test header may set a file's)
  const execution = [...new Set(files.flatMap((f) => (f.ok ? f.kernels.map(executionText) : [])))];
  return {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'faial-ts',
            version: options.version,
            semanticVersion: options.version,
            rules: RULES.map((r) => descriptorOf(r, options.helpUrl)),
          },
        },
        artifacts: paths.map((p) => ({ location: artifactLocationOf(p) })),
        columnKind: 'utf16CodeUnits',
        results,
        properties: { execution, ...(options.solving === undefined ? {} : { solver: options.solving.solver, rlimit: options.solving.rlimit, timeoutMs: options.solving.timeoutMs }) },
      },
    ],
  };
}

function descriptorOf(rule: Rule, helpUrl: string | undefined): ReportingDescriptor {
  const helpUri = helpUrl === undefined ? undefined : ruleHelpUri(rule.id, helpUrl);
  return {
    id: rule.id,
    name: rule.name,
    shortDescription: { text: rule.short },
    fullDescription: { text: rule.full },
    defaultConfiguration: { level: rule.level },
    help: { text: rule.help.replace(/[`*]/g, ''), markdown: helpUri === undefined ? rule.help : `${rule.help}\n\n[More about ${rule.id}](${helpUri})` },
    ...(helpUri === undefined ? {} : { helpUri }),
    properties: { tags: [...rule.tags] },
  };
}

/** The rule's section of docs/rules.md below the docs folder at `helpUrl`; a section is headed by the id without `faial/`. */
export function ruleHelpUri(id: RuleId, helpUrl: string): string {
  return new URL(`rules.md#${id.slice('faial/'.length)}`, helpUrl.endsWith('/') ? helpUrl : `${helpUrl}/`).href;
}

export const RULE_IDS: readonly RuleId[] = RULES.map((r) => r.id);

function ruleIndexOf(id: RuleId): number {
  return RULES.findIndex((r) => r.id === id);
}

/** A relative path stays relative to the checkout (%SRCROOT%), as code-scanning services expect. */
function artifactLocationOf(path: string): { uri: string; uriBaseId?: string } {
  return isAbsolutePath(path) ? { uri: fileUri(path) } : { uri: relativeUri(path), uriBaseId: '%SRCROOT%' };
}

function locationOf(file: SourceFile, span: Span, message: string | null, id?: number): Location {
  const u = userSpan(file, { start: span.start, end: Math.max(span.end, span.start + 1) });
  return {
    ...(id === undefined ? {} : { id }),
    physicalLocation: {
      artifactLocation: artifactLocationOf(u.file.path),
      region: { startLine: u.start.line, startColumn: u.start.column, endLine: u.end.line, endColumn: u.end.column, snippet: { text: userSpan(file, span).text } },
    },
    ...(message === null ? {} : { message: { text: message } }),
  };
}

/**
 * The key of the fingerprint; its version changes whenever what it hashes
 * does, so that a code-scanning service sees a new algorithm, not new alarms.
 */
export const FINGERPRINT_KEY = 'faialFinding/v2';

/**
 * What identifies a finding apart from where it is: the rule, the kernel's
 * qualified name, and the finding's own words (array, the accesses' kinds
 * and source text, the barrier's text), normalised so that layout and
 * comments do not count (codeText, withoutPositions). Never a line or a
 * column: a blank line or a comment above a kernel moves every finding below
 * and changes none. sarifLog numbers the findings that hash alike in one file
 * in the order they are reported (the order of their accesses in the source)
 * and appends `:N`.
 */
function fingerprintOf(parts: readonly string[]): Record<string, string> {
  return { [FINGERPRINT_KEY]: sha256Hex(parts.join('\u0000')) };
}

/**
 * Numbers the findings of a file that hash alike (`HASH:N`), and gives the
 * fingerprint also as `primaryLocationLineHash`: GitHub code scanning
 * reads only that key (with the file's path and the rule) to track an alert
 * across commits, and computes it from the text around the line when it is
 * absent, which changes when a nearby line does.
 */
function numberedFingerprints(results: readonly Result[]): Result[] {
  const seen = new Map<string, number>();
  return results.map((x) => {
    const hash = x.partialFingerprints?.[FINGERPRINT_KEY];
    if (hash === undefined) return x;
    const key = `${x.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? ''}\u0000${hash}`;
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return { ...x, partialFingerprints: { [FINGERPRINT_KEY]: `${hash}:${n}`, primaryLocationLineHash: `${hash}:${n}` } };
  });
}

/** Source text as tokens: comments dropped, white space only where it separates two words. */
export function codeText(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ')
    .replace(/\s+/g, ' ')
    .replace(/ (?=\W)|(?<=\W) /g, '')
    .trim();
}

/** A message without the line and column numbers some quote (`the loop at line 12`, `at 4:16`). */
function withoutPositions(text: string): string {
  return text.replace(/\bline \d+/g, 'line').replace(/\b\d+:\d+(:\d+)?\b/g, '');
}

function levelOf(confidence: Confidence): Level {
  return confidence === 'confirmed' ? 'error' : 'warning';
}

/** `Confirmed: the witness …` */
function confidenceText(confidence: Confidence, reason: string): string {
  return `${confidence === 'confirmed' ? 'Confirmed' : 'Possible'}: ${reason}.`;
}

function result(rule: RuleId, level: Level, message: string, rest: Omit<Result, 'ruleId' | 'ruleIndex' | 'level' | 'message'>): Result {
  return { ruleId: rule, ruleIndex: ruleIndexOf(rule), level, message: { text: message }, ...rest };
}

function scopeText(r: KernelResult, options: SarifOptions): string {
  const launch = options.launchOf?.(r) ?? null;
  const given = launch === null ? null : launchText(launch);
  const stated = statedText(r);
  return `${given === null ? 'for all parameters and launches' : `for all parameters, at ${given}`}${stated === null ? '' : `, ${stated}`}`;
}

function kernelResults(r: KernelResult, options: SarifOptions): Result[] {
  const json = kernelJson(r);
  const out: Result[] = [];
  out.push(...r.errors.map((d) => inputErrorResult(d, r.kernel)));
  const raceJson = new Map(r.races.map((race, i) => [race, json.races[i]!]));
  // in the text report's order, so that the log does not change with the order the solver found them in
  out.push(...raceGroups(r.races).flatMap((group) => group.map((race) => raceResult(r, race, raceJson.get(race)!))));
  out.push(...r.divergences.map((d, i) => divergenceResult(r, d, json.divergences[i]!)));
  if (r.status === 'unknown') out.push(unknownResult(r));
  if (r.status === 'vacuous') out.push(vacuousResult(r));
  for (const b of r.barriers ?? []) if (b.verdict === 'redundant') out.push(redundantResult(r, b, options));
  if ((r.machineIntegers === true || (r.launchAssumptions ?? []).length > 0 || ((r.assumptions ?? []).length > 0 && r.status !== 'vacuous')) && r.status !== 'error') out.push(scopeResult(r, options));
  for (const a of r.approximations ?? []) out.push(approximationResult(r, a));
  for (const d of undefinedDiagnostics(r)) out.push(diagnosticResult('faial/undefined-operation', d.severity === 'warning' ? 'warning' : 'note', d, r.kernel));
  if (r.lockstepOnly === true) out.push(lockstepOnlyResult(r));
  return out;
}

function lockstepOnlyResult(r: KernelResult): Result {
  return result('faial/lockstep-only', 'warning', `Kernel ${r.kernel}: ${LOCKSTEP_ONLY_TEXT}.`, {
    locations: [locationOf(r.file, kernelHead(r.file, r.span), null)],
    partialFingerprints: fingerprintOf(['faial/lockstep-only', r.kernel]),
    properties: { kernel: r.kernel, warpSize: r.warpSize },
  });
}

function scopeResult(r: KernelResult, options: SarifOptions): Result {
  const assumed = r.launchAssumptions ?? [];
  const machine = r.machineIntegers === true ? `, ${MACHINE_SCOPE}; undefined behaviour is outside the scope of verification` : '';
  const launch = assumed.map((a) => `; assuming ${a}`).join('');
  const message = `Kernel ${r.kernel}${r.machineIntegers === true ? ' uses machine integers' : ''}: its verdict (${statusName(r.status)}) holds ${scopeText(r, options)}${machine}${launch}.`;
  return result('faial/scope', 'note', message, {
    locations: [locationOf(r.file, kernelHead(r.file, r.span), null)],
    partialFingerprints: fingerprintOf(['faial/scope', r.kernel]),
    properties: {
      kernel: r.kernel,
      ...(r.machineIntegers === true ? { scope: MACHINE_SCOPE } : {}),
      ...(assumed.length > 0 ? { launchAssumptions: assumed } : {}),
      ...((r.assumptions ?? []).length > 0 ? { assumptions: (r.assumptions ?? []).map((a) => ({ kind: a.kind, text: conditionText(r.file, a.span), line: userSpan(r.file, a.span).start.line })) } : {}),
    },
  });
}

function approximationResult(r: KernelResult, a: Approximation): Result {
  return result('faial/approximation', 'note', `Approximated in kernel ${r.kernel}: ${a.what} (${a.why}). Sound: alarms that depend on it are reported as possible.`, {
    locations: [locationOf(r.file, a.span, a.what)],
    partialFingerprints: fingerprintOf(['faial/approximation', r.kernel, codeText(userSpan(r.file, a.span).text), withoutPositions(a.what), withoutPositions(a.why)]),
    properties: { kernel: r.kernel, what: a.what, why: a.why },
  });
}

function accessText(r: KernelResult, a: AccessSite): string {
  return `${a.mode}${a.op === undefined ? '' : `.${a.op}`}:${codeText(userSpan(r.file, a.span).text)}`;
}

function raceResult(r: KernelResult, race: Race, json: KernelJson['races'][number]): Result {
  const [a1, a2] = race.accesses;
  const where = race.level === 'grid' ? raceScopeText(race) : `${raceScopeText(race)} (${executionText(r)})`;
  // link texts hold no brackets, which SARIF would need escaped
  const message =
    `Data race on ${elementText(race)} in kernel ${r.kernel} (${race.kind}): ` +
    `thread 1 [${accessVerb(a1)}](1) ${userSpan(r.file, a1.span).text} and thread 2 [${accessVerb(a2)}](2) ${userSpan(r.file, a2.span).text}, ${where}. ` +
    `${confidenceText(race.confidence, json.reason)}`;
  const { accesses: _accesses, ...properties } = json;
  // a benign race is still a race by the definition, and shown, but never fails a gate
  return result('faial/data-race', race.benign === true ? 'note' : levelOf(race.confidence), race.benign === true ? `${message} Benign: ${BENIGN_TEXT}.` : message, {
    locations: [locationOf(r.file, a1.span, `thread 1 ${accessVerb(a1)} ${race.array}`)],
    relatedLocations: [locationOf(r.file, a1.span, `${accessNoun(a1)} by thread 1`, 1), locationOf(r.file, a2.span, `${accessNoun(a2)} by thread 2`, 2)],
    partialFingerprints: fingerprintOf(['faial/data-race', r.kernel, race.array, race.level, ...[accessText(r, a1), accessText(r, a2)].sort()]),
    properties: { kernel: r.kernel, wellTyped: r.wellTyped, ...properties },
  });
}

function divergenceResult(r: KernelResult, d: Divergence, json: KernelJson['divergences'][number]): Result {
  const message = `Barrier divergence in kernel ${r.kernel}: thread 1 reaches this barrier, thread 2 of the same ${d.sync.scope === 'warp' ? 'warp (a syncwarp)' : 'block'} does not. ${confidenceText(d.confidence, json.reason)}`;
  return result('faial/barrier-divergence', levelOf(d.confidence), message, {
    locations: [locationOf(r.file, d.sync.span, 'thread 1 reaches this barrier, thread 2 does not')],
    partialFingerprints: fingerprintOf(['faial/barrier-divergence', r.kernel, d.sync.scope, codeText(userSpan(r.file, d.sync.span).text)]),
    properties: { kernel: r.kernel, wellTyped: r.wellTyped, confidence: json.confidence, reason: json.reason, witness: json.witness },
  });
}

function unknownResult(r: KernelResult): Result {
  const hint = budgetHint(r.unknowns.map((u) => u.reason));
  const message = `Kernel ${r.kernel} is not proved data-race free: ${plural(r.unknowns.length, 'solver query', 'solver queries')} got no answer (${r.unknowns.map((u) => u.reason || 'no reason given').join('; ')}).${hint === null ? '' : ` ${hint[0]!.toUpperCase()}${hint.slice(1)}.`}`;
  return result('faial/unknown', 'warning', message, {
    locations: [locationOf(r.file, kernelHead(r.file, r.span), null)],
    partialFingerprints: fingerprintOf(['faial/unknown', r.kernel]),
    properties: { kernel: r.kernel, unknowns: r.unknowns.map((u) => ({ query: u.query, reason: u.reason })) },
  });
}

function vacuousResult(r: KernelResult): Result {
  return result('faial/vacuous', 'error', `Kernel ${r.kernel}: ${vacuousText(r)}.`, {
    locations: [locationOf(r.file, kernelHead(r.file, r.span), null)],
    partialFingerprints: fingerprintOf(['faial/vacuous', r.kernel]),
    properties: { kernel: r.kernel },
  });
}

function redundantResult(r: KernelResult, b: BarrierCheck, options: SarifOptions): Result {
  const message =
    `Redundant barrier in kernel ${r.kernel}: without it the kernel is still proved data-race free and free of barrier divergence, ` +
    `${scopeText(r, options)} that its requires clauses allow (this barrier alone removed).`;
  return result('faial/redundant-barrier', 'warning', message, {
    locations: [locationOf(r.file, b.sync.span, 'this barrier can be removed')],
    partialFingerprints: fingerprintOf(['faial/redundant-barrier', r.kernel, codeText(userSpan(r.file, b.sync.span).text)]),
    properties: { kernel: r.kernel, queries: b.without.stats.queries },
  });
}

function inputErrorResult(d: Diagnostic, kernel: string | null): Result {
  return diagnosticResult('faial/input-error', 'error', d, kernel);
}

function noticeResult(d: Diagnostic): Result {
  return diagnosticResult('faial/notice', d.severity === 'warning' ? 'warning' : 'note', d, null);
}

function diagnosticResult(rule: RuleId, level: Level, d: Diagnostic, kernel: string | null): Result {
  return result(rule, level, `${d.code}: ${d.message}${d.hints.map((h) => `\nhint: ${h}`).join('')}`, {
    locations: [locationOf(d.file, d.span, d.label ?? null)],
    relatedLocations: d.related.map((rel, i) => locationOf(d.file, rel.span, rel.message, i + 1)),
    partialFingerprints: fingerprintOf([rule, d.code, kernel ?? '', withoutPositions(d.message)]),
    properties: { code: d.code, kernel, hints: [...d.hints] },
  });
}

