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
import { z3Wasm } from '../../src/solve/z3.js';

export type Expectation = 'drf' | 'racy confirmed' | 'racy possible' | 'divergent';

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

/**
 * Whether the verifier encodes CUDA's machine integers: until the typed core
 * does, every .cu kernel ends in "not encoded yet", and the .cu examples wait
 * (they are skipped, not passed).
 */
async function machineIntegersEncoded(): Promise<boolean> {
  const path = 'probe.cu';
  const text = '__global__ void k(int *A) { A[threadIdx.x] = 0; }';
  const checked = checkedKernels(path, text, undefined, undefined, await frontEndsFor(path, text, {}));
  if (!checked.ok) throw new Error('the probe kernel does not lower');
  const k = await verifyKernel(checked.kernels[0]!, { launch: NO_LAUNCH, timeoutMs: DEFAULT_TIMEOUT_MS, maxRaces: 1, solver: z3Wasm });
  return !k.unknowns.some((u) => /not encoded yet/.test(u.reason));
}

export const CUDA_VERIFIED = await machineIntegersEncoded();

export function examples(): Example[] {
  return kernelFiles('examples').map((path) => {
    const text = readFileSync(path, 'utf8');
    const match = /^\/\/ expect: (drf|racy confirmed|racy possible|divergent)\s*$/m.exec(text.split('\n')[0] ?? '');
    if (!match) throw new Error(`${path}: the first line must be \`// expect: drf|racy confirmed|racy possible|divergent\``);
    return { path, expected: match[1] as Expectation, knownUnknown: /^\/\/ verifier: unknown/m.test(text) };
  });
}

/**
 * Solver time varies with the machine's load (CI runs two test workers on two
 * cores), so decidable examples get three times the default per query; the
 * known-unknown ones get the default, which they must exhaust.
 */
export async function checkExample(example: Example): Promise<void> {
  const text = readFileSync(example.path, 'utf8');
  const checked = checkedKernels(example.path, text, undefined, undefined, await frontEndsFor(example.path, text, {}));
  if (!checked.ok) throw new Error(`${example.path}: ${checked.diagnostics.map((d) => d.message).join('; ')}`);
  expect(checked.kernels.length).toBeGreaterThan(0);
  expect(checked.rejected.map((r) => r.diagnostic.message)).toEqual([]);
  const options: VerifyOptions = {
    launch: isCudaPath(example.path) ? launchWithHeader(NO_LAUNCH, text).launch : NO_LAUNCH,
    timeoutMs: example.knownUnknown ? DEFAULT_TIMEOUT_MS : 3 * DEFAULT_TIMEOUT_MS,
    maxRaces: 20,
    solver: z3Wasm,
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
