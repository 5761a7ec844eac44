/**
 * The preprocessor's diagnostic codes, in one table: E05xx errors, W05xx
 * warnings and notes. The preprocessor never throws on bad input; every
 * problem is one of these, located in the file as written.
 */
import type { Location, PreprocessDiagnostic, PreprocessSeverity } from './types.js';

export const PREPROCESS_CODES = {
  unterminatedComment: { code: 'E0501', severity: 'error', what: 'a /* comment with no */' },
  badDirective: { code: 'E0502', severity: 'error', what: 'an unknown or unsupported directive' },
  badDefine: { code: 'E0503', severity: 'error', what: 'a malformed #define or #undef' },
  unterminatedCall: { code: 'E0504', severity: 'error', what: 'a macro call whose argument list does not end' },
  wrongArgumentCount: { code: 'E0505', severity: 'error', what: 'a macro called with the wrong number of arguments' },
  badCondition: { code: 'E0506', severity: 'error', what: 'a malformed #if/#elif expression' },
  divisionByZero: { code: 'E0507', severity: 'error', what: 'division by zero in #if/#elif' },
  unbalancedConditional: { code: 'E0508', severity: 'error', what: '#elif/#else/#endif without #if, or after #else' },
  unterminatedConditional: { code: 'E0509', severity: 'error', what: '#if/#ifdef/#ifndef without #endif in its file' },
  includeNotFound: { code: 'E0510', severity: 'error', what: 'an #include "…" not found' },
  includeNesting: { code: 'E0511', severity: 'error', what: 'an include cycle, or includes nested more than 200 deep' },
  errorDirective: { code: 'E0512', severity: 'error', what: '#error' },
  badInclude: { code: 'E0513', severity: 'error', what: 'an #include without "FILE" or <FILE>, or inside macro arguments' },
  badPaste: { code: 'E0514', severity: 'error', what: '## that does not make one token' },
  badStringize: { code: 'E0515', severity: 'error', what: '# not followed by a macro parameter' },
  unreadable: { code: 'E0516', severity: 'error', what: 'a file that could not be read' },
  tooDeep: { code: 'E0517', severity: 'error', what: 'macro arguments or an #if expression nested too deeply' },
  warningDirective: { code: 'W0501', severity: 'warning', what: '#warning' },
  redefined: { code: 'W0502', severity: 'warning', what: 'a macro redefined differently' },
  extraTokens: { code: 'W0503', severity: 'warning', what: 'extra tokens after a directive' },
  overflow: { code: 'W0504', severity: 'warning', what: 'integer overflow in #if/#elif (the value wraps)' },
  lineIgnored: { code: 'W0505', severity: 'note', what: '#line ignored: positions are those of the files as written' },
  unterminatedLiteral: { code: 'W0506', severity: 'warning', what: 'a character or string literal with no closing quote' },
  largeConstant: { code: 'W0507', severity: 'warning', what: 'a decimal constant too large for a signed 64-bit value, taken as unsigned' },
  variadicMisuse: { code: 'W0508', severity: 'warning', what: '__VA_ARGS__ outside a variadic macro' },
} as const satisfies Record<string, { code: string; severity: PreprocessSeverity; what: string }>;

export type PreprocessProblem = keyof typeof PREPROCESS_CODES;

export interface DiagnosticExtras {
  readonly related?: readonly { readonly at: Location; readonly message: string }[];
  readonly hints?: readonly string[];
}

export function diagnostic(problem: PreprocessProblem, at: Location, message: string, extras: DiagnosticExtras = {}): PreprocessDiagnostic {
  const { code, severity } = PREPROCESS_CODES[problem];
  return { severity, code, message, at, related: extras.related ?? [], hints: extras.hints ?? [] };
}

/** Where diagnostics go while preprocessing. */
export type Report = (problem: PreprocessProblem, at: Location, message: string, extras?: DiagnosticExtras) => void;
