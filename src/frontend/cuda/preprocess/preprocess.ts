/**
 * The preprocessor's driver: files, directives and conditional groups
 * (C11 6.10), feeding macro expansion and writing the unit with its map.
 *
 * Directive lines and skipped groups are output as spaces with their newlines
 * kept, and a call spanning lines is followed by the newlines it replaced, so
 * without includes line N of the unit is line N of the main file. An included
 * file's text goes where its #include was.
 */
import { diagnostic, type DiagnosticExtras, type PreprocessProblem, type Report } from './diagnostics.js';
import { evaluateCondition } from './expr.js';
import { countNewlines, Expander, expandList, isDefined, spelled, type ExpandEnv, type TokenSource } from './expand.js';
import { Lexer, lexedFile, normaliseText, type LexedFile } from './lexer.js';
import { builtinMacro, macroName, parseDefine, sameDefinition, type Macro } from './macros.js';
import { dirname, joinPath, normalisePath } from './paths.js';
import { OutputBuilder, tokenLocation } from './sourcemap.js';
import { isEnd, isHash, isPunct, lexedTok, syntheticTok, type Tok } from './tokens.js';
import { isKnownSystemHeader } from './system-headers.js';
import type { FileRefusal, Location, PreprocessDiagnostic, Preprocessed, PreprocessOptions, SourceText, SystemInclude } from './types.js';

/**
 * Macros defined before the command line's: nvcc compiling device code for
 * compute capability 8.0 in C++17 (we analyse device code, so the
 * `__CUDA_ARCH__` branches are the ones taken), plus the version macros of
 * CUDA 12.0 that headers test. `-U` removes any of them.
 */
export const PREDEFINED_MACROS: readonly (readonly [string, string])[] = [
  ['__CUDACC__', '1'],
  ['__NVCC__', '1'],
  ['__CUDA_ARCH__', '800'],
  ['__CUDACC_VER_MAJOR__', '12'],
  ['__CUDACC_VER_MINOR__', '0'],
  ['__cplusplus', '201703L'],
];

export const MAX_INCLUDE_DEPTH = 200;

/**
 * Tokens macro expansion may produce in one unit, counting every
 * replacement (also those rescanned into others): exponential `#define`
 * chains otherwise run for minutes and take gigabytes. Real units stay far
 * below (the largest of the 90 .cu files in examples/ and test/ produces 178).
 */
export const MAX_EXPANDED_TOKENS = 500_000;

/** Characters of included text in one unit, counting a header each time it is read: unguarded headers including each other twice grow exponentially. */
export const MAX_INCLUDED_CHARS = 8 * 1024 * 1024;

const BUILT_IN_FILE = 1;
const COMMAND_LINE_FILE = 2;

interface Conditional {
  /** the `if`, `ifdef`… name of the directive that opened it */
  readonly opener: Location;
  readonly parentActive: boolean;
  active: boolean;
  /** a group was taken (or none may be, its parent being skipped) */
  taken: boolean;
  elseAt: Location | null;
  /** opened by the file's include guard */
  readonly guard: boolean;
}

/** Whether the whole file is `#ifndef X` … `#endif`, learnt as it is read. */
type Guard =
  | { readonly state: 'start' }
  | { readonly state: 'open'; readonly macro: string }
  | { readonly state: 'closed'; readonly macro: string }
  | { readonly state: 'none' };

interface Frame {
  readonly file: number;
  readonly lexer: Lexer;
  readonly conds: Conditional[];
  atLineStart: boolean;
  guard: Guard;
  /** the newline of the #include that opened this file: output after the file */
  readonly after: Tok | null;
}

type Loaded = { readonly file: number } | { readonly missing: true } | { readonly failure: string } | { readonly refusal: FileRefusal };

/** The outcome of an include's search: the first candidate that is not missing decides. */
type Resolved =
  | { readonly kind: 'found'; readonly file: number }
  | { readonly kind: 'missing'; readonly searched: readonly string[] }
  | { readonly kind: 'failure'; readonly message: string }
  | { readonly kind: 'refused'; readonly path: string; readonly refusal: FileRefusal };

