/**
 * Every example (.bcu and .cu) states its outcome on its first line
 * (`// expect: …`), and may state its outcome under other options on the
 * comment lines after it (`// expect with --arch sm_60 --warp-size 32: drf`; the options
 * are --arch sm_XX with --warp-size N or GPUVerify's --warp-sync=N); a kernel the verifier may not decide in the default time
 * also says so on a `// verifier: unknown (why)` line: it may then come out
 * unknown, but never with a wrong verdict. A .cu example must lower whole: a
 * rejected kernel fails it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { checkedKernels, isCudaPath } from '../../src/api/check.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { launchWithHeader } from '../../src/api/cuda.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { archOf, lockstepOf } from '../../src/api/options.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { DEFAULT_TIMEOUT_MS, verifyKernel, type VerifyOptions } from '../../src/verify/verify.js';
import { z3Wasm, z3WasmSolver } from '../../src/solve/z3.js';

/** `benign`: racy only by write-write races of provably equal values (status `benign`, exit code 0) */
export type Expectation = 'drf' | 'racy confirmed' | 'racy possible' | 'benign' | 'divergent';

export interface Example {
  readonly path: string;
  readonly expected: Expectation;
  readonly knownUnknown: boolean;
  /** the options of an `expect with …` line, as written, and the warp size they give */
  readonly options: { readonly text: string; readonly warpSize?: number } | null;
}

const OUTCOME = '(drf|racy confirmed|racy possible|benign|divergent)';

/** The options an `expect with` line may give: lockstep warps, which need an architecture before sm_70 (as on the command line). */
function exampleOptions(path: string, text: string): NonNullable<Example['options']> {
  const m = /^--arch (\S+) --warp-(?:size |sync=)(\d+)$/.exec(text);
  if (m === null) throw new Error(`${path}: \`// expect with ${text}\`: the options may be --arch sm_XX --warp-size N (or --warp-sync=N)`);
  const { warpSize } = lockstepOf(Number(m[2]), archOf(m[1]));
  if (warpSize === undefined) throw new Error(`${path}: \`// expect with ${text}\`: lockstep warps need an architecture before sm_70`);
  return { text, warpSize };
}

/**
 * A build project (a CMakeLists.txt beside its sources) is verified through
 * its compilation database, and a program of several files (a Makefile
 * beside them) as one directory, whose launches fix its kernels: each by its
 * own test (test/cli/compile-commands.test.ts, project-launch.test.ts).
 */
function kernelFiles(dir: string): string[] {
  if (existsSync(join(dir, 'CMakeLists.txt')) || existsSync(join(dir, 'Makefile'))) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return kernelFiles(path);
      return name.endsWith('.bcu') || name.endsWith('.cu') ? [path] : [];
    });
}

export function examples(): Example[] {
  return kernelFiles('examples').flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const match = new RegExp(`^// expect: ${OUTCOME}\\s*$`).exec(lines[0] ?? '');
    if (!match) throw new Error(`${path}: the first line must be \`// expect: drf|racy confirmed|racy possible|benign|divergent\``);
    const knownUnknown = /^\/\/ verifier: unknown/m.test(text);
    const header = lines.slice(1, lines.findIndex((l) => !l.startsWith('//')));
    const variants = header.flatMap((l) => {
      const v = new RegExp(`^// expect with (.+): ${OUTCOME}\\s*$`).exec(l);
      return v === null ? [] : [{ path, expected: v[2] as Expectation, knownUnknown, options: exampleOptions(path, v[1]!) }];
    });
    return [{ path, expected: match[1] as Expectation, knownUnknown, options: null }, ...variants];
  });
}

/**
 * Known-unknown examples need not be decided, only never wrong: a budget of
 * a million units shows that, where the default's twenty million would take
 * minutes on their undecided queries. Budgets are resource units, so the
 * verdicts do not depend on the load; the safety net is three times the default.
 */
const KNOWN_UNKNOWN_RLIMIT = 1_000_000;

/** How long one example may take: its undecided queries spend the whole budget (20 million units took up to 6 minutes under heavy load). */
export const EXAMPLE_TIMEOUT_MS = 15 * 60_000;
export async function checkExample(example: Example): Promise<void> {
  const text = readFileSync(example.path, 'utf8');
  const checked = checkedKernels(example.path, text, undefined, undefined, await frontEndsFor(example.path, text, {}));
  if (!checked.ok) throw new Error(`${example.path}: ${checked.diagnostics.map((d) => d.message).join('; ')}`);
  expect(checked.kernels.length).toBeGreaterThan(0);
  expect(checked.rejected.map((r) => r.diagnostic.message)).toEqual([]);
  const given = example.options?.warpSize === undefined ? NO_LAUNCH : { ...NO_LAUNCH, warpSize: example.options.warpSize };
  const options: VerifyOptions = {
    launch: isCudaPath(example.path) ? launchWithHeader(given, text).launch : given,
    timeoutMs: 3 * DEFAULT_TIMEOUT_MS,
    maxRaces: 20,
    solver: example.knownUnknown ? z3WasmSolver(KNOWN_UNKNOWN_RLIMIT) : z3Wasm,
  };
  for (const map of checked.kernels) {
    const k = await verifyKernel(map, options);
    const label = `${example.path} ${k.kernel}`;
    if (example.knownUnknown && k.status === 'unknown') {
      expect(k.races.length + k.divergences.length, label).toBe(0);
      continue;
    }
    switch (example.expected) {
      case 'drf':
        expect(k.status, label).toBe('drf');
        break;
      case 'divergent':
        expect(k.status, label).toBe('divergent');
        break;
      case 'benign':
        expect(k.status, label).toBe('benign');
        expect(k.races.every((r) => r.benign === true && r.kind === 'write-write'), label).toBe(true);
        break;
      case 'racy confirmed':
        expect(k.status, label).toBe('racy');
        expect(k.races.some((r) => r.confidence === 'confirmed'), label).toBe(true);
        break;
      case 'racy possible':
        expect(k.status, label).toBe('racy');
        expect(k.races.every((r) => r.confidence === 'possible'), label).toBe(true);
        break;
    }
    // Theorem 1: a well-typed kernel has only confirmed alarms
    if (k.wellTyped) expect(k.races.every((r) => r.confidence === 'confirmed'), label).toBe(true);
    // what `verify --replay` does: every confirmed alarm is run in the interpreter and seen there
    const replayed = await replayAlarms(map, k, options);
    expect(replayed.failures, label).toEqual([]);
    for (const alarm of [...replayed.result.races, ...replayed.result.divergences]) {
      if (alarm.confidence === 'confirmed') expect(alarm.replay, `${label}: ${alarm.replay?.note ?? 'not replayed'}`).toMatchObject({ replayed: true });
    }
  }
}
