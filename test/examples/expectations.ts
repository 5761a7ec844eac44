/**
 * Every example (.bcu and .cu) states its outcome on its first line
 * (`// expect: …`); a kernel the verifier may not decide in the default time
 * also says so on a `// verifier: unknown (why)` line: it may then come out
 * unknown, but never with a wrong verdict. A .cu example must lower whole: a
 * rejected kernel fails it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { checkedKernels, isCudaPath } from '../../src/api/check.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { launchWithHeader } from '../../src/api/cuda.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { replayAlarms } from '../../src/verify/replay.js';
import { DEFAULT_TIMEOUT_MS, verifyKernel, type VerifyOptions } from '../../src/verify/verify.js';
import { z3Wasm, z3WasmSolver } from '../../src/solve/z3.js';

/** `benign`: racy only by write-write races of provably equal values (status `benign`, exit code 0) */
export type Expectation = 'drf' | 'racy confirmed' | 'racy possible' | 'benign' | 'divergent';

export interface Example {
  readonly path: string;
  readonly expected: Expectation;
  readonly knownUnknown: boolean;
}

function kernelFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return kernelFiles(path);
      return name.endsWith('.bcu') || name.endsWith('.cu') ? [path] : [];
    });
}

export function examples(): Example[] {
  return kernelFiles('examples').map((path) => {
    const text = readFileSync(path, 'utf8');
    const match = /^\/\/ expect: (drf|racy confirmed|racy possible|benign|divergent)\s*$/m.exec(text.split('\n')[0] ?? '');
    if (!match) throw new Error(`${path}: the first line must be \`// expect: drf|racy confirmed|racy possible|benign|divergent\``);
    return { path, expected: match[1] as Expectation, knownUnknown: /^\/\/ verifier: unknown/m.test(text) };
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
  const options: VerifyOptions = {
    launch: isCudaPath(example.path) ? launchWithHeader(NO_LAUNCH, text).launch : NO_LAUNCH,
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
