/**
 * The round trip through the CUDA front end: random core kernels printed as
 * CUDA C (cuda-print.ts) and lowered back. Every access and barrier of the
 * kernel must come back from the line it was printed on, as the same access
 * (array, read or write) under as many loops, and nothing else may appear:
 * nothing dropped, nothing invented, nothing moved. An access may come back
 * more than once, where the front end splits a loop into an exact version
 * and an approximated one under a condition only the launch decides.
 * Constants are printed so that the front end cannot fold them (the kernel
 * requires a `zero` parameter to be 0): no code is dead, so every access must
 * come back.
 *
 * This is the part that runs today, on the BabyCUDA generator's kernels (its
 * naturals printed as `unsigned long long`). The full property — the
 * same accesses per phase in the interpreter and the same verdicts, on
 * kernels with machine integers — needs the interpreter and the verifier to
 * run machine integers (the typed core): the lowered kernels are typed even
 * when the printed one was not.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { kernelArbitrary } from './generator.js';
import { load } from './harness.js';
import { accessText, printedKernel } from './cuda-print.js';
import { cudaGrammar } from '../../src/cli/cuda.js';
import { lowerCuda, type CudaSetup } from '../../src/frontend/cuda/lower.js';
import { located, positionAt, type SourceFile, type Span } from '../../src/core/source.js';
import { inferMap } from '../../src/map/infer.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { renderedDiagnostic } from '../../src/diagnostics/render.js';

let setup: CudaSetup;
beforeAll(async () => {
  setup = { grammar: await cudaGrammar(), defines: new Map(), undefines: [], includeDirs: [], readFile: () => null };
});

const lineIn = (unit: SourceFile, span: Span): number => {
  const at = located(unit, span);
  return positionAt(at.file, at.span.start).line;
};

/** `line: what` for each event, each distinct one once, sorted. */
const byLine = (events: readonly { line: number; what: string }[]): string[] => [...new Set(events.map((e) => `${e.line}: ${e.what}`))].sort();

describe('round trip: core → CUDA C → core', () => {
  it('gives back every access and barrier of random kernels, from its line, as the same access under as many loops', () => {
    fc.assert(
      fc.property(kernelArbitrary({ dataFlow: true, assumes: 'any', nonUniformSync: true }), (g) => {
        const { kernel } = load(g);
        const printed = printedKernel(kernel, { opaqueConstants: true });
        const unit = lowerCuda(setup, 'roundtrip.cu', printed.text);
        const problems = [...unit.errors, ...unit.rejected.map((r) => r.diagnostic), ...wellFormednessErrors(unit.program)];
        expect(problems.map((d) => renderedDiagnostic(d, false)), printed.text).toEqual([]);
        expect(unit.program.kernels.map((k) => k.name.text)).toEqual([kernel.name.text]);
        const back = inferMap(unit.program.file, unit.program.kernels[0]!);
        const events = [
          ...back.accesses.map((a) => ({ line: lineIn(back.file, a.span), what: accessText(a.array, a.mode, a.loops.length) })),
          ...back.syncs.map((s) => ({ line: lineIn(back.file, s.span), what: 'barrier' })),
        ];
        expect(byLine(events), printed.text).toEqual(byLine(printed.events));
      }),
      { seed: 20260421, numRuns: 300 },
    );
  });
});
