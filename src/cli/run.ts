/**
 * `faial-ts run FILE…`: runs kernels on one concrete launch with the reference
 * interpreter (src/semantics) and prints the access history phase by phase,
 * the races and the barrier divergences found.
 *
 * Exit code: 0 no race and no divergence (also for an infeasible launch or
 * one a machine-integer operation makes undefined:
 * there is nothing to check), 1 a race or a divergence, 2 bad input (syntax
 * error, missing parameter, launch violating `requires`, bad `--init`, a
 * limit reached).
 */
import { readFile } from 'node:fs/promises';
import { DiagnosticError } from '../diagnostics/diagnostic.js';
import type { Kernel, Program } from '../core/ast.js';
import { programOf } from '../api/check.js';
import { runParamValue } from '../api/options.js';
import { fileLaunch } from '../api/verify.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Launch } from '../core/launch.js';
import { frontEndsFor, type CudaFlags } from './cuda.js';
import { userSpan, type SourceFile, type Span } from '../core/source.js';
import { executionText } from '../report/describe.js';
import { runKernel, vecText, type Access, type Finished, type InitContent, type PhaseEnd, type Race, type RunResult } from '../semantics/interpret.js';
import { vec3, type Vec3 } from '../semantics/values.js';
import { assertNever } from '../util/assert.js';
import { escapedText } from './escape.js';

export interface RunCommandOptions {
  kernel?: string;
  /** a value as is, or its text as typed (`-p`), read per kernel: a float parameter takes a float (src/api/options.ts's runParamValue) */
  params: Record<string, bigint | string>;
  blockDim?: [bigint, bigint, bigint];
  gridDim?: [bigint, bigint, bigint];
  /** `A=1,2,3` (first elements), `A=random:SEED` or `A=random` */
  init: string[];
  json: boolean;
  /** seed of `A=random` without its own; when given, arrays without --init get random contents too */
  seed?: number;
  /** -D, -U, -I for .cu files */
  cuda?: CudaFlags;
  /** --warp-size: lockstep warps */
  warpSize?: number;
}

/** Where the command writes; the process's streams unless a test says otherwise. */
export interface RunIO {
  out(text: string): void;
  err(text: string): void;
}

const processIO: RunIO = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

const EXIT_OK = 0;
const EXIT_FOUND = 1;
const EXIT_BAD_INPUT = 2;

interface KernelRunReport {
  readonly file: SourceFile;
  readonly kernel: Kernel;
  readonly result: RunResult;
  /** the execution model: independent threads or lockstep warps */
  readonly execution: string;
}

