/**
 * The launches a file's host code makes: `k<<<grid, block>>>(…)` (with
 * `<<<grid, block, shared, stream>>>` too), after macro expansion. A launch
 * size is known when it is an integer constant expression, a `dim3(…)` or
 * `{…}` of them, or the name of a variable declared once in the file with
 * such an initializer and never written again (`dim3 block(16, 16);`,
 * `const int threads = 256;`); anything else (a parameter of the host
 * function, `n / 256`, a variable assigned twice) is unknown and stays
 * symbolic. A kernel launched at several sites is fixed only where they agree.
 *
 * This reads host code by patterns, not by C++'s semantics, so what it
 * cannot follow must come out unknown: it never guesses a size.
 */
import { AXES, type BExpr } from '../../core/ast.js';
import type { Span } from '../../core/source.js';
import { compare, constant } from './build.js';
import { commentsBlanked } from './heads.js';

export type Dims = readonly [bigint, bigint, bigint];

export interface LaunchSite {
  /** the kernel's name as written before `<<<`, without template arguments or qualifiers */
  readonly kernel: string;
  readonly span: Span;
  readonly grid: Dims | null;
  readonly block: Dims | null;
  /** the kernel's arguments, each an integer when it is a constant (as a size is known), else null */
  readonly args: readonly (bigint | null)[];
}

/** What the sites of one kernel fix: a dimension (or an argument) all of them give alike, or null. */
export interface HostLaunch<S extends LaunchSite = LaunchSite> {
  readonly sites: readonly S[];
  readonly grid: Dims | null;
  readonly block: Dims | null;
  readonly args: readonly (bigint | null)[];
}

/** CUDA's limits: a size outside them is no launch a program makes (it fails), so it is not taken as known. */
const MAX_DIM = 1n << 31n;

const LAUNCH = /([A-Za-z_]\w*)\s*(?:<[^<>;(){}]*>\s*)?<<<([^;]*?)>>>/g;

/**
 * Every launch site of `source` (a preprocessed translation unit, which keeps
 * its comments): read with the comments blanked, so that a comment quoting a
 * declaration (`// dim3 block(TILE, ROWS)`) is not a second one making the
 * name ambiguous, nor a launch written in a comment a launch.
 */
export function launchSitesOf(source: string): LaunchSite[] {
  const text = commentsBlanked(source);
  const symbols = new Symbols(text);
  const sites: LaunchSite[] = [];
  for (const m of text.matchAll(LAUNCH)) {
    const args = topLevelArgs(m[2]!);
    if (args === null || args.length < 2 || args.length > 4) continue;
    const call = callArguments(text, m.index + m[0].length);
    const values = call === null ? [] : call.map((a) => symbols.constant(a));
    sites.push({ kernel: m[1]!, span: { start: m.index, end: m.index + m[0].length }, grid: symbols.dims(args[0]!), block: symbols.dims(args[1]!), args: values });
  }
  return sites;
}

/** The arguments of the call that starts at `at` (`(a, n)` after a launch's `>>>`), or null. */
function callArguments(text: string, at: number): string[] | null {
  const open = /^\s*\(/.exec(text.slice(at, at + 200));
  if (open === null) return null;
  const start = at + open[0].length;
  let depth = 1;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) {
      const inner = text.slice(start, i).trim();
      return inner === '' ? [] : topLevelArgs(inner);
    } else if (c === ';') return null;
  }
  return null;
}

/** The launches of each kernel name, and what they agree on. */
export function hostLaunches<S extends LaunchSite>(sites: readonly S[]): Map<string, HostLaunch<S>> {
  const out = new Map<string, HostLaunch<S>>();
  for (const site of sites) {
    const known = out.get(site.kernel);
    if (known === undefined) out.set(site.kernel, { sites: [site], grid: site.grid, block: site.block, args: site.args });
    else out.set(site.kernel, { sites: [...known.sites, site], grid: agreed(known.grid, site.grid), block: agreed(known.block, site.block), args: known.args.map((a, i) => (a !== null && site.args[i] === a ? a : null)) });
  }
  return out;
}

const agreed = (a: Dims | null, b: Dims | null): Dims | null => (a !== null && b !== null && a.every((v, i) => v === b[i]) ? a : null);

/** The comma-separated arguments of `text`, split at depth 0; null when the brackets do not balance. */
function topLevelArgs(text: string): string[] | null {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '(' || c === '{' || c === '[') depth++;
    else if (c === ')' || c === '}' || c === ']') {
      if (--depth < 0) return null;
    } else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i).trim());
      start = i + 1;
    }
  }
  if (depth !== 0) return null;
  out.push(text.slice(start).trim());
  return out;
}

/** How deep one name's initializer may refer to another's. */
const MAX_DEPTH = 8;

