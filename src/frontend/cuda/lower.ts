/**
 * The CUDA front end: a .cu file's text → preprocessed translation unit →
 * syntax tree → core program, with the kernels it rejects and the notices
 * about what it read and did not model. The unit is the core's source file;
 * its origin map leads every span back to the .cu file, the header it was
 * included from, and the macro uses it was expanded from. Parsing needs the
 * grammar, loaded once (parse.ts); the rest is synchronous and pure.
 */
import { preprocess, type PreprocessOptions } from './preprocess/index.js';
import { coreDiagnostic, coreSources } from './preprocess/origin.js';
import { MAX_SYNTAX_DEPTH, parseCuda, type CudaGrammar } from './parse.js';
import { lowerUnit, type LoweredUnit } from './unit.js';
import { cudaDiagnostic } from './codes.js';
import { dimsText, hostLaunches, launchRequires, launchSitesOf, type HostLaunch, type LaunchSite } from './host-launch.js';
import { kernelHeads } from './heads.js';
import { compare, constant } from './build.js';
import { wrapped } from './ctypes.js';
import { userSpan, type SourceFile, type Span } from '../../core/source.js';
import { diagnosticOf, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Observer } from './observe.js';

export type { LoweredUnit, RejectedKernel } from './unit.js';

/** What the CUDA front end needs besides the text: the grammar, the preprocessor's -D, -U, -I and file reader, and which launch sizes the caller fixes. */
export interface CudaSetup extends PreprocessOptions {
  readonly grammar: CudaGrammar;
  /**
   * The sizes a kernel is verified at when the caller leaves them open: those
   * of the launches the file's host code makes (`all` absent or false), or
   * every size (`--any-launch`). `given` names the sizes the caller (command
   * line, test header) fixes itself, which the host's launches do not touch.
   */
  readonly launches?: { readonly any: boolean; readonly given: readonly ('blockDim' | 'gridDim')[]; readonly givenParams?: readonly string[]; readonly elsewhere?: readonly ProjectLaunches[] };
  /** told what came of each declaration, statement and call (the silent-drop test) */
  readonly observer?: Observer;
}

export function lowerCuda(setup: CudaSetup, path: string, text: string): LoweredUnit {
  const pre = preprocess({ path, text }, setup);
  const { unit, files } = coreSources(pre);
  const problems = pre.diagnostics.map((d) => coreDiagnostic(d, files));
  const errors = problems.filter((d) => d.severity === 'error');
  if (errors.length > 0) return { program: { file: unit, kernels: [] }, rejected: [], notices: [], errors };
  const parsed = parseCuda(setup.grammar, pre.text);
  if (parsed.kind === 'tooDeep') {
    const span = { start: parsed.offset, end: Math.min(unit.text.length, parsed.offset + 1) };
    const tooDeep = diagnosticOf('nestedTooDeep', unit, span, `nested too deep: the syntax tree is more than ${MAX_SYNTAX_DEPTH} levels deep here`, {
      hints: ['each bracket, block, statement and operator is a level; split the expression or the function'],
    });
    return { program: { file: unit, kernels: [] }, rejected: [], notices: [], errors: [tooDeep] };
  }
  const lowered = lowerUnit(unit, parsed.root, setup.observer);
  const atLaunches = setup.launches?.any === true ? lowered : withHostLaunches(lowered, setup.launches?.given ?? [], setup.launches?.givenParams ?? [], setup.launches?.elsewhere ?? []);
  return { ...atLaunches, notices: [...problems, ...atLaunches.notices] };
}

/** The launches another file of the project makes (a compilation database's, or a directory's), of kernels it does not define itself. */
export interface ProjectLaunches {
  /** the other file's preprocessed unit, through whose origin map its sites are named */
  readonly file: SourceFile;
  readonly sites: readonly LaunchSite[];
}

/**
 * The launch sites of another file of the project (preprocessed with its own
 * flags, as `setup` gives them): those of kernels it does not define, since a
 * file that defines `k` launches its own `k`.
 */
export function projectLaunchesOf(setup: CudaSetup, path: string, text: string): ProjectLaunches {
  const pre = preprocess({ path, text }, setup);
  const { unit } = coreSources(pre);
  if (pre.diagnostics.some((d) => d.severity === 'error')) return { file: unit, sites: [] };
  const own = new Set(kernelHeads(pre.text).map((h) => h.name.replace(/^.*::/, '')));
  return { file: unit, sites: launchSitesOf(pre.text).filter((s) => !own.has(s.kernel)) };
}

