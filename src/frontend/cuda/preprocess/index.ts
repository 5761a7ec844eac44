/**
 * The C preprocessor of the CUDA front end: `preprocess(main, options)` gives
 * the expanded translation unit, the files it read, diagnostics, and
 * `locate`, which maps any span of the unit back to the files and the macro
 * uses it came from. Pure: files come from `options.readFile`.
 */
export { preprocess, PREDEFINED_MACROS, MAX_INCLUDE_DEPTH, MAX_EXPANDED_TOKENS, MAX_INCLUDED_CHARS } from './preprocess.js';
export { coreDiagnostic, coreSources, locatedOf, type CoreSources } from './origin.js';
export { isKnownSystemHeader } from './system-headers.js';
export type {
  FileRefusal,
  FileSpan,
  Location,
  MacroUse,
  Preprocessed,
  PreprocessDiagnostic,
  PreprocessOptions,
  SourceText,
  SystemInclude,
} from './types.js';