/** The file's variables whose value is known: declared once with a constant initializer, never written again. */
class Symbols {
  /** the parameter lists of device functions and kernels: a parameter there is no host variable (`k(int n)` and the host's `int n = 512;`) */
  private readonly deviceHeads: readonly { readonly start: number; readonly end: number }[];

  constructor(private readonly text: string) {
    this.deviceHeads = [...text.matchAll(/\b__(?:global|device)__\b[^;{}]*?\(/g)].map((m) => {
      const open = m.index + m[0].length - 1;
      let depth = 0;
      for (let i = open; i < text.length; i++) {
        if (text[i] === '(') depth++;
        else if (text[i] === ')' && --depth === 0) return { start: open, end: i };
      }
      return { start: open, end: text.length };
    });
  }

  private inDeviceHead(at: number): boolean {
    return this.deviceHeads.some((h) => at >= h.start && at <= h.end);
  }

  dims(arg: string, depth = 0): Dims | null {
    const s = arg.trim();
    const ctor = /^dim3\s*(?:\((.*)\)|\{(.*)\})$/s.exec(s) ?? /^\{(.*)\}$/s.exec(s);
    if (ctor !== null) return this.vector(ctor[1] ?? ctor[2] ?? '', depth);
    if (/^[A-Za-z_]\w*$/.test(s)) {
      const init = this.initializer(s, 'dim3');
      if (init !== null) return depth >= MAX_DEPTH ? null : this.dims(init, depth + 1);
    }
    const v = this.integer(s, depth);
    return v === null ? null : [v, 1n, 1n];
  }

  private vector(list: string, depth: number): Dims | null {
    const parts = topLevelArgs(list);
    if (parts === null || parts.length < 1 || parts.length > 3) return null;
    const values = parts.map((p) => this.integer(p, depth));
    if (values.some((v) => v === null)) return null;
    const [x, y = 1n, z = 1n] = values as bigint[];
    return [x!, y, z];
  }

  integer(expr: string, depth: number): bigint | null {
    const v = this.constant(expr, depth);
    return v !== null && v >= 1n && v < MAX_DIM ? v : null;
  }

  /** An integer constant expression's value (a launch's argument: any integer), names followed as for sizes, `d.x` of a known dim3 `d`; null where it is not one. */
  constant(expr: string, depth = 0): bigint | null {
    let unknownMember = false;
    const members = expr.replace(/\b([A-Za-z_]\w*)\s*\.\s*([xyz])\b/g, (_, name: string, axis: string) => {
      const d = depth >= MAX_DEPTH ? null : this.dims(name, depth + 1);
      if (d === null) unknownMember = true;
      return d === null ? '' : String(d['xyz'.indexOf(axis)]);
    });
    if (unknownMember) return null;
    const tokens = members.match(/0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|[A-Za-z_]\w*|<<|>>|[-+*/%()]|\S/g);
    if (tokens === null) return null;
    const parser = new ConstantParser(tokens, (name) => {
      if (depth >= MAX_DEPTH) return null;
      const init = this.initializer(name, 'integer');
      return init === null ? null : this.constant(init, depth + 1);
    });
    return parser.parse();
  }

  /**
   * The initializer of `name` when the file declares it exactly once, as a
   * dim3 or an integer, and nothing writes it afterwards (assignment,
   * compound assignment, ++/--, its address taken): else null. A declaration
   * may declare several names (`dim3 grid(w / 16), threads(16, 8);`,
   * `const int w = 64, h = 32;`).
   */
  private initializer(name: string, kind: 'dim3' | 'integer'): string | null {
    const n = escaped(name);
    // a lookahead, so that each type keyword starts a declaration of its own (`int main() { int n = 4;` holds two)
    const declarations =
      kind === 'dim3'
        ? /(?=\bdim3\s+([^;]*);)/g
        : /(?=\b(?:(?:static|const|constexpr)\s+)*(?:unsigned\s+long(?:\s+long)?|unsigned\s+int|long\s+long|unsigned|signed|int|long|short|size_t)\s+(?:const\s+)?([^;]*);)/g;
    const found: string[] = [];
    // `const int n`, `unsigned int n`: each keyword starts a match of one declarator list, which starts at one place
    const seen = new Set<number>();
    for (const m of this.text.matchAll(declarations)) {
      const start = this.text.indexOf(m[1]!, m.index);
      if (seen.has(start)) continue;
      seen.add(start);
      for (const d of topLevelArgs(m[1]!) ?? []) {
        const init = declaratorInit(d, n, kind);
        if (init !== null) found.push(init);
      }
    }
    // any other declaration of the name (a parameter, another type, a second variable) makes it ambiguous: a type and the
    // name at the start of a declaration or parameter, or a later declarator of a list (not `size_x * size_y;` in an expression)
    const declaredAnyway = [...this.text.matchAll(new RegExp(`(?:(?:^|[;{}(,])\\s*(?:(?:const|constexpr|static|volatile|unsigned|signed|struct|class)\\s+)*[A-Za-z_][\\w:]*(?:\\s*<[^;<>]*>)?[\\s*&]+|,\\s*)${n}\\s*(?:[,)\\[;=({])`, 'g'))].filter((m) => !/^,\s*\w+\s*[,)]/.test(m[0]) && !this.inDeviceHead(m.index)).length;
    if (found.length !== 1 || declaredAnyway !== 1) return null;
    const init = found[0]!;
    const written = new RegExp(`(?:\\b${n}\\s*(?:\\.\\s*[xyz]\\s*)?(?:[-+*/%&|^]|<<|>>)?=(?!=)|(?:\\+\\+|--)\\s*${n}\\b|\\b${n}\\s*(?:\\+\\+|--)|&\\s*${n}\\b)`, 'g');
    const writes = [...this.text.matchAll(written)].length;
    // the declaration's own `=`, when it has one, is one write
    const ownWrite = /^=/.test(init) ? 1 : 0;
    return writes === ownWrite ? init.replace(/^=/, '').trim() : null;
  }
}

