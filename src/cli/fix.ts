/**
 * `faial-ts fix FILE [-o OUT]`: print the repair as a unified diff, then per
 * kernel what changed and the proof (or why there is no repair); with -o,
 * write the repaired file. Exit codes as verify's, for the kernels as
 * repaired.
 */
import { z3Wasm } from '../solve/z3.js';
import { type Launch, launchFor } from '../core/launch.js';
import { readFile } from 'node:fs/promises';
import { colorsOf, lineColOf, renderedDiagnostics } from '../diagnostics/render.js';
import { launchText, plural, statedText } from '../report/describe.js';
import { sourceFile, type SourceFile, type Span } from '../core/source.js';
import { checkedKernels } from '../api/check.js';
import { fixKernel, type KernelFix, type Repair } from '../fix/fix.js';
import { unifiedDiff } from '../fix/diff.js';
import { DEFAULT_LIMITS, type Fewest } from '../fix/search.js';
import { assertNever } from '../util/assert.js';
import type { CliIO } from './main.js';
import { EXIT_ALARM, EXIT_BAD_INPUT, EXIT_DRF, EXIT_UNKNOWN, EXIT_VACUOUS } from './exit.js';
import { UsageError } from './options.js';
import { writtenWhole } from './output.js';
import { escapedText } from './escape.js';

export interface FixOptions {
  readonly kernel?: string;
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly output?: string;
  readonly keepBarriers: boolean;
}

/**
 * Races reported per kernel before the repair: each pair of accesses that
 * races constrains where barriers can go, so the search and its explanations
 * are better (and do not depend on which pairs the solver finds first) when
 * all are known; the examples have at most 30.
 */
const FIX_MAX_RACES = 64;

