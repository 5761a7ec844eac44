/**
 * The statements and calls of issue 28 §4 that real kernels use: switch,
 * local arrays, the address of a local, memcpy/memset on device memory,
 * curand. Each is shown in the lowered core, the soundness cases by verdict.
 */
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../../src/api/check.js';
import { frontEndsFor } from '../../../src/cli/cuda.js';
import { NO_LAUNCH } from '../../../src/core/launch.js';
import { verifyKernel } from '../../../src/verify/verify.js';
import { z3Wasm } from '../../../src/solve/z3.js';
import { body, rejection } from './lower-helpers.js';

/** The verdict of each kernel of the file, for every launch, with whether its races are all confirmed. */
async function statuses(text: string): Promise<string[]> {
  const checked = checkedKernels('k.cu', text, undefined, undefined, await frontEndsFor('k.cu', text, {}));
  if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
  const out: string[] = checked.rejected.map((r) => `error: ${r.diagnostic.message}`);
  for (const map of checked.kernels) {
    const result = await verifyKernel(map, { launch: NO_LAUNCH, timeoutMs: 60_000, maxRaces: 4, solver: z3Wasm });
    out.push(result.status === 'racy' ? `racy ${result.races.every((r) => r.confidence === 'confirmed') ? 'confirmed' : 'possible'}` : result.status);
  }
  return out;
}

/** The rejection's message and location, on one line. */
const firstLine = async (text: string): Promise<string> => {
  const [message, at] = (await rejection(text)).split('\n');
  return `${at!.trim()} ${message!}`;
};

describe('switch', () => {
  it('each segment runs from the label entered until an exit: fallthrough, break, default', async () => {
    const text = `__global__ void k(int *a, int op) {
  switch (op) {
    case 0:
      a[0] = 1;
    case 1:
      a[1] = 2;
      break;
    default:
      a[2] = 3;
  }
  a[3] = 4;
}
`;
    expect(await body(text)).toBe(
      [
        'if (op == 0) {',
        '  a[0] := 1',
        '};',
        'if (op == 0 || op == 1) {',
        '  a[1] := 2',
        '};',
        'if (!(op == 0 || op == 1)) {',
        '  a[2] := 3',
        '};',
        'a[3] := 4',
      ].join('\n'),
    );
  });

  it('the scrutinee is evaluated once, promoted, and compared with each label converted to its type', async () => {
    const text = `__global__ void k(int *a, unsigned char c) {
  switch (a[threadIdx.x] + c) {
    case 1: a[0] = 1; break;
    case 'b': a[1] = 2; break;
  }
}
`;
    const lowered = await body(text);
    expect(lowered.match(/a_v = a\[/g)).toHaveLength(1);
    expect(lowered).toContain('switch == 98');
  });

  it('a break leaves the switch, not the loop around it: the loop stays exact', async () => {
    const text = `__global__ void k(int *a, int op) {
  for (int i = 0; i < 4; i++) {
    switch (op) { case 0: a[i] = 1; break; default: a[i] = 2; }
    a[i + 4] = 3;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toMatch(/^for i: i32 in 0\.\.4 \{/);
    expect(lowered).not.toContain('approximated');
    expect(lowered).toContain('a[i + 4] := 3');
    expect(lowered).not.toMatch(/if \(.*\) \{\n\s*a\[i \+ 4\]/);
  });

  it('continue and return inside a switch leave the loop iteration and the function', async () => {
    const text = `__global__ void k(int *a, int op) {
  for (int i = 0; i < 4; i++) {
    switch (op) { case 0: continue; case 1: return; }
    a[i] = 3;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toMatch(/if \(!\(.*op == 0.*op == 1.*\)\) \{\n\s*a\[i\] := 3/);
  });

  it('nested switches have their own breaks', async () => {
    const text = `__global__ void k(int *a, int x, int y) {
  switch (x) {
    case 0:
      switch (y) { case 0: a[0] = 1; break; default: a[1] = 1; }
      a[2] = 1;
      break;
    case 1:
      a[3] = 1;
  }
}
`;
    const lowered = await body(text);
    expect(lowered).toContain('a[2] := 1');
    expect(lowered).toMatch(/if \(x == 0\) \{[^]*a\[2\] := 1[^]*\};\nif \(x == 0 \|\| x == 1\) && !\(x == 0\)|if \(.*x == 1.*\) \{\n\s*a\[3\] := 1/);
  });

  it('fallthrough into a neighbour\'s element is a confirmed race; with break, DRF', async () => {
    const racy = `__global__ void k(int *a) {
  unsigned t = threadIdx.x;
  switch (t % 2) {
    case 0: a[t] = 7;
    case 1: a[t | 1] = t;
  }
}
`;
    expect(await statuses(racy)).toEqual(['racy confirmed']);
    expect(await statuses(racy.replace('= 7;', '= 7; break;'))).toEqual(['drf']);
  });

  it('what is not lowered exactly is rejected at its location', async () => {
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { case 0: for (;;) { case 1: a[0] = 1; } } }\n')).toMatch(/k\.cu:1:68 .*E0602.*a case label inside a statement nested in the switch/);
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { a[1] = 2; case 0: a[0] = 1; } }\n')).toMatch(/k\.cu:1:49 .*E0602.*a statement before the first case label/);
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { case 0: continue; } }\n')).toMatch(/E0604.*continue outside a loop/);
    expect(await firstLine('__global__ void k(int *a, int x) { switch (x) { case a[0]: break; } }\n')).toMatch(/E0604.*a case label must be a constant/);
  });
});