export async function runCommand(files: string[], opts: RunCommandOptions, io: RunIO = processIO): Promise<number> {
  const init = parseInitOptions(opts.init, opts.seed);
  if (typeof init === 'string') {
    io.err(`error: ${init}\n`);
    return EXIT_BAD_INPUT;
  }

  let exit = EXIT_OK;
  /** unreadable files and syntax errors, also listed in the JSON document */
  const inputErrors: { file: string; line?: number; column?: number; message: string }[] = [];
  const given: Launch = { params: new Map(), blockDim: opts.blockDim ?? null, gridDim: opts.gridDim ?? null, ...(opts.warpSize === undefined ? {} : { warpSize: opts.warpSize }) };
  const programs: { program: Program; launch: Launch; notice: Diagnostic | null }[] = [];
  for (const path of files) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      const message = `cannot read ${path}: ${err instanceof Error ? err.message : String(err)}`;
      io.err(`error: ${message}\n`);
      inputErrors.push({ file: path, message });
      exit = EXIT_BAD_INPUT;
      continue;
    }
    try {
      const lowered = programOf(path, text, await frontEndsFor(path, text, opts.cuda ?? {}));
      // a .cu file's GPUVerify test header gives the dimensions and warp size the command line does not, as in verify
      programs.push({ program: lowered.program, ...fileLaunch(path, text, given) });
      // a kernel the CUDA front end does not analyse cannot run either
      for (const r of lowered.rejected.filter((k) => opts.kernel === undefined || k.name === opts.kernel)) {
        const d = r.diagnostic;
        io.err(`${location(d.file, d.span)}: ${d.severity}: kernel ${r.name}: ${d.message}\n`);
        inputErrors.push({ file: path, ...userSpan(d.file, d.span).start, message: d.message });
        exit = EXIT_BAD_INPUT;
      }
    } catch (err) {
      if (!(err instanceof DiagnosticError)) throw err;
      for (const d of err.diagnostics) {
        io.err(`${location(d.file, d.span)}: ${d.severity}: ${d.message}\n`);
        inputErrors.push({ file: path, ...userSpan(d.file, d.span).start, message: d.message });
      }
      exit = EXIT_BAD_INPUT;
    }
  }

  const selected = programs.flatMap(({ program, launch, notice }) =>
    program.kernels.filter((k) => opts.kernel === undefined || k.name.text === opts.kernel).map((kernel) => ({ file: program.file, kernel, launch, notice })),
  );
  if (opts.kernel !== undefined && selected.length === 0 && programs.length > 0) {
    const names = programs.flatMap((p) => p.program.kernels.map((k) => k.name.text));
    io.err(`error: no kernel named '${escapedText(opts.kernel)}' (found: ${escapedText(names.join(', '))})\n`);
    return EXIT_BAD_INPUT;
  }
  const declared = new Set(selected.flatMap(({ kernel }) => kernel.arrays.map((a) => a.name.text)));
  for (const name of init.explicit.keys()) {
    if (!declared.has(name)) {
      io.err(`error: --init ${name}=…: no kernel declares an array '${name}'\n`);
      return EXIT_BAD_INPUT;
    }
  }
  const paramNames = new Set(selected.flatMap(({ kernel }) => kernel.params.map((p) => p.text)));
  for (const name of Object.keys(opts.params)) {
    if (!paramNames.has(name)) io.err(`warning: -p ${name}: no kernel run has a parameter '${name}'\n`);
  }

  // a value's text is read for each kernel's parameter of that name (a bad one is a usage error, before anything runs)
  const paramsOfKernel = new Map(selected.map(({ kernel }) => [kernel, Object.fromEntries(Object.entries(opts.params).map(([name, v]) => [name, typeof v === 'bigint' ? v : runParamValue(name, v, kernel.params.find((p) => p.text === name))]))]));
  const noted = new Set<SourceFile>();
  const reports: KernelRunReport[] = selected.map(({ file, kernel, launch, notice }) => {
    const kernelInit: Record<string, InitContent> = {};
    for (const a of kernel.arrays) {
      const content = init.explicit.get(a.name.text) ?? init.fallback;
      if (content !== undefined) kernelInit[a.name.text] = content;
    }
    const blockDim = launch.blockDim === null ? undefined : vec3(launch.blockDim);
    const gridDim = launch.gridDim === null ? undefined : vec3(launch.gridDim);
    const warpSize = launch.warpSize;
    if (notice !== null && !noted.has(file)) {
      noted.add(file);
      io.err(`${location(notice.file, notice.span)}: ${notice.severity}: ${notice.message}\n`);
    }
    const result = runKernel(
      kernel,
      { params: paramsOfKernel.get(kernel)!, ...(blockDim === undefined ? {} : { blockDim }), ...(gridDim === undefined ? {} : { gridDim }) },
      { init: kernelInit, ...(opts.seed === undefined ? {} : { seed: opts.seed }), ...(warpSize === undefined ? {} : { warpSize }) },
    );
    return { file, kernel, result, execution: executionText(warpSize === undefined ? {} : { warpSize }) };
  });

  for (const r of reports) exit = Math.max(exit, exitCodeOf(r.result));
  if (opts.json) {
    io.out(`${toJson({ exitCode: exit, errors: inputErrors, runs: reports.map(jsonReport) })}\n`);
  } else {
    for (const r of reports) {
      io.out(textReport(r));
      // problems of the launch go to stderr like every other error
      if (r.result.kind === 'error' || r.result.kind === 'limit') io.err(problemLine(r));
    }
  }
  return exit;
}

function exitCodeOf(result: RunResult): number {
  switch (result.kind) {
    case 'finished':
      return result.races.length > 0 || result.divergences.length > 0 ? EXIT_FOUND : EXIT_OK;
    case 'infeasible':
    case 'undefined':
      return EXIT_OK;
    case 'limit':
    case 'error':
      return EXIT_BAD_INPUT;
  }
}

// ---------------------------------------------------------------------------
// --init

interface InitOptions {
  readonly explicit: Map<string, InitContent>;
  /** contents of the arrays not given (from --seed) */
  readonly fallback: InitContent | undefined;
}