/**
 * What one declarator of a list gives `name` (escaped): `= e` (marked with its
 * `=`), `(args)`/`{args}` as a dim3's arguments, `{e}` as an integer's value;
 * null when it declares another name (or declares `name` without one).
 */
function declaratorInit(d: string, n: string, kind: 'dim3' | 'integer'): string | null {
  const m = new RegExp(`^${n}\\s*(?:\\(([\\s\\S]*)\\)|\\{([\\s\\S]*)\\}|=\\s*([\\s\\S]+))$`).exec(d.trim());
  if (m === null) return null;
  if (m[3] !== undefined) return `=${m[3]}`;
  if (kind === 'dim3') return `dim3(${m[1] ?? m[2] ?? ''})`;
  return m[2] ?? null;
}

const escaped = (name: string): string => name.replace(/[^\w]/g, '\\$&');

/** C's integer constant expressions over + - * / % << >> and parentheses; null where one is not constant or not defined. */
class ConstantParser {
  private i = 0;
  constructor(
    private readonly tokens: readonly string[],
    private readonly lookup: (name: string) => bigint | null,
  ) {}

  parse(): bigint | null {
    const v = this.shift();
    return this.i === this.tokens.length ? v : null;
  }

  private shift(): bigint | null {
    let left = this.additive();
    for (let op = this.tokens[this.i]; left !== null && (op === '<<' || op === '>>'); op = this.tokens[this.i]) {
      this.i++;
      const right = this.additive();
      if (right === null || right < 0n || right >= 63n) return null;
      left = op === '<<' ? left << right : left >> right;
    }
    return left;
  }

  private additive(): bigint | null {
    let left = this.multiplicative();
    for (let op = this.tokens[this.i]; left !== null && (op === '+' || op === '-'); op = this.tokens[this.i]) {
      this.i++;
      const right = this.multiplicative();
      if (right === null) return null;
      left = op === '+' ? left + right : left - right;
    }
    return left;
  }

  private multiplicative(): bigint | null {
    let left = this.unary();
    for (let op = this.tokens[this.i]; left !== null && (op === '*' || op === '/' || op === '%'); op = this.tokens[this.i]) {
      this.i++;
      const right = this.unary();
      if (right === null || (op !== '*' && right === 0n)) return null;
      // bigint division truncates toward zero, as C's does
      left = op === '*' ? left * right : op === '/' ? left / right : left % right;
    }
    return left;
  }

  private unary(): bigint | null {
    const t = this.tokens[this.i++];
    if (t === undefined) return null;
    if (t === '-') {
      const v = this.unary();
      return v === null ? null : -v;
    }
    if (t === '+') return this.unary();
    if (t === '(') {
      const v = this.shift();
      return this.tokens[this.i++] === ')' ? v : null;
    }
    if (/^\d/.test(t)) return BigInt(t.replace(/[uUlL]+$/, '').replace(/^0(?=\d)/, '0o'));
    if (/^[A-Za-z_]/.test(t)) return this.lookup(t);
    return null;
  }
}

/** The `requires` that fix a kernel's sizes to `dims`, pointing at the launch site. */
export function launchRequires(builtin: 'blockDim' | 'gridDim', dims: Dims, span: Span): BExpr[] {
  return AXES.map((axis, i) => compare('==', { kind: 'cast', type: 'u32', operand: { kind: 'builtin', name: builtin, axis, span }, span }, constant(dims[i]!, 'u32', span), span));
}

export const dimsText = (d: Dims): string => (d[1] === 1n && d[2] === 1n ? String(d[0]) : `(${d.join(', ')})`);
