/**
 * Macro expansion (C11 6.10.3, C++17 [cpp.replace]).
 *
 * Expansion runs on a stack of contexts, as in GCC and Clang: expanding a
 * macro pushes its replacement (arguments substituted, `#` and `##` applied)
 * and disables the macro until that replacement has been read, so rescanning
 * sees the replacement followed by the rest of the source. A name met while
 * its macro is disabled is painted and never expanded again. An argument is
 * fully expanded on its own (behind a barrier, as if it were the rest of the
 * file) before substitution, except next to `#` or `##`.
 *
 * Every token a macro produces gets the chain of uses it came through; a use
 * is written where its name is (through its `)` when both are written in one
 * place), and the outermost use of an expansion grows to the last `)` it read
 * from the file, so it covers all the text the expansion replaced.
 */
import type { Report } from './diagnostics.js';
import { lexString } from './lexer.js';
import type { Macro } from './macros.js';
import { tokenLocation } from './sourcemap.js';
import {
  chainOf,
  expandedTok,
  isEnd,
  isPunct,
  paintedTok,
  syntheticTok,
  type Chain,
  type Tok,
  type UseSite,
} from './tokens.js';

/** Where expansion reads tokens that no macro produced. */
export interface TokenSource {
  next(): Tok;
  /** Give back tokens read ahead, last read first. */
  unread(t: Tok): void;
}

export interface ExpandEnv {
  readonly macros: ReadonlyMap<string, Macro>;
  readonly report: Report;
  /** the normalised text of a file */
  textOf(file: number): string;
  /** the 1-based line of an offset */
  lineOf(file: number, offset: number): number;
  pathOf(file: number): string;
  /** `__has_include`: whether the header would be found from `at`'s file */
  hasInclude(name: string, angled: boolean, at: Tok): boolean;
  /**
   * Count `tokens` more produced by expanding `macro` at `at` (`outermost`:
   * the use in the file it is part of); false once the unit's bound on
   * expansion is passed (reported once), when the macro is not expanded.
   */
  spend(tokens: number, macro: string, at: Tok, outermost: string | null): boolean;
}

interface Context {
  readonly tokens: readonly Tok[];
  pos: number;
  readonly macro: Macro | null;
  /** the end of an argument being expanded on its own: reading stops here */
  readonly barrier: boolean;
}

const NOWHERE = { file: -1, start: 0, end: 0 };
/** Arguments are expanded recursively: this bounds the recursion on pathological input. */
export const MAX_ARGUMENT_DEPTH = 200;
const END_OF_ARGUMENT: Tok = syntheticTok('eof', '', NOWHERE, null, false);

/**
 * Tokens one outermost macro use may produce, counted as the unit's bound
 * (MAX_EXPANDED_TOKENS) counts them: every replacement, also those rescanned
 * into others. Under the unit's bound, one use of a chain still gave the
 * parser a statement of hundreds of thousands of tokens.
 */
export const MAX_TOKENS_PER_USE = 10_000;
/**
 * Tokens macros may produce between two `;`, `{` or `}`: many uses of a
 * medium macro in one statement made tree-sitter's error recovery quadratic
 * (a 40 KB fuzz mutant took 1m52s, 91% of it in the parse).
 */
export const MAX_PRODUCED_PER_STATEMENT = 10_000;

export function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A token list as a source, ending with `end` (repeated). */
export class ListSource implements TokenSource {
  private i = 0;
  private readonly pushed: Tok[] = [];

  constructor(
    private readonly tokens: readonly Tok[],
    private readonly end: Tok,
  ) {}

  next(): Tok {
    return this.pushed.pop() ?? this.tokens[this.i++] ?? this.end;
  }

  unread(t: Tok): void {
    this.pushed.push(t);
  }
}

/** `defined NAME`: a macro, or `__has_include`, which C++17 says is defined for #ifdef and defined(). */
export function isDefined(macros: ReadonlyMap<string, Macro>, name: string): boolean {
  return macros.has(name) || name === '__has_include';
}