class Driver implements TokenSource, ExpandEnv {
  readonly files: SourceText[] = [];
  private readonly lexed: LexedFile[] = [];
  private readonly lineStarts: (number[] | undefined)[] = [];
  private readonly byPath = new Map<string, Loaded>();
  readonly macros = new Map<string, Macro>();
  readonly diagnostics: PreprocessDiagnostic[] = [];
  readonly systemIncludes: SystemInclude[] = [];
  private readonly once = new Set<number>();
  private readonly guards = new Map<number, string>();
  private readonly frames: Frame[] = [];
  private readonly queue: Tok[] = [];
  private readonly pushedBack: Tok[] = [];
  private finalEof: Tok | null = null;
  expander: Expander | null = null;
  private expandedTokens = 0;
  private includedChars = 0;

  constructor(private readonly options: PreprocessOptions) {}

  readonly report: Report = (problem: PreprocessProblem, at: Location, message: string, extras?: DiagnosticExtras) => {
    this.diagnostics.push(diagnostic(problem, at, message, extras));
  };

  addFile(path: string, text: string): number {
    const id = this.files.length;
    const normal = normaliseText(text);
    this.files.push({ path, text: normal });
    this.lexed.push(lexedFile(id, normal));
    return id;
  }

  textOf(file: number): string {
    return this.files[file]?.text ?? '';
  }

  pathOf(file: number): string {
    return this.files[file]?.path ?? '';
  }

