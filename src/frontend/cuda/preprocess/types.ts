/** The preprocessor's public data: what goes in, what comes out. */
import type { DiagnosticCode } from '../../../diagnostics/codes.js';
import type { Severity } from '../../../diagnostics/diagnostic.js';

export interface PreprocessOptions {
  /** -DNAME (null: defined as 1) and -DNAME=VALUE, applied in order after the predefined macros; a key may be `F(x)` */
  readonly defines: ReadonlyMap<string, string | null>;
  /** -UNAME, applied after every define */
  readonly undefines: readonly string[];
  /** -I directories, searched after the including file's directory */
  readonly includeDirs: readonly string[];
  /** `-include` files (absolute paths), read in order as if `#include "…"` stood before the main file's first line */
  readonly preIncludes?: readonly string[];
  /**
   * The text of a file, null when there is none, or why the caller will not
   * read it (its policy: include roots, regular files, size); paths are
   * '/'-separated. No file system here.
   */
  readonly readFile: (path: string) => string | null | FileRefusal;
}

/** Why `readFile` gave no text for a path that may exist; the file's contents are never part of it. */
export type FileRefusal =
  /** the path (after `..` and symbolic links) is in none of the include roots */
  | { readonly refused: 'outsideRoots' }
  | { readonly refused: 'directory' }
  /** a device, a pipe, a socket: reading it may never end */
  | { readonly refused: 'notRegular' }
  | { readonly refused: 'tooLarge'; readonly limitBytes: number };

export interface SourceText {
  readonly path: string;
  readonly text: string;
}

/** Where a macro was used: the name, or the name through its closing parenthesis, as written in a file. */
export interface MacroUse {
  readonly name: string;
  readonly file: number;
  readonly start: number;
  readonly end: number;
}

/** A span of one file: offsets into `files[file].text`. */
export interface FileSpan {
  readonly file: number;
  readonly start: number;
  readonly end: number;
}

export interface Location extends FileSpan {
  /** The macro uses the text was expanded from, innermost first, outermost last; empty for text copied verbatim. */
  readonly expansions: readonly MacroUse[];
  /**
   * Where the text was written when that is elsewhere than the span, in one
   * place: a macro's `#define` body (or the `-D` text). Absent for verbatim text,
   * for text spanning several places, and for tokens made by `#`, `##`,
   * `__LINE__` or `__FILE__`.
   */
  readonly spelling?: FileSpan;
}

export interface PreprocessDiagnostic {
  readonly severity: Severity;
  readonly code: DiagnosticCode;
  readonly message: string;
  readonly at: Location;
  readonly related: readonly { readonly at: Location; readonly message: string }[];
  readonly hints: readonly string[];
}

export interface SystemInclude {
  /** the header name between the angle brackets or the quotes */
  readonly name: string;
  readonly at: Location;
}

export interface Preprocessed {
  /** The expanded translation unit (what the parser reads). */
  readonly text: string;
  /**
   * Every file read, [0] the main file, each once; texts have their byte-order
   * mark removed and line ends normalised to '\n' (lines and columns are those
   * of the file as written). Two pseudo-files hold the predefined macros
   * (`<built-in>`) and the command line's -D/-U (`<command line>`).
   */
  readonly files: readonly SourceText[];
  /** Where the unit's [start, end) came from. */
  locate(start: number, end: number): Location;
  readonly diagnostics: readonly PreprocessDiagnostic[];
  /** `#include <…>` not found in any -I directory, and `#include "…"` of a known system header not found in the quoted search, hence not read. */
  readonly systemIncludes: readonly SystemInclude[];
}