/** Parses the --init options; a string is the error message. */
export function parseInitOptions(specs: readonly string[], seed: number | undefined): InitOptions | string {
  const explicit = new Map<string, InitContent>();
  for (const spec of specs) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(spec);
    if (m === null) return `--init ${spec}: expected ARRAY=v0,v1,… or ARRAY=random[:SEED]`;
    const [, name, rhs] = m as unknown as [string, string, string];
    if (explicit.has(name)) return `--init ${spec}: array '${name}' is already initialised`;
    const random = /^random(?::(\d+))?$/.exec(rhs);
    if (random !== null) {
      explicit.set(name, { kind: 'random', seed: random[1] === undefined ? (seed ?? 0) : Number(random[1]) });
      continue;
    }
    const values = rhs.split(',').map((v) => v.trim());
    if (values.some((v) => !/^\d+$/.test(v))) return `--init ${spec}: values must be natural numbers separated by commas`;
    explicit.set(name, { kind: 'list', values: values.map((v) => BigInt(v)) });
  }
  return { explicit, fallback: seed === undefined ? undefined : { kind: 'random', seed } };
}

// ---------------------------------------------------------------------------
// Text

function location(file: SourceFile, span: Span): string {
  const u = userSpan(file, span);
  return `${u.file.path}:${u.start.line}:${u.start.column}`;
}

function lineCol(file: SourceFile, span: Span): string {
  const p = userSpan(file, span).start;
  return `${p.line}:${p.column}`;
}

/** `3` for one-dimensional ids, `(3,1,0)` otherwise. */
function idText(v: Vec3, dims: Vec3): string {
  return dims[1] === 1n && dims[2] === 1n ? String(v[0]) : `(${v[0]},${v[1]},${v[2]})`;
}

function element(array: string, index: readonly bigint[]): string {
  return `${array}${index.map((i) => `[${i}]`).join('')}`;
}

function accessText(file: SourceFile, a: Access): string {
  switch (a.kind) {
    case 'read':
      return `read ${element(a.array, a.index)} = ${a.value} (${lineCol(file, a.span)})`;
    case 'write':
      return `write ${element(a.array, a.index)} := ${a.value} (${lineCol(file, a.span)})`;
    case 'atomic':
      return `atomic ${a.op ?? ''} ${element(a.array, a.index)}, old value ${a.value} (${lineCol(file, a.span)})`;
    default:
      return assertNever(a.kind);
  }
}

function phaseEndText(file: SourceFile, end: PhaseEnd): string {
  switch (end.kind) {
    case 'sync':
      return `until the sync at ${lineCol(file, end.span)}`;
    case 'exit':
      return 'until the end of the kernel';
    case 'divergence':
      return 'until the threads diverged at a barrier';
  }
}

function header(r: KernelRunReport): string {
  const params = r.kernel.params.map((p) => p.text);
  const launch = r.result.kind === 'finished' || r.result.kind === 'infeasible' || r.result.kind === 'undefined' ? r.result.launch : null;
  const args = launch === null ? params.join(', ') : params.map((p) => `${p}=${launch.params[p]}`).join(', ');
  const dims = launch === null ? '' : `, grid ${idText(launch.gridDim, launch.gridDim)}, block ${idText(launch.blockDim, launch.blockDim)}`;
  return `${r.file.path}: kernel ${r.kernel.name.text}(${args})${dims}, ${r.execution}\n`;
}

function problemLine(r: KernelRunReport): string {
  const res = r.result;
  if (res.kind !== 'error' && res.kind !== 'limit') return '';
  const where = res.span === null ? r.file.path : location(r.file, res.span);
  if (res.kind === 'error') {
    const message = res.reason === 'requires' && res.span !== null ? `launch violates requires at ${lineCol(r.file, res.span)}` : res.message;
    return `${where}: error: ${message}\n`;
  }
  return `${where}: stopped: ${res.message}\n`;
}

function textReport(r: KernelRunReport): string {
  const res = r.result;
  switch (res.kind) {
    case 'error':
    case 'limit':
      return header(r);
    case 'infeasible':
      return `${header(r)}${location(r.file, res.span)}: launch infeasible: ${res.message}; no execution to check\n`;
    case 'undefined': {
      const who = res.at === null ? 'the kernel header' : `thread ${vecText(res.at.thread)} of block ${vecText(res.at.block)}`;
      return `${header(r)}${location(r.file, res.span)}: undefined behaviour (outside the scope of verification): ${who}: ${res.message}; no execution to check\n`;
    }
    case 'finished':
      return header(r) + finishedText(r.file, res);
  }
}

