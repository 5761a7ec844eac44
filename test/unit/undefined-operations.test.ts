/**
 * Issue 28 §1: signed overflow, division by zero and shifts out of range stay
 * outside the scope of a proof, but where some launch the kernel allows may
 * reach one, the report names the operation and its place (W0801, one each),
 * in the text, JSON and SARIF reports; a kernel whose requires exclude them
 * gets no warning, and a kernel without such an operation asks nothing more.
 */
import { describe, expect, it } from 'vitest';
import { verifyText } from '../../src/api/verify.js';
import { frontEndsFor } from '../../src/cli/cuda.js';
import { NO_LAUNCH } from '../../src/core/launch.js';
import { z3Wasm } from '../../src/solve/z3.js';
import type { FileResult, KernelResult } from '../../src/verify/result.js';
import { undefinedDiagnostics } from '../../src/report/undefined.js';
import { textReport } from '../../src/report/text.js';
import { reportJson, VerifyReport } from '../../src/report/json.js';
import { sarifLog } from '../../src/report/sarif.js';

async function verifiedFile(text: string): Promise<FileResult> {
  const r = await verifyText('k.cu', text, { launch: NO_LAUNCH, timeoutMs: 20_000, maxRaces: 4, solver: z3Wasm }, await frontEndsFor('k.cu', text, {}));
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.message).join('; '));
  return r;
}

async function verified(text: string): Promise<KernelResult> {
  const r = await verifiedFile(text);
  if (!r.ok) throw new Error('not verified');
  return r.kernels[0]!;
}

/** code, line:col and message of each warning */
const warnings = (k: KernelResult): string[] =>
  undefinedDiagnostics(k).map((d) => {
    const before = k.file.text.slice(0, d.span.start).split('\n');
    return `${d.code} ${before.length}:${before.at(-1)!.length + 1} ${d.message}`;
  });

const OVERFLOW = '__global__ void k(int *a, int n) {\n  int i = (int)threadIdx.x * n;\n  if (n > 0) a[i] = 1;\n}\n';

describe('operations outside the scope that some launch may reach', () => {
  it('warns of a DRF kernel whose signed product may overflow, naming the operation, its line and a launch', async () => {
    const k = await verified(OVERFLOW);
    expect(k.status).toBe('drf');
    const w = warnings(k);
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^W0801 2:11 signed `\*` \(int\) may overflow in kernel k: overflow: .* is outside i32's range .*\(e\.g\. thread \d+ of block \d+, n = -?\d+\)/);
  });

  it('does not warn when the requires exclude every overflow', async () => {
    const k = await verified(OVERFLOW.replace('{\n', '{\n  __requires(n >= 0 && n < 1000);\n'));
    expect(k.status).toBe('drf');
    expect(k.undefinedOperations).toEqual({ reachable: [], undecided: null });
    expect(warnings(k)).toEqual([]);
  });

  it('warns of a division by a parameter that may be 0, and of a shift by a parameter', async () => {
    const k = await verified('__global__ void k(int *a, int d, int s) {\n  int i = (int)threadIdx.x;\n  a[i / d] = 1;\n  a[1024 + (i << s)] = 2;\n}\n');
    const w = warnings(k);
    expect(w).toHaveLength(2);
    expect(w.find((x) => x.includes('`/`'))).toMatch(/^W0801 3:5 `\/` \(int\) may divide by zero or overflow in kernel k: (division by zero|overflow)/);
    expect(w.find((x) => x.includes('`<<`'))).toMatch(/^W0801 4:13 `<<` \(int\) may shift by a count out of range or overflow in kernel k: /);
  });

  it('asks nothing more of a kernel without an operation that may be undefined', async () => {
    const k = await verified('__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n}\n');
    expect(k.undefinedOperations).toBeUndefined();
    expect(warnings(k)).toEqual([]);
  });

  it('carries the warning in the text, JSON and SARIF reports', async () => {
    const f = await verifiedFile(OVERFLOW);
    const text = textReport([f], { colour: false });
    expect(text).toContain('warning[W0801]: signed `*` (int) may overflow in kernel k');
    expect(text).toContain('k.cu:2:11');
    const json = reportJson([f]);
    expect(VerifyReport.is(json)).toBe(true);
    expect(json.kernels[0]!.warnings?.map((w) => [w.code, w.severity, w.line, w.column])).toEqual([['W0801', 'warning', 2, 11]]);
    const sarif = sarifLog([f], { version: 'test' });
    const results = sarif.runs[0]!.results!.filter((r) => r.ruleId === 'faial/undefined-operation');
    expect(results.map((r) => [r.level, r.locations?.[0]?.physicalLocation?.region?.startLine])).toEqual([['warning', 2]]);
  });
});