/** `12:5`, `12:5 and 20:3`, `12:5, 14:3 and 20:3` */
function listText(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]!}`;
}

/** Where a fix's spans are: `original` is the file as given, `repaired` the file written; `shift` moves a kernel's repaired offsets to the repaired file. */
interface Files {
  readonly original: SourceFile;
  readonly repaired: SourceFile;
  readonly shift: number;
}

function fewestText(inserted: number, f: Fewest): string {
  if (inserted === 1) return '1 barrier, the fewest: the kernel races without one';
  const sets = `the sets of fewer barriers at the ${plural(f.places, 'candidate place')} that could order the races`;
  const smaller =
    f.verifiedSmaller === 0
      ? `each of ${sets} leaves one of them unordered`
      : `of ${sets}, ${f.verifiedSmaller} ${f.verifiedSmaller === 1 ? 'was' : 'were'} verified and rejected and the others leave a race unordered`;
  return f.proved ? `${inserted} barriers, the fewest: ${smaller}` : `${inserted} barriers; fewer were not ruled out (a smaller set was not decided)`;
}

function repairLines(r: Repair, files: Files): string[] {
  const at = (span: Span): string => lineColOf(files.original, span);
  const lines: string[] = [];
  for (const h of r.hoisted) {
    lines.push(`hoisted: the diverging barrier at ${at(h.sync)} out of the thread-dependent ${h.branches.length === 1 ? 'branch' : 'branches'} at ${listText(h.branches.map(at))}`);
  }
  if (r.inserted.length > 0) {
    const where = r.inserted.map((offset) => lineColOf(files.repaired, { start: offset + files.shift, end: offset + files.shift }));
    lines.push(`inserted: ${plural(r.inserted.length, 'barrier')}, at ${listText(where)} of the repaired file`);
  }
  if (r.split.length > 0) lines.push(`split: the thread-dependent ${r.split.length === 1 ? 'branch' : 'branches'} at ${listText(r.split.map(at))}, to hoist a barrier out`);
  if (r.fewest !== null) lines.push(`fewest: ${fewestText(r.inserted.length, r.fewest)}`);
  if (r.removed.length > 0) {
    lines.push(`removed: ${r.removed.length === 1 ? 'the redundant barrier' : `${r.removed.length} redundant barriers`} at ${listText(r.removed.map(at))} (each removal proved DRF in turn)`);
  }
  return lines;
}

function headline(f: Extract<KernelFix, { kind: 'fixed' }>, scope: string): string {
  const proof = `proved DRF and free of barrier divergence ${scope}`;
  switch (f.before.status) {
    case 'racy':
      return `repaired — ${plural(f.before.races.length, 'data race')} fixed; the repaired kernel is ${proof}`;
    case 'divergent':
      return `repaired — barrier divergence fixed; the repaired kernel is ${proof}`;
    case 'drf':
      return `already DRF — redundant barriers removed; the kernel without them is ${proof}`;
    case 'benign':
      return `repaired — ${plural(f.before.races.length, 'benign data race')} ordered; the repaired kernel is ${proof}`;
    case 'vacuous':
    case 'unknown':
    case 'error':
      throw new Error(`fix: a kernel ${f.before.status} before cannot be repaired`);
    default:
      return assertNever(f.before.status);
  }
}

function fixText(f: KernelFix, files: Files, launchScope: string, colour: boolean): string {
  const c = colorsOf(colour);
  // the kernel as given (its text is the original up to the kernel's end), so the assumptions' positions are the file's
  const stated = f.kind === 'not-fixed' ? null : statedText(f.kind === 'drf' ? f.result : f.before);
  const scope = stated === null ? launchScope : `${launchScope}, ${stated}`;
  switch (f.kind) {
    case 'drf':
      return `${c.green('✓')} ${c.bold(f.kernel)}: already DRF — proved ${scope}; nothing to repair${f.barriersChecked ? ', and no barrier is redundant' : ''}`;
    case 'fixed': {
      const details = [...repairLines(f.repair, files), `work: ${plural(f.work.verifications, 'verification')}, ${plural(f.work.queries, 'solver query', 'solver queries')}`];
      return [`${c.green('✓')} ${c.bold(f.kernel)}: ${headline(f, scope)}`, ...details.map((l) => `  ${l}`)].join('\n');
    }
    case 'not-fixed':
      return `${c.red('✗')} ${c.bold(f.kernel)}: not repaired (${f.before.status}) — ${f.why}`;
    default:
      return assertNever(f);
  }
}

function exitOf(fixes: readonly KernelFix[]): number {
  const statuses = fixes.map((f) => (f.kind === 'drf' ? f.result.status : f.kind === 'fixed' ? f.after.status : f.before.status));
  if (statuses.includes('error')) return EXIT_BAD_INPUT;
  if (statuses.some((s) => s === 'racy' || s === 'divergent')) return EXIT_ALARM;
  if (statuses.includes('vacuous')) return EXIT_VACUOUS;
  if (statuses.includes('unknown')) return EXIT_UNKNOWN;
  return EXIT_DRF;
}

export async function fixCommand(path: string, options: FixOptions, io: CliIO): Promise<number> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read '${path}': ${e instanceof Error ? e.message : String(e)}`);
  }
  const checked = checkedKernels(path, text, options.kernel);
  if (!checked.ok) {
    io.err(renderedDiagnostics(checked.diagnostics, io.colour));
    return EXIT_BAD_INPUT;
  }
  if (checked.kernels.length === 0) throw new UsageError(`no kernel named '${escapedText(options.kernel ?? '')}'`);
  // Last kernel first: a repair changes only its own kernel's text, so each
  // kernel is repaired in a text that is the original up to its end, and
  // every position a repair reports about the original is one of the file.
  const fixes: { fix: KernelFix; length: number }[] = [];
  let current = text;
  for (const map of [...checked.kernels].reverse()) {
    const launch = launchFor(map.params, options.launch);
    const { fix, text: next } = await fixKernel(path, current, map.name, {
      launch,
      timeoutMs: options.timeoutMs,
      maxRaces: FIX_MAX_RACES,
      solver: z3Wasm,
      keepBarriers: options.keepBarriers,
      limits: DEFAULT_LIMITS,
    });
    fixes.unshift({ fix, length: next.length });
    current = next;
  }
  const diff = unifiedDiff(text, current, path, options.output ?? path);
  if (diff !== '') io.out(diff);
  const original = sourceFile(path, text);
  const repaired = sourceFile(options.output ?? path, current);
  for (const { fix, length } of fixes) {
    const launch = launchText(launchFor(checked.kernels.find((k) => k.name === fix.kernel)?.params ?? [], options.launch));
    const scope = launch === null ? 'for all parameters and launches' : `for all parameters and launches with ${launch}`;
    io.out(`${fixText(fix, { original, repaired, shift: current.length - length }, scope, io.colour)}\n`);
  }
  if (options.output !== undefined) {
    await writtenWhole(options.output, current);
    io.out(`wrote ${options.output}\n`);
  }
  return exitOf(fixes.map((f) => f.fix));
}