function finishedText(file: SourceFile, res: Finished): string {
  const { gridDim, blockDim } = res.launch;
  const out: string[] = [];
  for (const b of res.blocks) {
    for (const p of b.phases) {
      out.push(`block ${idText(b.block, gridDim)}, phase ${p.index} (${phaseEndText(file, p.end)}):`);
      if (p.threads.length === 0) out.push('  no accesses');
      for (const t of p.threads) out.push(`  thread ${idText(t.thread, blockDim)}: ${t.accesses.map((a) => accessText(file, a)).join('; ')}`);
    }
  }
  for (const m of res.memory) {
    if (m.cells.length === 0) continue;
    const owner = m.block === null ? 'global' : `shared, block ${idText(m.block, gridDim)}`;
    out.push(`final ${m.array} (${owner}): ${m.cells.map((c) => `${element('', c.index)}=${c.value}`).join(' ')}`);
  }
  for (const race of res.races) out.push(raceText(file, race, res));
  for (const d of res.divergences) {
    const other =
      d.notReachedAt.kind === 'exit'
        ? 'it finished'
        : d.notReachedAt.span.start === d.sync.start
          ? `it waits at this ${d.barrier} in another iteration of a loop around it`
          : `it waits at the ${d.notReachedAt.kind} at ${lineCol(file, d.notReachedAt.span)}`;
    const where = d.barrier === 'sync' ? `block ${idText(d.block, gridDim)}` : `a warp of block ${idText(d.block, gridDim)}`;
    out.push(
      `${location(file, d.sync)}: barrier divergence in ${where}: thread ${idText(d.reached, blockDim)} reached this ${d.barrier}, thread ${idText(d.notReached, blockDim)} did not (${other})`,
    );
  }
  if (res.uninitializedReads.length > 0) {
    const first = res.uninitializedReads[0]!;
    out.push(
      `note: ${res.uninitializedReads.length} read${res.uninitializedReads.length > 1 ? 's' : ''} of elements never written nor initialised (read as 0), e.g. ${element(first.array, first.index)} at ${lineCol(file, first.span)}; see --init`,
    );
  }
  if (res.truncated) out.push('note: more races or reads were found than are listed');
  const found = [
    res.races.length === 0 ? 'no data race' : `${res.races.length} data race${res.races.length > 1 ? 's' : ''}`,
    ...(res.divergences.length === 0 ? [] : [`${res.divergences.length} barrier divergence${res.divergences.length > 1 ? 's' : ''}`]),
  ];
  out.push(`${found.join(', ')} (${res.steps} steps)`);
  return `${out.join('\n')}\n`;
}

const ACCESS_VERB: Record<Race['first']['kind'], string> = { read: 'reads', write: 'writes', atomic: 'updates atomically' };

function raceText(file: SourceFile, race: Race, res: Finished): string {
  const { gridDim, blockDim } = res.launch;
  const who = (a: Race['first']): string =>
    `thread ${idText(a.thread, blockDim)}${race.between === 'blocks' ? ` of block ${idText(a.block, gridDim)} (phase ${a.phase})` : ''} ${ACCESS_VERB[a.kind]} at ${location(file, a.span)}`;
  const where = race.between === 'threads' ? `block ${idText(race.first.block, gridDim)}, phase ${race.first.phase}` : 'between blocks';
  return `data race on ${element(race.array, race.index)} (${race.scope}, ${where}): ${who(race.first)}, ${who(race.second)}`;
}

// ---------------------------------------------------------------------------
// JSON

function jsonReport(r: KernelRunReport): unknown {
  return { file: r.file.path, kernel: r.kernel.name.text, execution: r.execution, result: withLocations(r.file, r.result) };
}

function isSpan(v: object): v is Span {
  const keys = Object.keys(v);
  return keys.length === 2 && typeof (v as Partial<Span>).start === 'number' && typeof (v as Partial<Span>).end === 'number';
}

/** A copy of the result where each span becomes line and column (1-based) of its start and end. */
function withLocations(file: SourceFile, v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => withLocations(file, x));
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), withLocations(file, x)]));
  if (v !== null && typeof v === 'object') {
    if (isSpan(v)) {
      const u = userSpan(file, v);
      return { line: u.start.line, column: u.start.column, endLine: u.end.line, endColumn: u.end.column };
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, withLocations(file, x)]));
  }
  return v;
}

/** JSON where bigints are written as exact JSON numbers, however large. */
export function toJson(value: unknown): string {
  const marker = '\u0000bigint:';
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${marker}${v}` : v), 2);
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
