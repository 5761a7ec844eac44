/**
 * The third oracle: the semantics extracted from the Coq mechanisation
 * (proofs/Run.v, Infer.v; `make -C proofs oracle` builds
 * proofs/oracle/babycuda-oracle), run on the kernels `lower --sexp` prints
 * (src/core/sexp.ts), against the TypeScript interpreter and the verifier.
 *
 * P6, for a generated kernel of the model's fragment (on naturals, or on
 * machine integers: typed-generator.ts with `coqFragment`), at every launch
 * of the enumeration (blocks of threads in up to two dimensions, grids of
 * one or two blocks):
 *  - the extracted run and the interpreter's end alike (finished, barrier
 *    divergence, an assumption failed, an operation outside the scope of
 *    machine integers, the launch excluded by a requires),
 *    with the same accesses and values in every phase of every block, and
 *    the same racing elements (within a block, and across blocks on global
 *    arrays);
 *  - the extracted `infer` and `inferMap` agree on well-typedness, and for a
 *    well-typed kernel the extracted MAP run has the run's accesses, phase
 *    by phase (Theorem 1, executed);
 *  - at one launch (the first with a race or divergence, else the first of
 *    several threads), `verify` with that launch fixed agrees with the
 *    extracted run: for a well-typed kernel DRF iff no race nor divergence,
 *    divergent iff divergent, benign only where every race writes one value
 *    twice; for any kernel never DRF (nor vacuous) where the run races.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kernel, Stmt } from '../../src/core/ast.js';
import { kernelSexp } from '../../src/core/sexp.js';
import type { Finished, RunResult } from '../../src/semantics/interpret.js';
import type { TypedConfig } from './typed-generator.js';
import { fail, interpret, launches, launchText, verifyAt, type ConcreteLaunch, type Loaded, type Subject } from './harness.js';

/**
 * Kernels on machine integers (i32, u32) of the model's fragment: no
 * conditional expressions, unknown values or typed atomics (the model's
 * atomics compute on naturals), with the unsigned indices that wrap around
 * (`tid − 1` at thread 0, `tid << 31`, `tid + (2^32 − 2)`, products).
 */
export const TYPED_ORACLE_CONFIG: TypedConfig = { dataFlow: true, assumes: 'any', nonUniformSync: true, atomics: false, wraps: true, coqFragment: true };

const PROOFS = fileURLToPath(new URL('../../proofs/', import.meta.url));
/** Where `make -C proofs oracle` puts the oracle. */
export const ORACLE_BINARY = join(PROOFS, 'oracle', 'babycuda-oracle');

