/** The exit codes of `faial-ts`, shared by every command. */
import type { FileResult } from '../verify/result.js';

export const EXIT_DRF = 0;
export const EXIT_ALARM = 1;
export const EXIT_BAD_INPUT = 2;
export const EXIT_UNKNOWN = 3;
export const EXIT_VACUOUS = 4;

/** Every exit code `verify` (and `fix`, for the kernels as repaired) returns, as --help lists them; stable: CI jobs read them. */
export const EXIT_CODES_TEXT =
  'Exit codes: 0 every kernel DRF (or racy only by benign races), 1 a race or barrier divergence, 2 bad input or usage (also a file without kernel, or a report that could not be written), 3 no alarm but something not proved, 4 no alarm but some kernel vacuous (no launch satisfies its assumptions). When several apply, the first of 2, 1, 4, 3.';

/**
 * 2 when some input is bad (an alarm elsewhere does not make a broken file
 * verified), else 1 on any race or divergence, else 4 when some kernel's
 * assumptions are contradictory (vacuous), else 3 when something is not
 * proved, else 0.
 */
export function verifyExitCode(files: readonly FileResult[]): number {
  const kernels = files.flatMap((f) => (f.ok ? f.kernels : []));
  if (files.some((f) => !f.ok) || kernels.some((k) => k.status === 'error')) return EXIT_BAD_INPUT;
  if (kernels.some((k) => k.status === 'racy' || k.status === 'divergent')) return EXIT_ALARM;
  if (kernels.some((k) => k.status === 'vacuous')) return EXIT_VACUOUS;
  if (kernels.some((k) => k.status === 'unknown')) return EXIT_UNKNOWN;
  return EXIT_DRF;
}
