/**
 * The differential properties P1–P4 through the CUDA front end: the
 * generated core kernel is printed as CUDA C (cuda-print.ts), the text goes
 * the whole `.cu` way (preprocess, parse, lower: roundtrip.ts's `roundTrip`,
 * which fails when it does not lower to the one kernel), and the verifier is
 * given the lowered kernel, while the interpreter runs the generated one as
 * the reference (harness.ts's {@link Verified}). Sites are compared by line
 * of the CUDA C text: the line each statement of the generated kernel was
 * printed on, and the line each access of the lowered kernel comes from.
 *
 * P1 evaluates the lowered kernel's MAP; for an ill-typed one it is given the
 * values the lowered kernel's own run reads and draws at the launch (its
 * unknown values named by line, as the reference's, so that both draw the
 * same), and a launch where that run draws a value of one of the front end's
 * approximations is not compared, and counted: the interpreter picks one of
 * the behaviours the approximation allows, which says nothing.
 */
import type { CudaSetup } from '../../src/frontend/cuda/lower.js';
import { runKernel } from '../../src/semantics/interpret.js';
import { interpreterReads, interpreterUnknowns } from '../../src/semantics/map-eval.js';
import { fail, launchText, type Loaded, type Subject, type Verified } from './harness.js';
import { loweredLaunch, roundTrip } from './roundtrip.js';

/** The generated kernel with the kernel the front end lowers from its CUDA C text as the verified one, and the subject a failure shows (the core kernel, the CUDA C text, the lowering). */
export interface CudaLoaded {
  readonly loaded: Loaded;
  readonly subject: Subject;
}

/**
 * `opaque`: constants printed so that the front end cannot fold them
 * (`zero_ + c`, cuda-print.ts), so that no code it proves dead hides an
 * access; the solver is much slower on them, so the properties that ask it
 * use folded constants.
 */
export function loadCuda(setup: CudaSetup, original: Loaded, source: string, opaque: boolean): CudaLoaded {
  const rt = roundTrip(setup, original, opaque, source);
  const subject: Subject = { source: rt.subject.source, warpSize: original.warpSize };
  const line = (l: number | null): string => `line ${l ?? 'of the header'}`;
  const verified: Verified = {
    map: rt.lowered.map,
    launch: (l) => loweredLaunch(rt, l),
    referenceSite: (span) => line(rt.printed.lineOf(span)),
    verifiedSite: (span) => line(rt.loweredLine(span)),
    unknownSite: (h) => line(rt.printed.lineOf(h.span)),
    dataAt: (_reference, launch) => {
      let approximated = false;
      const run = runKernel(rt.lowered.kernel, loweredLaunch(rt, launch), {
        maxSteps: 200_000,
        maxReports: 50,
        ...(launch.warpSize === undefined ? {} : { warpSize: launch.warpSize }),
        // the front end binds an unknown value where it is first used: its origin is the call
        unknownSite: (h) => {
          if (h.origin.kind === 'approximation') approximated = true;
          return line(rt.loweredLine(h.origin.span));
        },
      });
      if (approximated) return null;
      if (run.kind !== 'finished') fail(subject, `at ${launchText(launch)} the generated kernel's run finishes, the lowered kernel's ends ${run.kind}`);
      return { reads: interpreterReads(run), unknowns: interpreterUnknowns(run) };
    },
  };
  return { loaded: { ...original, verified }, subject };
}