/** Where a command is on the PATH, or null. */
function found(command: string, args: readonly string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/**
 * The oracle, built by `make -C proofs oracle` (which builds the proofs and
 * extracts them first): its path, or why it cannot be built here (Coq,
 * OCaml's findlib or Zarith's development files missing). A build that
 * fails with every tool there is an error, not a reason to skip.
 */
export function builtOracle(): { readonly path: string } | { readonly missing: string } {
  if (!found('coqc', ['--version'])) return { missing: 'coqc is not installed (apt-get install coq)' };
  if (!found('ocamlfind', ['ocamlopt', '-version'])) return { missing: 'ocamlfind/ocamlopt are not installed (apt-get install ocaml-nox ocaml-findlib)' };
  const zarith = spawnSync('ocamlfind', ['query', 'zarith'], { encoding: 'utf8' });
  if (zarith.status !== 0 || !existsSync(join(zarith.stdout.trim(), 'z.cmi'))) return { missing: "Zarith's development files are not installed (apt-get install libzarith-ocaml-dev)" };
  const make = spawnSync('make', ['-C', PROOFS, 'oracle'], { encoding: 'utf8' });
  if (make.status !== 0) throw new Error(`make -C proofs oracle failed:\n${make.stdout}\n${make.stderr}`);
  return { path: ORACLE_BINARY };
}

// ---------------------------------------------------------------------------
// What the oracle prints (proofs/oracle/runner.ml)

type Mode = 'r' | 'w' | 'a';
/** thread ("BX,BY,BZ/TX,TY,TZ"), array, index, mode, value (an atomic's: what it writes; null in a MAP and in a race); numbers as decimal strings */
type OracleAccess = readonly [string, string, readonly string[], Mode, string | null];
type OracleRace = readonly [OracleAccess, OracleAccess];
interface OraclePhase {
  readonly accesses: readonly OracleAccess[];
  readonly races: readonly OracleRace[];
}
/** `undefined`: an operation outside the scope of machine integers; `negative-index`: a signed index below 0, outside the model's memory (indexed by naturals) */
type OracleKind = 'finished' | 'divergent' | 'infeasible' | 'excluded' | 'limit' | 'undefined' | 'negative-index';
interface OracleBlock {
  readonly block: string;
  readonly kind: OracleKind;
  readonly phases: readonly OraclePhase[];
}
export interface OracleResult {
  readonly kind: OracleKind;
  readonly blocks: readonly OracleBlock[];
  /** threads of different blocks on a global array */
  readonly crossRaces: readonly OracleRace[];
}
export interface OracleLine {
  readonly job: number;
  readonly launch: number;
  readonly run: OracleResult;
  readonly typed: boolean;
  readonly map: OracleResult | null;
  readonly error?: string;
}

function launchSexp(l: ConcreteLaunch): string {
  const params = Object.entries(l.params).map(([k, v]) => ` (${k} ${v})`).join('');
  return `(launch (params${params}) (blockDim ${l.blockDim.join(' ')}) (gridDim ${l.gridDim.join(' ')}))`;
}

/** The kernel as the oracle reads it, or null when it is outside the model's fragment. */
export function oracleKernel(kernel: Kernel): string | null {
  const printed = kernelSexp(kernel);
  return printed.kind === 'sexp' ? printed.text : null;
}

/** Runs the oracle on one kernel at each launch: one result per launch, in order. */
export function runOracle(binary: string, sexp: string, ls: readonly ConcreteLaunch[]): OracleLine[] {
  const input = `(job 0 ${sexp}\n${ls.map(launchSexp).join('\n')})\n`;
  const r = spawnSync(binary, [], { input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`the oracle failed (${r.error?.message ?? `exit ${r.status ?? r.signal}`}): ${r.stderr}\n--- input ---\n${input}`);
  const lines = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as OracleLine);
  const error = lines.find((l) => l.error !== undefined);
  if (error !== undefined) throw new Error(`the oracle refused its input: ${error.error}\n--- input ---\n${input}`);
  if (lines.length !== ls.length) throw new Error(`the oracle printed ${lines.length} results for ${ls.length} launches`);
  return lines;
}

// ---------------------------------------------------------------------------
// Comparisons

/** What P6 compared, over a campaign. */
export interface OracleCounts {
  kernels: number;
  /** kernels outside the model's fragment (none, from the generator's settings for P6) */
  outside: number;
  wellTyped: number;
  /** launches compared, by how both ended */
  launches: Record<string, number>;
  /** launches of several blocks compared */
  grids: number;
  /** kernels with atomics, compared without values (and only when well-typed) */
  atomics: number;
  /** ill-typed kernels with atomics, not compared at any launch */
  atomicsIllTyped: number;
  /** launches not compared: a bound of either side */
  notCompared: Record<string, number>;
  /** launches at which the extracted MAP run was compared with the extracted program run */
  mapCompared: number;
  /** kernels the model types whose only violations are inferMap's definedness ones */
  typedButForDefinedness: number;
  /** launches compared with an access at an index of 2^31 or more (in a typed kernel, an unsigned index that wrapped around or `x << 31`; in one on naturals, a large value) */
  highIndex: number;
  /** verify at one launch, by its verdict and the oracle's */
  verified: Record<string, number>;
}

export function oracleCounts(): OracleCounts {
  return { kernels: 0, outside: 0, wellTyped: 0, launches: {}, grids: 0, atomics: 0, atomicsIllTyped: 0, notCompared: {}, mapCompared: 0, typedButForDefinedness: 0, highIndex: 0, verified: {} };
}

function bump(r: Record<string, number>, key: string): void {
  r[key] = (r[key] ?? 0) + 1;
}

const modeOf = (kind: 'read' | 'write' | 'atomic'): Mode => (kind === 'read' ? 'r' : kind === 'write' ? 'w' : 'a');

function oracleKeys(p: OraclePhase, withValues: boolean): string[] {
  return p.accesses.map(([t, a, ix, m, v]) => `t${t} ${m} ${a}[${ix.join(',')}]${withValues ? ` = ${v}` : ''}`).sort();
}

/**
 * The model holds a typed value as its bits (Syntax.v `bits`), the
 * interpreter as the value: a negative value is compared as its bits in the
 * kernel's widest machine type (so a kernel mixing 32- and 64-bit types with
 * negative 32-bit values would show a difference that is not one; the
 * generated kernels have 32-bit types only). Naturals are themselves.
 */
function heldBits(v: bigint, width: number): bigint {
  return v < 0n ? v + (1n << BigInt(width)) : v;
}

function interpreterKeys(run: Finished, block: number, phase: number, withValues: boolean, width: number): string[] {
  const b = run.blocks[block]!;
  const p = b.phases[phase]!;
  return p.threads
    .flatMap((t) => t.accesses.map((a) => `t${b.block.join(',')}/${t.thread.join(',')} ${modeOf(a.kind)} ${a.array}[${a.index.join(',')}]${withValues ? ` = ${heldBits(a.value, width)}` : ''}`))
    .sort();
}

/** The width of the widest machine type the kernel's s-expression mentions (32 when it has none: naturals are never negative). */
function widestType(sexp: string): number {
  return /\b[iu]64\b/.test(sexp) ? 64 : 32;
}

/** Whether a kernel has an atomic. */
function hasAtomics(ss: readonly Stmt[]): boolean {
  return ss.some((s) => {
    switch (s.kind) {
      case 'atomic':
        return true;
      case 'read':
      case 'let':
      case 'havoc':
        return hasAtomics([s.body]);
      case 'if':
        return hasAtomics(s.then) || hasAtomics(s.else ?? []);
      case 'for':
        return hasAtomics(s.body);
      default:
        return false;
    }
  });
}

/**
 * The elements that race, within a block or across blocks. The interpreter
 * keeps one race per pair of sites and element (`A[i]`, a shared array's
 * copies in several blocks counted once), in whichever phase and block it
 * comes first: so the comparison is of the elements' names.
 */
function oracleRacing(r: OracleResult): string[] {
  const within = r.blocks.flatMap((b) => b.phases.flatMap((p) => p.races.map(([a]) => `${a[1]}[${a[2].join(',')}]`)));
  const across = r.crossRaces.map(([a]) => `${a[1]}[${a[2].join(',')}]`);
  return [...new Set([...within, ...across])].sort();
}

function interpreterRacing(run: Finished): string[] {
  return [...new Set(run.races.map((r) => `${r.array}[${r.index.join(',')}]`))].sort();
}

/** How the interpreter's run ended, in the oracle's words; null where it stopped at a bound. */
function interpreterKind(g: Subject, run: RunResult, at: string): OracleKind | null {
  switch (run.kind) {
    case 'finished':
      return run.divergences.length > 0 ? 'divergent' : 'finished';
    case 'infeasible':
      return 'infeasible';
    case 'limit':
      return null;
    case 'error':
      if (run.reason === 'requires' || run.reason === 'dims') return 'excluded';
      return fail(g, `at ${at} the interpreter stops with an error: ${run.message}`);
    case 'undefined':
      return 'undefined';
  }
}

/**
 * Whether every race of the oracle's run is two writes of one value (what
 * `benign` promises): no read races, and each racing element's writes in
 * the phase (every one races, the element's writers being several) have one
 * value; across blocks, every write to the element in any phase.
 */
function everyRaceBenign(r: OracleResult): boolean {
  const sameElement = (x: OracleAccess, a: OracleAccess): boolean => x[3] === 'w' && x[1] === a[1] && x[2].join(',') === a[2].join(',');
  const oneValue = (accesses: readonly OracleAccess[], [a, b]: OracleRace): boolean =>
    a[3] === 'w' && b[3] === 'w' && new Set(accesses.filter((x) => sameElement(x, a)).map((x) => x[4])).size === 1;
  const all = r.blocks.flatMap((b) => b.phases.flatMap((p) => p.accesses));
  return r.blocks.every((b) => b.phases.every((p) => p.races.every((race) => oneValue(p.accesses, race)))) && r.crossRaces.every((race) => oneValue(all, race));
}

/** The accesses of a result, block by block and phase by phase, without values: what a MAP run and a program run share. */
function accessesOf(r: OracleResult): string {
  return r.blocks.map((b) => `block ${b.block} ${b.kind}\n${b.phases.map((p) => oracleKeys(p, false).join('\n')).join('\n--\n')}`).join('\n==\n');
}

/**
 * P6 on one kernel: the oracle against the interpreter at every launch, and
 * against `verify` at one. Returns false when the kernel is outside the
 * model's fragment (nothing compared).
 */
export async function checkOracle(g: Subject, loaded: Loaded, binary: string, counts: OracleCounts, verifyToo: boolean): Promise<boolean> {
  const sexp = oracleKernel(loaded.kernel);
  if (sexp === null) {
    counts.outside++;
    return false;
  }
  counts.kernels++;
  const ls = launches(loaded.kernel, null);
  const lines = runOracle(binary, sexp, ls);
  const typedTs = loaded.map.violations.length === 0;
  // The model's typing has no `defined` step (inferMap's: a possibly
  // undefined operation whose operands depend on data makes the kernel
  // ill-typed, as whether a thread goes on depends on the data): the
  // model's evaluation is total and its MAP keeps accesses only, so it
  // types such kernels (proofs/README.md, what remains outside).
  const typedModel = loaded.map.violations.every((v) => v.use === 'definedness');
  if (lines[0]!.typed !== typedModel) fail(g, `the extracted infer says ${lines[0]!.typed ? 'well-typed' : 'ill-typed'}, inferMap ${typedModel ? 'well-typed' : 'ill-typed'}${typedTs ? '' : ' (but for definedness)'}`);
  if (typedTs) counts.wellTyped++;
  if (typedModel && !typedTs) counts.typedButForDefinedness++;
  // The model's atomic reads its thread's view of memory (lastwrite), the
  // interpreter's the block's latest value in one total order of atomics:
  // the theorems hold for any values read, but the runs' values differ. So
  // a kernel with atomics is compared without values, and only when
  // well-typed (its accesses then depend on no value: Theorem 1).
  const atomics = hasAtomics(loaded.kernel.body);
  const width = widestType(sexp);
  if (atomics) counts.atomics++;
  if (atomics && !typedTs) {
    counts.atomicsIllTyped++;
    return true;
  }
  let chosen: { launch: ConcreteLaunch; oracle: OracleResult } | null = null;
  let clean: { launch: ConcreteLaunch; oracle: OracleResult } | null = null;
  for (const [i, launch] of ls.entries()) {
    const { run: oracle, map } = lines[i]!;
    const at = launchText(launch);
    if (oracle.kind === 'limit') {
      bump(counts.notCompared, 'a bound of the oracle');
      continue;
    }
    if (oracle.kind === 'negative-index') {
      bump(counts.notCompared, "a negative index (outside the model's memory)");
      continue;
    }
    const run = interpret(loaded.kernel, launch);
    const kind = interpreterKind(g, run, at);
    if (kind === null) {
      bump(counts.notCompared, 'a bound of the interpreter');
      continue;
    }
    if (kind !== oracle.kind) fail(g, `at ${at} the extracted semantics ends ${oracle.kind}, the interpreter ${kind}`);
    bump(counts.launches, kind);
    if (oracle.blocks.length > 1) counts.grids++;
    if (run.kind === 'finished') {
      if (run.blocks.length !== oracle.blocks.length) fail(g, `at ${at} the extracted run has ${oracle.blocks.length} blocks, the interpreter ${run.blocks.length}`);
      for (const [b, block] of oracle.blocks.entries()) {
        const phases = run.blocks[b]!.phases.length;
        if (phases !== block.phases.length) fail(g, `at ${at} block ${block.block}: the extracted run has ${block.phases.length} phases, the interpreter ${phases}`);
        for (const [p, phase] of block.phases.entries()) {
          const want = interpreterKeys(run, b, p, !atomics, width);
          const got = oracleKeys(phase, !atomics);
          if (want.join('\n') !== got.join('\n')) fail(g, `at ${at} block ${block.block} phase ${p}:\ninterpreter:\n  ${want.join('\n  ')}\nextracted:\n  ${got.join('\n  ')}`);
        }
      }
      if (oracle.blocks.some((b) => b.phases.some((p) => p.accesses.some(([, , ix]) => ix.some((i) => BigInt(i) >= 1n << 31n))))) counts.highIndex++;
      // the interpreter keeps a bounded number of races (harness.interpret): when it kept fewer, it kept them all
      const want = interpreterRacing(run);
      const got = oracleRacing(oracle);
      const complete = run.races.length < 50;
      if (complete ? want.join(' ') !== got.join(' ') : !want.every((w) => got.includes(w))) {
        fail(g, `at ${at} the racing elements differ:\ninterpreter: ${want.join(' ')}\nextracted: ${got.join(' ')}`);
      }
    }
    if (typedModel && (kind === 'finished' || kind === 'divergent')) {
      if (map === null || map.kind !== oracle.kind) fail(g, `at ${at} the extracted MAP run ends ${map?.kind ?? 'nowhere'}, the program run ${oracle.kind}`);
      if (accessesOf(map) !== accessesOf(oracle)) fail(g, `at ${at} the extracted MAP run's accesses differ from the program run's:\nMAP:\n${accessesOf(map)}\nrun:\n${accessesOf(oracle)}`);
      counts.mapCompared++;
    }
    const alarm = kind === 'divergent' || oracle.crossRaces.length > 0 || oracle.blocks.some((b) => b.phases.some((p) => p.races.length > 0));
    if (kind === 'finished' || kind === 'divergent') {
      if (alarm && chosen === null) chosen = { launch, oracle };
      if (!alarm && clean === null && launch.blockDim[0] > 1n) clean = { launch, oracle };
    }
  }
  const at = chosen ?? clean;
  if (verifyToo && at !== null) await checkVerdict(g, loaded, at.launch, at.oracle, typedTs, counts);
  return true;
}

/** `verify` with the launch fixed against the oracle's run there. */
async function checkVerdict(g: Subject, loaded: Loaded, launch: ConcreteLaunch, oracle: OracleResult, typed: boolean, counts: OracleCounts): Promise<void> {
  const status = (await verifyAt(loaded, launch)).status;
  const racy = oracle.crossRaces.length > 0 || oracle.blocks.some((b) => b.phases.some((p) => p.races.length > 0));
  const said = oracle.kind === 'divergent' ? 'divergent' : racy ? (everyRaceBenign(oracle) ? 'racy, every race benign' : 'racy') : 'DRF';
  bump(counts.verified, `${typed ? 'well-typed' : 'ill-typed'}: verify ${status}, extracted run ${said}`);
  if (status === 'unknown' || status === 'error') return;
  const at = launchText(launch);
  const disagree = (why: string): never => fail(g, `at ${at} verify says ${status}, the extracted run is ${said}: ${why}`);
  if (status === 'vacuous') disagree('the run is feasible');
  if (status === 'drf' && said !== 'DRF') disagree('DRF must mean no race and no divergence');
  if (status === 'benign' && said !== 'racy, every race benign' && said !== 'DRF') disagree('benign must mean every race writes one value twice');
  if (!typed) return;
  // well-typed: the verdict at a fixed launch is exact
  if (said === 'DRF' && status !== 'drf') disagree('a well-typed kernel with neither race nor divergence at this launch is DRF');
  if (said === 'divergent' && status !== 'divergent') disagree('a well-typed kernel divergent at this launch is divergent');
  if ((said === 'racy' || said === 'racy, every race benign') && status !== 'racy' && status !== 'benign') disagree('a well-typed kernel racing at this launch is racy');
  if (said === 'racy' && status === 'benign') disagree('a race of two different values or with a read is not benign');
}
