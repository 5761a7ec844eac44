/**
 * Every diagnostic code of faial-ts, in one table: its severity and what it
 * is about. A stage names its problem (`includeNotFound`, or the code itself
 * where it reads better) and takes code and severity from here, so no code
 * is defined twice, and `Diagnostic.code` is always one of these.
 *
 *   E00xx        BabyCUDA syntax
 *   E01xx        names and well-formedness of the core program
 *   E05xx, W05xx the C preprocessor (W0505 is a note)
 *   E06xx, N06xx the CUDA front end: a kernel it rejects, what it read and did not model
 *   E07xx        `lower --sexp`: a kernel outside the Coq model's fragment
 *   W08xx, N08xx the verifier: what a verdict leaves outside its scope
 *   E09xx        faial-ts itself (a bug, or a solver that misbehaved)
 */
import type { Severity } from './diagnostic.js';

interface CodeInfo {
  readonly code: string;
  readonly severity: Severity;
  readonly what: string;
}

export const CODES = {
  bcuSyntax: { code: 'E0001', severity: 'error', what: 'a BabyCUDA syntax error' },
  controlCharacter: { code: 'E0002', severity: 'error', what: 'a control character outside a comment' },
  bcuUnterminatedComment: { code: 'E0003', severity: 'error', what: 'a /* comment with no */ in a BabyCUDA file' },
  nestedTooDeep: { code: 'E0004', severity: 'error', what: 'brackets or statements nested deeper than the limit' },
  tooLarge: { code: 'E0005', severity: 'error', what: "a kernel whose expressions, with let's names replaced by their values, pass the size limit" },
  tooMuchCode: { code: 'E0006', severity: 'error', what: 'more code in one file than the limit' },

  duplicateKernel: { code: 'E0101', severity: 'error', what: 'a kernel defined twice' },
  duplicateBinder: { code: 'E0102', severity: 'error', what: 'a name bound twice in one kernel' },
  unboundName: { code: 'E0103', severity: 'error', what: 'a name that is not bound' },
  notBeforeLaunch: { code: 'E0104', severity: 'error', what: 'a kernel header that mentions what is not known before the launch' },
  arrayAsValue: { code: 'E0105', severity: 'error', what: 'an array used as a value' },
  notAnArray: { code: 'E0106', severity: 'error', what: 'a value indexed as an array' },
  wrongDimensions: { code: 'E0107', severity: 'error', what: 'an array used with another number of indices than elsewhere' },
  badStep: { code: 'E0108', severity: 'error', what: 'a loop step the spec does not allow' },
  coreTypeError: { code: 'E0109', severity: 'error', what: "a core program that breaks the type rules (a front end's bug)" },

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
  outsideRoots: { code: 'E0518', severity: 'error', what: 'an #include outside the include roots (the input\'s directory and the -I directories)' },
  expansionTooLarge: { code: 'E0519', severity: 'error', what: 'macro expansion beyond its bound on tokens produced or nesting' },
  warningDirective: { code: 'W0501', severity: 'warning', what: '#warning' },
  redefined: { code: 'W0502', severity: 'warning', what: 'a macro redefined differently' },
  extraTokens: { code: 'W0503', severity: 'warning', what: 'extra tokens after a directive' },
  overflow: { code: 'W0504', severity: 'warning', what: 'integer overflow in #if/#elif (the value wraps)' },
  lineIgnored: { code: 'W0505', severity: 'note', what: '#line ignored: positions are those of the files as written' },
  unterminatedLiteral: { code: 'W0506', severity: 'warning', what: 'a character or string literal with no closing quote' },
  largeConstant: { code: 'W0507', severity: 'warning', what: 'a decimal constant too large for a signed 64-bit value, taken as unsigned' },
  variadicMisuse: { code: 'W0508', severity: 'warning', what: '__VA_ARGS__ outside a variadic macro' },
  unknownHeader: { code: 'W0509', severity: 'warning', what: 'a <…> header neither found nor known to the front end: not read, its macros unknown' },

  syntax: { code: 'E0601', severity: 'error', what: 'a syntax error in a kernel or a function it calls' },
  unsupported: { code: 'E0602', severity: 'error', what: 'a construct faial-ts does not analyse (the reject list)' },
  unknownName: { code: 'E0603', severity: 'error', what: 'a name that is not declared' },
  misuse: { code: 'E0604', severity: 'error', what: 'a value used in a way C does not allow or faial-ts cannot follow' },
  unplaced: { code: 'E0605', severity: 'error', what: 'a memory access faial-ts cannot place in an array' },
  noKernel: { code: 'E0606', severity: 'error', what: 'a file without __global__ kernel' },
  badTestHeader: { code: 'E0610', severity: 'error', what: 'a GPUVerify test header whose flags do not read' },
  ignoredAnnotation: { code: 'N0601', severity: 'note', what: 'a GPUVerify annotation read and ignored' },
  notChecked: { code: 'N0602', severity: 'note', what: 'an assertion that is not checked' },
  noEffect: { code: 'N0603', severity: 'note', what: 'a call with no effect on data races in this model' },
  symbolicTemplate: { code: 'N0604', severity: 'note', what: 'a template parameter verified for all values' },
  launchFromHeader: { code: 'N0605', severity: 'note', what: 'a launch taken from the GPUVerify test header' },
  unknownCall: { code: 'N0606', severity: 'note', what: 'a call of a function without a body, assumed to touch no array and not to synchronise' },
  launchFromHost: { code: 'N0620', severity: 'note', what: "a kernel verified at the launch sizes of the file's host code" },
  functionTable: { code: 'N0621', severity: 'note', what: 'a call through a table of function pointers: its initialiser assumed, or any of its functions called' },
  possibleAlias: { code: 'N0630', severity: 'note', what: 'a pointer read from memory, which may point into any array of its element type' },
  byteRange: { code: 'N0640', severity: 'note', what: 'a memcpy/memset whose byte count is not known to be a multiple of the element size: every element it touches is counted' },

  outsideModel: { code: 'E0701', severity: 'error', what: "a construct outside the Coq model's fragment, which `lower --sexp` does not print" },

  undefinedOperation: {
    code: 'W0801',
    severity: 'warning',
    what: 'an operation outside the scope of a proof (signed overflow, division by zero, a shift out of range, an unsigned loop counter that wraps) that some launch the kernel allows may reach',
  },
  undefinedOperationUndecided: { code: 'N0802', severity: 'note', what: "whether the kernel's operations outside the scope of a proof are reachable was not decided" },

  internal: { code: 'E0900', severity: 'error', what: 'a bug in faial-ts, or a solver that misbehaved' },
} as const satisfies Record<string, CodeInfo>;

export type Problem = keyof typeof CODES;
export type DiagnosticCode = (typeof CODES)[Problem]['code'];

/** The problems whose code starts with `prefix` (a stage's range, e.g. `E05` and `W05`). */
export type ProblemIn<Prefix extends string> = { [P in Problem]: (typeof CODES)[P]['code'] extends `${Prefix}${string}` ? P : never }[Problem];

/** The errors, by code: what `error(code, …)` accepts. */
export type ErrorCode = { [P in Problem]: (typeof CODES)[P]['severity'] extends 'error' ? (typeof CODES)[P]['code'] : never }[Problem];
