import { preprocess, type Location, type Preprocessed, type PreprocessOptions } from '../../../src/frontend/cuda/preprocess/index.js';

export interface TestOptions extends Partial<Omit<PreprocessOptions, 'defines'>> {
  readonly files?: Readonly<Record<string, string>>;
  readonly defines?: readonly (readonly [string, string | null])[];
}

/** Preprocess `text` as `path`, with the other files given by name. */
export function pp(text: string, options: TestOptions = {}, path = 'k.cu'): Preprocessed {
  const files = options.files ?? {};
  return preprocess(
    { path, text },
    {
      defines: new Map(options.defines ?? []),
      undefines: options.undefines ?? [],
      includeDirs: options.includeDirs ?? [],
      readFile: options.readFile ?? ((p) => files[p] ?? null),
    },
  );
}

/** The text without any whitespace: compares token sequences regardless of spacing. */
export function squash(text: string): string {
  return text.replace(/\s+/g, '');
}

/** The non-blank lines of the unit, trimmed. */
export function codeLines(r: Preprocessed): string[] {
  return r.text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
}

/** The unit offset of the `occurrence`-th `needle`. */
export function offsetOf(r: Preprocessed, needle: string, occurrence = 0): number {
  let at = -1;
  for (let k = 0; k <= occurrence; k++) {
    at = r.text.indexOf(needle, at + 1);
    if (at < 0) throw new Error(`'${needle}' (#${occurrence}) not in the unit:\n${r.text}`);
  }
  return at;
}

/** The location of the unit text `needle`. */
export function locateText(r: Preprocessed, needle: string, occurrence = 0): Location {
  const at = offsetOf(r, needle, occurrence);
  return r.locate(at, at + needle.length);
}

export function lineCol(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `${line}:${offset - before.lastIndexOf('\n')}`;
}

/** `path:line:col 'text'` of a location, with ` in A < B` for its expansions (innermost first). */
export function where(r: Preprocessed, loc: Location): string {
  const file = r.files[loc.file]!;
  const where = `${file.path}:${lineCol(file.text, loc.start)} '${file.text.slice(loc.start, loc.end)}'`;
  const uses = loc.expansions.map((u) => `${u.name}@${lineCol(r.files[u.file]!.text, u.start)}`);
  return uses.length === 0 ? where : `${where} in ${uses.join(' < ')}`;
}

/** The text a span of a file covers. */
export function spanText(r: Preprocessed, span: { file: number; start: number; end: number }): string {
  return r.files[span.file]!.text.slice(span.start, span.end);
}

/** Diagnostics as `code path:line:col message`. */
export function diagnosticsOf(r: Preprocessed): string[] {
  return r.diagnostics.map((d) => `${d.code} ${r.files[d.at.file]!.path}:${lineCol(r.files[d.at.file]!.text, d.at.start)} ${d.message}`);
}