/**
 * Each kernel fixed to the sizes its launches in this file agree on, and to
 * the integer arguments they all pass alike as constants (a `requires` at the
 * launch site, which `lower` shows), with a note that says so: a kernel
 * written for `blockDim.x == BLOCK` and called with `n = 2048` is verified at
 * the launches its program makes, not at every launch. The sizes and the
 * parameters the caller fixes itself (`given`, `givenParams`) are left to it.
 */
function withHostLaunches(lowered: LoweredUnit, given: readonly ('blockDim' | 'gridDim')[], givenParams: readonly string[], elsewhere: readonly ProjectLaunches[]): LoweredUnit {
  const here = lowered.program.file;
  const launches = unitLaunches(here, elsewhere);
  if (launches.size === 0) return lowered;
  const notices: Diagnostic[] = [];
  const kernels = lowered.program.kernels.map((k) => {
    const launch = launches.get(launchedName(k.name.text));
    if (launch === undefined) return k;
    const site = launch.sites[0]!;
    // a launch in another file has no place in this one: its conditions and note point at the kernel's name, and the note names the site
    const anchor = site.file === here ? site.span : k.name.span;
    const fixed = [
      ...(launch.grid !== null && !given.includes('gridDim') ? [{ builtin: 'gridDim' as const, dims: launch.grid }] : []),
      ...(launch.block !== null && !given.includes('blockDim') ? [{ builtin: 'blockDim' as const, dims: launch.block }] : []),
    ];
    const params = lowered.argumentParams?.get(k.name.text) ?? [];
    const args = params.flatMap((p, i) => {
      const v = launch.args[i];
      return p === null || p.type === undefined || v === null || v === undefined || givenParams.includes(p.text) ? [] : [{ param: p, type: p.type, value: wrapped(v, p.type) }];
    });
    if (fixed.length === 0 && args.length === 0) return k;
    const where = launchesText(launch.sites, here);
    const open = (['gridDim', 'blockDim'] as const).filter((b) => !fixed.some((f) => f.builtin === b) && !given.includes(b));
    const at = [...fixed.map((f) => `${f.builtin} = ${dimsText(f.dims)}`), ...args.map((a) => `${a.param.text} = ${a.value}`)];
    notices.push(
      cudaDiagnostic('launchFromHost', here, anchor, `kernel ${k.name.text} is verified at ${at.join(', ')}, from ${where}${open.length > 0 ? ` (${open.join(' and ')}: every value)` : ''}`, {
        hints: ['--any-launch verifies it at every launch'],
      }),
    );
    const argRequires = args.map((a) => compare('==', { kind: 'var', name: a.param.text, type: a.type, span: anchor }, constant(a.value, a.type, anchor), anchor));
    return { ...k, requires: [...k.requires, ...fixed.flatMap((f) => launchRequires(f.builtin, f.dims, anchor)), ...argRequires] };
  });
  return { ...lowered, program: { ...lowered.program, kernels }, notices: [...lowered.notices, ...notices] };
}

type SitedLaunch = LaunchSite & { readonly file: SourceFile };

/** The launches of each kernel name that the unit's host code and the project's other files make. */
export function unitLaunches(unit: SourceFile, elsewhere: readonly ProjectLaunches[]): Map<string, HostLaunch<SitedLaunch>> {
  const sited = (file: SourceFile) => (s: LaunchSite): SitedLaunch => ({ ...s, file });
  return hostLaunches([...launchSitesOf(unit.text).map(sited(unit)), ...elsewhere.flatMap((p) => p.sites.map(sited(p.file)))]);
}

/** A kernel's name as a launch names it: without template arguments or qualifiers. */
export const launchedName = (kernel: string): string => kernel.replace(/<.*$/s, '').replace(/^.*::/, '');

/** `file:line` of a launch site, where the user wrote it. */
export function siteText(file: SourceFile, span: Span): string {
  const at = userSpan(file, span);
  return `${at.file.path}:${at.start.line}`;
}

/** Which launches fixed a size: this file's one (`here`), or the sites by file:line when any is elsewhere or there are several. */
function launchesText(sites: readonly SitedLaunch[], here: SourceFile): string {
  if (sites.length === 1 && sites[0]!.file === here) return 'its launch here';
  const named = sites.map((s) => siteText(s.file, s.span)).join(', ');
  if (sites.length === 1) return `its launch at ${named}`;
  return sites.every((s) => s.file === here) ? `the ${sites.length} launches of this file, which agree on it` : `the ${sites.length} launches of the project, which agree on it (${named})`;
}
