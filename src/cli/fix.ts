/**
 * `faial-ts fix FILE [-o OUT]`: print the repair as a unified diff, then one
 * line per kernel with the proof (or why there is no repair); with -o, write
 * the repaired file. Exit codes as verify's, for the kernels as repaired.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { colorsOf, renderedDiagnostics } from '../diagnostics/render.js';
import { launchText, plural } from '../report/describe.js';
import { sourceFile, positionAt } from '../syntax/source.js';
import { checkedKernels } from '../verify/pipeline.js';
import { fixKernel, type KernelFix } from '../fix/fix.js';
import { unifiedDiff } from '../fix/diff.js';
import { assertNever } from '../util/assert.js';
import type { Launch } from '../encode/query.js';
import type { CliIO } from './main.js';
import { EXIT_ALARM, EXIT_BAD_INPUT, EXIT_DRF, EXIT_UNKNOWN } from './exit.js';
import { UsageError, launchFor } from './options.js';

export interface FixOptions {
  readonly kernel?: string;
  readonly launch: Launch;
  readonly timeoutMs: number;
  readonly output?: string;
}

function fixLine(f: KernelFix, fixed: string, path: string, scope: string, colour: boolean): string {
  const c = colorsOf(colour);
  switch (f.kind) {
    case 'drf':
      return `${c.green('✓')} ${c.bold(f.kernel)}: already DRF — proved ${scope}; nothing to repair`;
    case 'fixed': {
      const at = positionAt(sourceFile(path, fixed), f.insertion.offset + f.insertion.text.indexOf('sync'));
      return (
        `${c.green('✓')} ${c.bold(f.kernel)}: repaired — ${plural(f.before.races.length, 'race')} fixed by a barrier inserted at ${at.line}:${at.column}; ` +
        `the repaired kernel is proved DRF and free of barrier divergence ${scope} (${plural(f.tried, 'place')} tried, ${plural(f.after.stats.queries, 'query', 'queries')})`
      );
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
  if (checked.kernels.length === 0) throw new UsageError(`no kernel named '${options.kernel ?? ''}'`);
  const fixes: KernelFix[] = [];
  let current = text;
  for (const map of checked.kernels) {
    // in file order, so that each repair is proved on the text with the earlier ones in it
    const launch = launchFor(map.params, options.launch);
    const { fix, text: next } = await fixKernel(path, current, map.name, { launch, timeoutMs: options.timeoutMs, maxRaces: 20 });
    fixes.push(fix);
    current = next;
  }
  const diff = unifiedDiff(text, current, path, options.output ?? path);
  if (diff !== '') io.out(diff);
  for (const f of fixes) {
    const launch = launchText(launchFor(checked.kernels.find((k) => k.name === f.kernel)?.params ?? [], options.launch));
    const scope = launch === null ? 'for all parameters and launches' : `for all parameters and launches with ${launch}`;
    io.out(`${fixLine(f, current, path, scope, io.colour)}\n`);
  }
  if (options.output !== undefined) {
    await writeFile(options.output, current);
    io.out(`wrote ${options.output}\n`);
  }
  return exitOf(fixes);
}