  lineOf(file: number, offset: number): number {
    let starts = this.lineStarts[file];
    if (starts === undefined) {
      starts = [0];
      const text = this.textOf(file);
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts[file] = starts;
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Start reading a file (the main file or an included one). */
  enter(file: number, after: Tok | null): void {
    const lexer = new Lexer(this.lexed[file]!, (start, end) =>
      this.report('unterminatedComment', { file, start, end: Math.min(end, start + 2), expansions: [] }, 'unterminated /* comment'),
    );
    this.frames.push({ file, lexer, conds: [], atLineStart: true, guard: { state: 'start' }, after });
  }

  /** Reset after a pseudo-file, so that the main file can be read. */
  restart(): void {
    this.finalEof = null;
    this.queue.length = 0;
  }

  next(): Tok {
    const back = this.pushedBack.pop();
    if (back !== undefined) return back;
    for (;;) {
      const queued = this.queue.shift();
      if (queued !== undefined) return queued;
      const frame = this.frames[this.frames.length - 1];
      if (frame === undefined) return this.finalEof!;
      const t = frame.lexer.next();
      if (t.kind === 'eof') {
        this.endOfFile(frame, t);
        continue;
      }
      if (frame.atLineStart && isHash(t)) {
        this.directive(frame, t);
        continue;
      }
      if (this.skipping(frame)) {
        this.skipLine(frame, t);
        continue;
      }
      frame.atLineStart = t.kind === 'newline';
      if (t.kind !== 'newline') {
        if (frame.guard.state === 'start' || frame.guard.state === 'closed') frame.guard = { state: 'none' };
        if (t.kind === 'other' && (t.text.includes('"') || t.text.includes("'"))) {
          this.report('unterminatedLiteral', tokenLocation(t), `missing terminating ${t.text.includes('"') ? '"' : "'"} character`);
        }
      }
      return t;
    }
  }

  unread(t: Tok): void {
    this.pushedBack.push(t);
  }

  private skipping(frame: Frame): boolean {
    const top = frame.conds[frame.conds.length - 1];
    return top !== undefined && !top.active;
  }

  private blank(file: number, start: number, end: number): Tok {
    return lexedTok('blank', '', file, start, end, start, false);
  }

  /** A skipped line, from its first token: output as blank. */
  private skipLine(frame: Frame, first: Tok): void {
    let t = first;
    while (t.kind !== 'newline' && t.kind !== 'eof') t = frame.lexer.next();
    this.queue.push(this.blank(frame.file, first.gapStart, t.kind === 'newline' ? t.end : t.start));
    frame.atLineStart = true;
  }

  private endOfFile(frame: Frame, eof: Tok): void {
    for (const c of frame.conds) {
      this.report('unterminatedConditional', c.opener, `unterminated conditional directive: no #endif in this file`);
    }
    if (frame.guard.state === 'closed') this.guards.set(frame.file, frame.guard.macro);
    this.frames.pop();
    if (this.frames.length === 0) {
      this.finalEof = eof;
      this.queue.push(eof);
      return;
    }
    this.queue.push({ ...eof, kind: 'end' });
    if (frame.after !== null) this.queue.push(frame.after);
  }

  // ---- directives -------------------------------------------------------

  private directive(frame: Frame, hash: Tok): void {
    const name = frame.lexer.next();
    const rest: Tok[] = [];
    let end = name;
    while (end.kind !== 'newline' && end.kind !== 'eof') {
      end = frame.lexer.next();
      if (end.kind !== 'newline' && end.kind !== 'eof') rest.push(end);
    }
    frame.atLineStart = true;
    const lineEnd = end.kind === 'newline' ? end.end : end.start;
    const at: Location = { file: frame.file, start: hash.start, end: name.kind === 'newline' || name.kind === 'eof' ? hash.end : name.end, expansions: [] };
    const endOfList = syntheticTok('eof', '', { file: frame.file, start: end.start, end: end.start }, null, false);
    const kind = name.kind === 'ident' ? name.text : name.kind === 'number' ? '#line' : name.kind === 'newline' || name.kind === 'eof' ? '' : '?';
    const active = !this.skipping(frame);
    if (frame.guard.state !== 'open' && !(frame.guard.state === 'start' && (kind === 'ifndef' || kind === 'if'))) frame.guard = { state: 'none' };

    if (kind === 'include' && active) {
      const included = this.include(frame, at, rest, endOfList);
      if (included !== null) {
        // the directive's text, the file, then the directive's newline
        this.queue.push(this.blank(frame.file, hash.gapStart, end.start));
        this.enter(included, end.kind === 'newline' ? this.blank(frame.file, end.start, end.end) : null);
        return;
      }
    } else if (kind === 'if' || kind === 'ifdef' || kind === 'ifndef' || kind === 'elif' || kind === 'else' || kind === 'endif') {
      this.conditional(frame, kind, name, at, rest, endOfList);
    } else if (active) {
      this.otherDirective(frame, kind, name, at, rest);
    }
    this.queue.push(this.blank(frame.file, hash.gapStart, lineEnd));
  }

  private extraTokens(rest: readonly Tok[], from: number, directive: string): void {
    const extra = rest[from];
    if (extra === undefined) return;
    const last = rest[rest.length - 1]!;
    this.report('extraTokens', { file: extra.file, start: extra.start, end: last.end, expansions: [] }, `extra tokens at the end of #${directive}`, {
      hints: ['they are ignored; write a comment as /* … */ or // …'],
    });
  }

  private otherDirective(frame: Frame, kind: string, name: Tok, at: Location, rest: readonly Tok[]): void {
    const lineText = (): string => spelled(rest);
    switch (kind) {
      case '':
        return; // the null directive
      case 'define': {
        const m = parseDefine(rest, name, this.report);
        if (m === null) return;
        const previous = this.macros.get(m.name);
        if (previous !== undefined && (previous.builtin !== null || !sameDefinition(previous, m))) {
          this.report('redefined', tokenLocation(rest[0]!), `'${m.name}' redefined`, {
            related: previous.defined === null ? [] : [{ at: tokenLocation(previous.defined), message: 'the previous definition' }],
          });
        }
        this.macros.set(m.name, m);
        return;
      }
      case 'undef': {
        const n = macroName(rest[0], name, this.report);
        if (n === null) return;
        this.extraTokens(rest, 1, 'undef');
        this.macros.delete(n.text);
        return;
      }
      case 'include':
        return; // reached only when skipping
      case 'error':
        this.report('errorDirective', { ...at, end: rest[rest.length - 1]?.end ?? at.end }, `#error ${lineText()}`.trimEnd());
        return;
      case 'warning':
        this.report('warningDirective', { ...at, end: rest[rest.length - 1]?.end ?? at.end }, `#warning ${lineText()}`.trimEnd());
        return;
      case 'pragma':
        if (rest[0]?.kind === 'ident' && rest[0].text === 'once') this.once.add(frame.file);
        return;
      case 'line':
      case '#line':
        this.report('lineIgnored', at, '#line is ignored: positions are reported in the files as written');
        return;
      case 'ident':
      case 'sccs':
        return;
      case 'include_next':
      case 'import':
        this.report('badDirective', at, `#${kind} is not supported`, { hints: ['use #include'] });
        return;
      default:
        this.report('badDirective', at, kind === '?' ? `invalid preprocessing directive '#${name.text}'` : `unknown preprocessing directive '#${kind}'`);
    }
  }

  private conditional(frame: Frame, kind: 'if' | 'ifdef' | 'ifndef' | 'elif' | 'else' | 'endif', name: Tok, at: Location, rest: readonly Tok[], endOfList: Tok): void {
    const conds = frame.conds;
    const top = conds[conds.length - 1];
    switch (kind) {
      case 'if':
      case 'ifdef':
      case 'ifndef': {
        const parentActive = !this.skipping(frame);
        const guardMacro = frame.guard.state === 'start' && conds.length === 0 ? guardOf(kind, rest) : null;
        if (frame.guard.state === 'start') frame.guard = guardMacro === null ? { state: 'none' } : { state: 'open', macro: guardMacro };
        const value = parentActive && this.condition(kind, name, rest, endOfList);
        conds.push({ opener: at, parentActive, active: value, taken: !parentActive || value, elseAt: null, guard: guardMacro !== null });
        return;
      }
      case 'elif':
      case 'else': {
        if (top === undefined) {
          this.report('unbalancedConditional', at, `#${kind} without #if`);
          return;
        }
        if (top.guard) frame.guard = { state: 'none' };
        if (top.elseAt !== null) {
          this.report('unbalancedConditional', at, `#${kind} after #else`, { related: [{ at: top.elseAt, message: 'the #else' }] });
          top.active = false;
          return;
        }
        if (kind === 'else') {
          if (top.parentActive) this.extraTokens(rest, 0, 'else');
          top.elseAt = at;
          top.active = top.parentActive && !top.taken;
          top.taken = true;
          return;
        }
        top.active = top.parentActive && !top.taken && this.condition('elif', name, rest, endOfList);
        top.taken ||= top.active;
        return;
      }
      case 'endif': {
        if (top === undefined) {
          this.report('unbalancedConditional', at, '#endif without #if');
          return;
        }
        if (top.parentActive) this.extraTokens(rest, 0, 'endif');
        conds.pop();
        if (top.guard && frame.guard.state === 'open') frame.guard = { state: 'closed', macro: frame.guard.macro };
        return;
      }
    }
  }

  /** The truth of an #if/#elif/#ifdef/#ifndef; false after an error (reported). */
  private condition(kind: 'if' | 'ifdef' | 'ifndef' | 'elif', name: Tok, rest: readonly Tok[], endOfList: Tok): boolean {
    if (kind === 'ifdef' || kind === 'ifndef') {
      const n = macroName(rest[0], name, this.report);
      if (n === null) return false;
      this.extraTokens(rest, 1, kind);
      return isDefined(this.macros, n.text) === (kind === 'ifdef');
    }
    const expanded = expandList(rest, endOfList, this, true);
    if (expanded.failed) return false;
    const value = evaluateCondition(expanded.tokens, this.report, name);
    return value !== null && value.value !== 0n;
  }

  // ---- includes ---------------------------------------------------------

  /** The file an include names, searched as #include would; `from` is the including file. */
  private resolve(name: string, angled: boolean, from: number): Resolved {
    const dirs = angled ? this.options.includeDirs : [dirname(this.pathOf(from)), ...this.options.includeDirs];
    const candidates = name.startsWith('/') ? [normalisePath(name)] : dirs.map((d) => joinPath(d, name));
    for (const path of candidates) {
      const loaded = this.load(path);
      if ('file' in loaded) return { kind: 'found', file: loaded.file };
      if ('failure' in loaded) return { kind: 'failure', message: loaded.failure };
      if ('refusal' in loaded) return { kind: 'refused', path, refusal: loaded.refusal };
    }
    return { kind: 'missing', searched: candidates };
  }

  private load(path: string): Loaded {
    let loaded = this.byPath.get(path);
    if (loaded === undefined) {
      try {
        const text = this.options.readFile(path);
        loaded = text === null ? { missing: true } : typeof text === 'string' ? { file: this.addFile(path, text) } : { refusal: text };
      } catch (e) {
        loaded = { failure: e instanceof Error ? e.message : String(e) };
      }
      this.byPath.set(path, loaded);
    }
    return loaded;
  }

  /** Name the main file, so an include of it is known as the same file. */
  knowPath(path: string, file: number): void {
    this.byPath.set(normalisePath(path), { file });
  }

  spend(tokens: number, macro: string, at: Tok, outermost: string | null): boolean {
    if (this.expandedTokens > MAX_EXPANDED_TOKENS) return false;
    this.expandedTokens += tokens;
    if (this.expandedTokens <= MAX_EXPANDED_TOKENS) return true;
    const within = outermost === null || outermost === macro ? '' : ` within the expansion of '${outermost}'`;
    this.report('expansionTooLarge', tokenLocation(at), `expanding '${macro}'${within} passes the bound of ${MAX_EXPANDED_TOKENS} tokens produced by macros in this file: expansion stops here`, {
      hints: ['a macro whose body uses another twice, nested, doubles at each level; the file is not analysed'],
    });
    return false;
  }

  hasInclude(name: string, angled: boolean, at: Tok): boolean {
    return name !== '' && this.resolve(name, angled, at.file).kind === 'found';
  }

  /** The file an #include enters, or null: reported, skipped (guard, #pragma once), or a system header. */
  private include(frame: Frame, at: Location, rest: readonly Tok[], endOfList: Tok): number | null {
    if ((this.expander?.collectingArguments ?? 0) > 0) {
      this.report('badInclude', at, '#include inside the arguments of a macro call', { hints: ['move the #include out of the call'] });
      return null;
    }
    const header = headerOf(rest) ?? headerOf(expandList(rest, endOfList, this, false).tokens);
    if (header === null) {
      this.report('badInclude', rest[0] === undefined ? at : tokenLocation(rest[0]), '#include expects "FILE" or <FILE>');
      return null;
    }
    if (header.extra !== null) this.extraTokens(header.extra, 0, 'include');
    const nameAt: Location = rest[0] === undefined ? at : { file: frame.file, start: rest[0].start, end: header.end ?? rest[rest.length - 1]!.end, expansions: [] };
    const directiveAt: Location = { ...at, end: rest[rest.length - 1]?.end ?? at.end };
    if (header.name === '') {
      this.report('badInclude', nameAt, 'empty file name in #include');
      return null;
    }
    const resolved = this.resolve(header.name, header.angled, frame.file);
    if (resolved.kind === 'failure') {
      this.report('unreadable', nameAt, `cannot read '${header.name}': ${resolved.message}`);
      return null;
    }
    if (resolved.kind === 'refused') {
      this.refused(header.name, resolved.path, resolved.refusal, nameAt);
      return null;
    }
    if (resolved.kind === 'missing') {
      this.notFound(header.name, header.angled, resolved.searched, nameAt, directiveAt);
      return null;
    }
    const found = resolved.file;
    if (this.once.has(found)) return null;
    const guard = this.guards.get(found);
    if (guard !== undefined && this.macros.has(guard)) return null;
    const open = this.frames.find((f) => f.file === found);
    if (open !== undefined && !(open.guard.state === 'open' && this.macros.has(open.guard.macro))) {
      const cycle = this.frames.slice(this.frames.indexOf(open)).map((f) => this.pathOf(f.file));
      this.report('includeNesting', nameAt, `#include cycle: ${[...cycle, this.pathOf(found)].join(' → ')}`, {
        hints: ['protect the header with an include guard or #pragma once'],
      });
      return null;
    }
    if (this.frames.length > MAX_INCLUDE_DEPTH) {
      this.report('includeNesting', nameAt, `#include nested more than ${MAX_INCLUDE_DEPTH} levels deep`);
      return null;
    }
    if (this.includedChars > MAX_INCLUDED_CHARS) return null;
    this.includedChars += this.textOf(found).length;
    if (this.includedChars > MAX_INCLUDED_CHARS) {
      this.report('expansionTooLarge', nameAt, `including '${header.name}' passes the bound of ${MAX_INCLUDED_CHARS / (1024 * 1024)} MiB of included text in this file: no more files are included`, {
        hints: ['a header without an include guard or #pragma once, included twice by headers included twice, doubles at each level'],
      });
      return null;
    }
    return found;
  }

  /**
   * An include found nowhere: a system header (angled, or quoted and known:
   * C falls back from the quoted search to the system one) is recorded, not
   * read; a missing project file is an error.
   */
  private notFound(name: string, angled: boolean, searched: readonly string[], nameAt: Location, directiveAt: Location): void {
    const known = isKnownSystemHeader(name);
    if (!angled && !known) {
      this.report('includeNotFound', nameAt, `'${name}' not found`, {
        hints: [`searched: ${searched.join(', ')}`, `give its directory with -I DIR; a system header the front end should take unread is written #include <${name}>`],
      });
      return;
    }
    this.systemIncludes.push({ name, at: directiveAt });
    if (!known) {
      this.report('unknownHeader', nameAt, `<${name}> is not read: it was not found in any -I directory and is not a header the front end knows`, {
        hints: [
          'a name it would declare is rejected where it is used, but a call of a macro it defines is taken for a call of a function without a body, and #if/#ifdef see its macros as undefined',
          'give its directory with -I DIR to read it',
        ],
      });
    }
  }

  /** An include the reader would not read: said with its name and path, never its contents. */
  private refused(name: string, path: string, refusal: FileRefusal, nameAt: Location): void {
    switch (refusal.refused) {
      case 'outsideRoots':
        this.report('outsideRoots', nameAt, `'${name}' is outside the include roots: not read`, {
          hints: [
            `it resolves to ${path}; includes are read only below the input's directory (or the directory verified) and the -I directories, after '..' and symbolic links`,
            'add -I DIR for a directory you trust, or --include-anywhere for a trusted local run',
          ],
        });
        return;
      case 'directory':
        this.report('unreadable', nameAt, `cannot read '${name}': ${path} is a directory`);
        return;
      case 'notRegular':
        this.report('unreadable', nameAt, `cannot read '${name}': ${path} is not a regular file (a device, pipe or socket)`);
        return;
      case 'tooLarge':
        this.report('unreadable', nameAt, `cannot read '${name}': ${path} is larger than ${refusal.limitBytes / (1024 * 1024)} MiB`);
        return;
    }
  }
}

/** The include guard a file's first directive opens, if it has that form: `#ifndef X` or `#if !defined X`. */
function guardOf(kind: 'if' | 'ifdef' | 'ifndef', rest: readonly Tok[]): string | null {
  if (kind === 'ifndef') return rest.length === 1 && rest[0]!.kind === 'ident' ? rest[0]!.text : null;
  if (kind !== 'if' || rest.length < 3 || !isPunct(rest[0]!, '!') || rest[1]!.text !== 'defined') return null;
  if (rest.length === 3 && rest[2]!.kind === 'ident') return rest[2]!.text;
  if (rest.length === 5 && isPunct(rest[2]!, '(') && rest[3]!.kind === 'ident' && isPunct(rest[4]!, ')')) return rest[3]!.text;
  return null;
}

/** The header an #include names: `"x.h"` or `<x.h>` then whatever follows, or null. */
function headerOf(tokens: readonly Tok[]): { name: string; angled: boolean; extra: readonly Tok[] | null; end: number | null } | null {
  const first = tokens[0];
  if (first === undefined) return null;
  const extraFrom = (k: number): readonly Tok[] | null => (k < tokens.length ? tokens.slice(k) : null);
  if (first.kind === 'string' && first.text.startsWith('"')) {
    return { name: first.text.slice(1, -1), angled: false, extra: extraFrom(1), end: first.verbatim ? first.end : null };
  }
  if (!isPunct(first, '<')) return null;
  const close = tokens.findIndex((t, k) => k > 0 && isPunct(t, '>'));
  if (close < 0) return null;
  const inside = tokens.slice(1, close);
  return { name: spelled(inside), angled: true, extra: extraFrom(close + 1), end: tokens[close]!.verbatim ? tokens[close]!.end : null };
}

function commandLineText(options: PreprocessOptions): string {
  const lines: string[] = [];
  for (const [name, value] of options.defines) lines.push(`#define ${name} ${(value ?? '1').replace(/[\r\n]+/g, ' ')}`);
  for (const name of options.undefines) lines.push(`#undef ${name}`);
  return lines.map((l) => `${l}\n`).join('');
}

/** Read a pseudo-file of directives (predefined macros, the command line), with no output. */
function readDirectives(driver: Driver, file: number): void {
  driver.enter(file, null);
  for (let t = driver.next(); t.kind !== 'eof'; t = driver.next()) {
    // directives only: their effect is on the macro table
  }
  driver.restart();
}

/** Preprocess a CUDA C/C++ translation unit. Never throws on bad input: problems are diagnostics. */
export function preprocess(main: SourceText, options: PreprocessOptions): Preprocessed {
  const driver = new Driver(options);
  const mainFile = driver.addFile(main.path, main.text);
  driver.knowPath(main.path, mainFile);
  driver.addFile('<built-in>', PREDEFINED_MACROS.map(([n, v]) => `#define ${n} ${v}\n`).join(''));
  driver.addFile('<command line>', commandLineText(options));
  driver.macros.set('__FILE__', builtinMacro('__FILE__', 'file'));
  driver.macros.set('__LINE__', builtinMacro('__LINE__', 'line'));
  readDirectives(driver, BUILT_IN_FILE);
  readDirectives(driver, COMMAND_LINE_FILE);

  const expander = new Expander(driver, driver, false);
  driver.expander = expander;
  driver.enter(mainFile, null);
  // gcc's -include: "as if #include "file" appeared as the first line of the primary source file"
  const preIncludes = options.preIncludes ?? [];
  if (preIncludes.length > 0) driver.enter(driver.addFile('<command line -include>', preIncludes.map((f) => `#include "${f}"\n`).join('')), null);
  const out = new OutputBuilder();
  const flushNewlines = (): void => {
    if (expander.pendingNewlines > 0) out.unmapped('\n'.repeat(expander.pendingNewlines));
    expander.pendingNewlines = 0;
  };
  for (;;) {
    const t = expander.next();
    for (const g of expander.nameGaps) out.copy(g.file, driver.textOf(g.file), g.gapStart, g.start, '');
    expander.nameGaps.length = 0;
    const text = driver.textOf(t.file);
    if (isEnd(t)) {
      out.copy(t.file, text, t.gapStart, t.start, '');
      if (t.kind === 'eof') break;
    } else if (t.kind === 'blank') {
      out.blank(t.file, text, t.start, t.end);
      if (countNewlines(text, t.start, t.end) > 0) flushNewlines();
    } else if (t.kind === 'newline') {
      out.copy(t.file, text, t.gapStart, t.end, '');
      flushNewlines();
    } else if (t.verbatim) {
      out.verbatimToken(t.file, text, t.gapStart, t);
    } else {
      out.expanded(t);
    }
  }
  flushNewlines();
  const { text, locate } = out.finish();
  return { text, files: driver.files, locate, diagnostics: driver.diagnostics, systemIncludes: driver.systemIncludes };
}