/** Tokens' spellings, with a space where there was whitespace between them. */
export function spelled(tokens: readonly Tok[]): string {
  return tokens.map((t, k) => (k > 0 && t.space ? ' ' : '') + t.text).join('');
}

function useSite(name: string, t: Tok, close: Tok | null): UseSite {
  const through = close !== null && !t.synthetic && !close.synthetic && close.chain === t.chain && close.file === t.file && close.start >= t.end;
  return { name, file: t.file, start: t.start, end: through ? close.end : t.end };
}

function stringize(arg: readonly Tok[]): string {
  let s = '';
  arg.forEach((t, j) => {
    if (j > 0 && t.space) s += ' ';
    s += t.kind === 'string' || t.kind === 'char' ? t.text.replace(/[\\"]/g, '\\$&') : t.text;
  });
  return `"${s}"`;
}

function quoted(text: string): string {
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

export class Expander {
  private readonly contexts: Context[] = [];
  private lastFromBase = false;
  /** the outermost use being expanded, while its expansion reads calls' arguments from the source */
  private topUse: UseSite | null = null;
  private extending = 0;
  /** newlines in text a macro call replaced: the output owes them, to keep its lines */
  pendingNewlines = 0;
  /** names of outermost macro uses (and `_Pragma`s) replaced: the output owes the whitespace before them */
  readonly nameGaps: Tok[] = [];
  /** > 0 while a call's arguments are read (a directive there cannot #include) */
  collectingArguments = 0;
  /** set when an #if expression's `defined` or `__has_include` was malformed (reported) */
  conditionFailed = false;
  private argumentDepth = 0;
  private tooDeepReported = false;
  /** tokens produced for the outermost use being expanded, and whether it passed MAX_TOKENS_PER_USE (reported) */
  private useTokens = 0;
  private useStopped = false;
  /** tokens produced since the last `;`, `{` or `}` was read, and whether they passed MAX_PRODUCED_PER_STATEMENT (reported) */
  private statementTokens = 0;
  private statementStopped = false;

  constructor(
    private readonly base: TokenSource,
    private readonly env: ExpandEnv,
    /** in #if/#elif: `defined` and `__has_include` are operators */
    private readonly inCondition: boolean,
  ) {}

  /** The next token after macro expansion. */
  next(): Tok {
    for (;;) {
      const t = this.readRaw();
      const fromBase = this.lastFromBase;
      if (t.kind === 'punct' && (t.text === ';' || t.text === '{' || t.text === '}')) {
        this.statementTokens = 0;
        this.statementStopped = false;
      }
      if (t.kind !== 'ident' || t.painted) return t;
      if (this.inCondition && t.text === 'defined') return this.definedOperator(t);
      if (this.inCondition && t.text === '__has_include') return this.hasIncludeOperator(t);
      if (t.text === '_Pragma') {
        if (this.pragmaOperator(t, fromBase)) continue;
        return t;
      }
      const m = this.env.macros.get(t.text);
      if (m === undefined) return t;
      if (m.disabled > 0) return paintedTok(t);
      const entered = this.enter(m, t, fromBase);
      if (entered === 'not a call') return t;
      if (entered === 'bad call') {
        // reported once: the name is not tried again when its text is read again
        this.consumed(t, fromBase);
        return paintedTok(t);
      }
    }
  }

  private readRaw(): Tok {
    for (;;) {
      const c = this.contexts[this.contexts.length - 1];
      if (c === undefined) break;
      if (c.pos < c.tokens.length) {
        this.lastFromBase = false;
        return c.tokens[c.pos++]!;
      }
      if (c.barrier) {
        this.lastFromBase = false;
        return END_OF_ARGUMENT;
      }
      this.contexts.pop();
      if (c.macro !== null) c.macro.disabled--;
    }
    this.lastFromBase = true;
    const t = this.base.next();
    const top = this.topUse;
    if (this.extending > 0 && top !== null && t.verbatim && t.file === top.file && t.end > top.end) top.end = t.end;
    return t;
  }

  private unreadRaw(t: Tok, fromBase: boolean): void {
    if (fromBase) this.base.unread(t);
    else if (t !== END_OF_ARGUMENT) this.contexts[this.contexts.length - 1]!.pos--;
  }

  /** A token read from the source will not be output as written: its newlines are owed. */
  private consumed(t: Tok, fromBase: boolean): void {
    if (fromBase && t.verbatim) this.pendingNewlines += countNewlines(this.env.textOf(t.file), t.gapStart, t.end);
  }

  /** Push the expansion of `m` used at `t`, unless `t` is not followed by `(` or the call is bad (reported). */
  private enter(m: Macro, t: Tok, outermost: boolean): 'entered' | 'not a call' | 'bad call' {
    if (outermost) {
      this.topUse = null;
      this.useTokens = 0;
      this.useStopped = false;
    }
    let args: Tok[][] = [];
    let close: Tok | null = null;
    if (m.functionLike) {
      const open = this.peekParen();
      if (open === null) return 'not a call';
      const call = this.collectArguments(m, t, open);
      if (call === null) return 'bad call';
      ({ args, close } = call);
    }
    const use = useSite(m.name, t, close);
    if (outermost) {
      this.topUse = use;
      this.nameGaps.push(t);
      this.pendingNewlines += countNewlines(this.env.textOf(t.file), t.start, t.end);
    }
    const tokens = m.builtin === null ? this.substitute(m, t, args, use) : [this.builtinValue(m.builtin, t, use)];
    if (!this.withinBounds(tokens.length, m.name, t)) return 'bad call';
    if (!this.env.spend(tokens.length, m.name, t, this.topUse?.name ?? null)) return 'bad call';
    this.contexts.push({ tokens, pos: 0, macro: m, barrier: false });
    m.disabled++;
    return 'entered';
  }

  /** Count `tokens` produced by expanding `macro` at `t` against the bounds per use and per statement: false (reported once each) past either. */
  private withinBounds(tokens: number, macro: string, t: Tok): boolean {
    if (this.useStopped || this.statementStopped) return false;
    this.useTokens += tokens;
    this.statementTokens += tokens;
    const perUse = this.useTokens > MAX_TOKENS_PER_USE;
    if (!perUse && this.statementTokens <= MAX_PRODUCED_PER_STATEMENT) return true;
    if (perUse) this.useStopped = true;
    else this.statementStopped = true;
    const [bound, by, hint] = perUse
      ? [MAX_TOKENS_PER_USE, 'by one macro use', 'a macro whose body uses another twice, nested, doubles at each level']
      : [MAX_PRODUCED_PER_STATEMENT, 'by macros in one statement', 'macros used many times between two `;`, `{` or `}`'];
    const outermost = this.topUse?.name ?? macro;
    const within = outermost === macro ? '' : ` within the expansion of '${outermost}'`;
    this.env.report('expansionTooLarge', tokenLocation(t), `expanding '${macro}'${within} passes the bound of ${bound} tokens produced ${by}: expansion stops here`, {
      hints: [`${hint}; the file is not analysed`],
    });
    return false;
  }

  private builtinValue(builtin: 'line' | 'file', t: Tok, use: UseSite): Tok {
    const at = tokenLocation(t);
    const chain = chainOf(use, t.chain);
    return builtin === 'line'
      ? syntheticTok('number', String(this.env.lineOf(at.file, at.start)), use, chain, t.space)
      : syntheticTok('string', quoted(this.env.pathOf(at.file)), use, chain, t.space);
  }

  /** The `(` that comes next (skipping newlines), consumed; null, and nothing read, when there is none. */
  private peekParen(): Tok | null {
    const skipped: Tok[] = [];
    const savedEnd = this.topUse?.end;
    this.extending++;
    try {
      for (;;) {
        const t = this.readRaw();
        const fromBase = this.lastFromBase;
        if (t.kind === 'newline' || t.kind === 'blank') {
          skipped.push(t);
          continue;
        }
        if (isPunct(t, '(')) {
          for (const s of skipped) this.consumed(s, true);
          this.consumed(t, fromBase);
          return t;
        }
        this.unreadRaw(t, fromBase);
        for (let k = skipped.length - 1; k >= 0; k--) this.base.unread(skipped[k]!);
        if (this.topUse !== null && savedEnd !== undefined) this.topUse.end = savedEnd;
        return null;
      }
    } finally {
      this.extending--;
    }
  }

  /** The arguments of a call whose `(` was read, or null after an error (reported; the tokens read are read again as text). */
  private collectArguments(m: Macro, name: Tok, open: Tok): { args: Tok[][]; close: Tok } | null {
    const args: Tok[][] = [];
    let current: Tok[] = [];
    const read: Tok[] = [];
    let depth = 0;
    let afterNewline = false;
    let close: Tok | null = null;
    const giveBack = (): null => {
      this.contexts.push({ tokens: [open, ...read].map((t) => expandedTok(t, t.chain, t.space)), pos: 0, macro: null, barrier: false });
      return null;
    };
    this.extending++;
    this.collectingArguments++;
    try {
      while (close === null) {
        const t0 = this.readRaw();
        const fromBase = this.lastFromBase;
        if (t0.kind === 'newline' || t0.kind === 'blank') {
          this.consumed(t0, fromBase);
          afterNewline = true;
          continue;
        }
        if (isEnd(t0)) {
          this.unreadRaw(t0, fromBase);
          this.env.report('unterminatedCall', tokenLocation(name), `unterminated argument list invoking macro '${m.name}'`, {
            hints: [t0 === END_OF_ARGUMENT ? 'the call starts inside an argument of another macro and must end there' : 'a macro call cannot run past the end of its file'],
          });
          return giveBack();
        }
        this.consumed(t0, fromBase);
        const t = afterNewline && !t0.space ? expandedTok(t0, t0.chain, true) : t0;
        afterNewline = false;
        read.push(t);
        if (isPunct(t, '(')) depth++;
        else if (isPunct(t, ')')) {
          if (depth === 0) {
            close = t;
            args.push(current);
            break;
          }
          depth--;
        } else if (isPunct(t, ',') && depth === 0 && !(m.variadic && args.length === m.params.length - 1)) {
          args.push(current);
          current = [];
          continue;
        }
        current.push(t);
      }
    } finally {
      this.extending--;
      this.collectingArguments--;
    }
    const want = m.params.length;
    if (want === 0 && args.length === 1 && args[0]!.length === 0) args.pop();
    if (m.variadic && args.length === want - 1) args.push([]);
    if (args.length !== want) {
      this.env.report(
        'wrongArgumentCount',
        tokenLocation(name),
        `macro '${m.name}' takes ${want}${m.variadic ? ' or more' : ''} argument${want === 1 ? '' : 's'}, but ${args.length} ${args.length === 1 ? 'was' : 'were'} given`,
      );
      return giveBack();
    }
    return { args, close };
  }

  /** An argument fully macro-expanded on its own. */
  private expandArgument(tokens: readonly Tok[], use: UseSite): readonly Tok[] {
    if (!tokens.some((t) => t.kind === 'ident')) return tokens;
    if (this.argumentDepth >= MAX_ARGUMENT_DEPTH) {
      if (!this.tooDeepReported) {
        const at = { file: use.file, start: use.start, end: use.end, expansions: [] };
        this.env.report('tooDeep', at, `macro calls nested more than ${MAX_ARGUMENT_DEPTH} deep in arguments: the arguments are left unexpanded`);
      }
      this.tooDeepReported = true;
      return tokens;
    }
    this.argumentDepth++;
    this.contexts.push({ tokens, pos: 0, macro: null, barrier: true });
    const out: Tok[] = [];
    for (let t = this.next(); t !== END_OF_ARGUMENT; t = this.next()) out.push(t);
    this.contexts.pop();
    this.argumentDepth--;
    return out;
  }

  /** The replacement of a use: parameters substituted, `#` and `##` applied, placemarkers gone. */
  private substitute(m: Macro, name: Tok, args: readonly Tok[][], use: UseSite): Tok[] {
    const bodyChain = chainOf(use, name.chain);
    // tokens of arguments get their own chains (one per chain they had), so that
    // a span of the unit knows whether it was written in one place
    const argChains = args.length === 0 ? null : new Map<Chain | null, Chain>();
    const argChain = (c: Chain | null): Chain => {
      let chain = argChains!.get(c);
      if (chain === undefined) argChains!.set(c, (chain = chainOf(use, c)));
      return chain;
    };
    const expanded: (readonly Tok[] | undefined)[] = [];
    const out: Tok[] = [];
    let pasting = false;
    let placemarkers = false;
    const body = m.body;
    for (let k = 0; k < body.length; k++) {
      const item = body[k]!;
      if (item.kind === 'paste') {
        const before = body[k - 1];
        const after = body[k + 1];
        if (m.variadic && before?.kind === 'token' && before.tok.text === ',' && after?.kind === 'param' && after.index === m.params.length - 1) {
          // GNU's `, ## __VA_ARGS__`: the comma goes when the variable arguments are empty; no pasting either way
          if (args[after.index]!.length === 0) out.pop();
          continue;
        }
        pasting = true;
        continue;
      }
      if (item.kind === 'token' && !pasting) {
        out.push(expandedTok(item.tok, bodyChain, item.tok.space));
        continue;
      }
      let toks: Tok[];
      switch (item.kind) {
        case 'token':
          toks = [expandedTok(item.tok, bodyChain, item.tok.space)];
          break;
        case 'stringize':
          toks = [syntheticTok('string', stringize(args[item.index]!), use, bodyChain, item.tok.space)];
          break;
        case 'param': {
          const source = item.raw ? args[item.index]! : (expanded[item.index] ??= this.expandArgument(args[item.index]!, use));
          // an argument written in the file belongs to the expansion the use is part of
          toks = source.map((t, j) => expandedTok(t, argChain(t.chain ?? name.chain), j === 0 ? item.tok.space : t.space));
          if (toks.length === 0 && item.raw) {
            toks = [syntheticTok('placemarker', '', use, bodyChain, false)];
            placemarkers = true;
          }
          break;
        }
      }
      if (pasting) {
        this.paste(out, toks, use, bodyChain, body[k - 1]!.tok);
        pasting = false;
      } else for (const t of toks) out.push(t);
    }
    const result = placemarkers ? out.filter((t) => t.kind !== 'placemarker') : out;
    const first = result[0];
    if (first !== undefined && first.space !== name.space) result[0] = expandedTok(first, first.chain, name.space);
    return result;
  }

  /** `left ## right`: the last token of `out` and the first of `right` become one. */
  private paste(out: Tok[], right: readonly Tok[], use: UseSite, chain: Chain, operator: Tok): void {
    const left = out.pop()!;
    const first = right[0]!;
    if (left.kind === 'placemarker') {
      out.push(...right);
      return;
    }
    if (first.kind === 'placemarker') {
      out.push(left, ...right.slice(1));
      return;
    }
    const text = left.text + first.text;
    const lexed = lexString(text);
    if (lexed.length === 1 && lexed[0]!.text === text) {
      out.push(syntheticTok(lexed[0]!.kind, text, use, chain, left.space), ...right.slice(1));
      return;
    }
    this.env.report('badPaste', tokenLocation(expandedTok(operator, chain, false)), `pasting '${left.text}' and '${first.text}' does not give a valid preprocessing token`, {
      hints: ['the two tokens are kept side by side'],
    });
    out.push(left, ...right);
  }

  /** `_Pragma("…")`: removed like #pragma; false when it is not followed by `(`, or is malformed (reported, kept as text). */
  private pragmaOperator(t: Tok, fromBase: boolean): boolean {
    const open = this.peekParen();
    if (open === null) return false;
    const read = [open];
    while (read.length < 3) {
      const r = this.readRaw();
      if (isEnd(r)) {
        this.unreadRaw(r, this.lastFromBase);
        break;
      }
      this.consumed(r, this.lastFromBase);
      if (r.kind === 'newline' || r.kind === 'blank') continue;
      read.push(r);
      if (r.kind !== 'string') break;
    }
    if (read.length < 3 || !isPunct(read[2]!, ')')) {
      this.env.report('badDirective', tokenLocation(t), `_Pragma takes a parenthesized string literal`);
      this.contexts.push({ tokens: read.map((r) => expandedTok(r, r.chain, r.space)), pos: 0, macro: null, barrier: false });
      return false;
    }
    if (fromBase) {
      this.nameGaps.push(t);
      this.pendingNewlines += countNewlines(this.env.textOf(t.file), t.start, t.end);
    }
    return true;
  }

  private conditionError(at: Tok, message: string): Tok {
    if (!this.conditionFailed) this.env.report('badCondition', tokenLocation(at), message);
    this.conditionFailed = true;
    return syntheticTok('number', '0', at, at.chain, at.space);
  }

  /** `defined NAME` or `defined ( NAME )` → 1 or 0. */
  private definedOperator(t: Tok): Tok {
    let name = this.readRaw();
    const parenthesised = isPunct(name, '(');
    if (parenthesised) name = this.readRaw();
    if (name.kind !== 'ident') return this.conditionError(isEnd(name) ? t : name, `operator 'defined' requires an identifier`);
    if (parenthesised && !isPunct(this.readRaw(), ')')) return this.conditionError(name, `missing ')' after 'defined(${name.text}'`);
    return syntheticTok('number', isDefined(this.env.macros, name.text) ? '1' : '0', t, t.chain, t.space);
  }

  /** `__has_include("file")` or `__has_include(<file>)` → 1 or 0. */
  private hasIncludeOperator(t: Tok): Tok {
    if (!isPunct(this.readRaw(), '(')) return this.conditionError(t, `missing '(' after '__has_include'`);
    const first = this.readRaw();
    let name: string;
    let angled = false;
    if (first.kind === 'string' && first.text.startsWith('"')) name = first.text.slice(1, -1);
    else if (isPunct(first, '<')) {
      const parts: Tok[] = [];
      for (let p = this.readRaw(); !isPunct(p, '>'); p = this.readRaw()) {
        if (isEnd(p)) return this.conditionError(t, `missing '>' in '__has_include'`);
        parts.push(p);
      }
      name = spelled(parts);
      angled = true;
    } else return this.conditionError(first, `'__has_include' expects "FILE" or <FILE>`);
    if (!isPunct(this.readRaw(), ')')) return this.conditionError(t, `missing ')' after '__has_include'`);
    return syntheticTok('number', this.env.hasInclude(name, angled, t) ? '1' : '0', t, t.chain, t.space);
  }
}

/** Every token of a list after macro expansion (for #if, #include and #line operands). */
export function expandList(tokens: readonly Tok[], end: Tok, env: ExpandEnv, inCondition: boolean): { readonly tokens: Tok[]; readonly failed: boolean } {
  const expander = new Expander(new ListSource(tokens, end), env, inCondition);
  const out: Tok[] = [];
  for (let t = expander.next(); !isEnd(t); t = expander.next()) out.push(t);
  return { tokens: out, failed: expander.conditionFailed };
}
