/**
 * The C preprocessor of the CUDA front end: `preprocess(main, options)` gives
 * the expanded translation unit, the files it read, diagnostics, and
 * `locate`, which maps any span of the unit back to the files and the macro
 * uses it came from. Pure: files come from `options.readFile`.
 */
export { preprocess, PREDEFINED_MACROS, MAX_INCLUDE_DEPTH } from './preprocess.js';
export { PREPROCESS_CODES } from './diagnostics.js';
export { coreDiagnostic, coreSources, locatedOf, type CoreSources } from './origin.js';
export type {
  FileSpan,
  Location,
  MacroUse,
  Preprocessed,
  PreprocessDiagnostic,
  PreprocessOptions,
  PreprocessSeverity,
  SourceText,
  SystemInclude,
} from './types.js';
