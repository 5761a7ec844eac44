/** Macro definitions: `#define` parsed into a name, parameters and a body of operations. */
import type { Report } from './diagnostics.js';
import { tokenLocation } from './sourcemap.js';
import { isHash, isHashHash, isPunct, type Tok } from './tokens.js';

export type BodyItem =
  | { readonly kind: 'token'; readonly tok: Tok }
  /** a parameter; `raw` next to `##` (its argument is not macro-expanded there) */
  | { readonly kind: 'param'; readonly index: number; readonly raw: boolean; readonly tok: Tok }
  /** `# param` (`tok` is the `#`) */
  | { readonly kind: 'stringize'; readonly index: number; readonly tok: Tok }
  | { readonly kind: 'paste'; readonly tok: Tok };

export interface Macro {
  readonly name: string;
  /** the name in its #define, or null for __FILE__ and __LINE__ */
  readonly defined: Tok | null;
  readonly functionLike: boolean;
  readonly params: readonly string[];
  /** the last parameter takes the rest of the arguments (`...` as __VA_ARGS__, or GNU's `name...`) */
  readonly variadic: boolean;
  readonly body: readonly BodyItem[];
  readonly builtin: 'line' | 'file' | null;
  /** how many expansions of this macro are in progress: while > 0 its name is not expanded */
  disabled: number;
}

export function builtinMacro(name: string, builtin: 'line' | 'file'): Macro {
  return { name, defined: null, functionLike: false, params: [], variadic: false, body: [], builtin, disabled: 0 };
}

/** Names that cannot be macros: `defined`, and C++'s alternative operator spellings. */
export const RESERVED_MACRO_NAMES: ReadonlySet<string> = new Set([
  'defined', 'and', 'and_eq', 'bitand', 'bitor', 'compl', 'not', 'not_eq', 'or', 'or_eq', 'xor', 'xor_eq',
]);

/** The macro name a #define, #undef or #ifdef names, or null after an error. */
export function macroName(t: Tok | undefined, directive: Tok, report: Report): Tok | null {
  if (t === undefined) {
    report('badDefine', tokenLocation(directive), `no macro name given in #${directive.text}`);
    return null;
  }
  if (t.kind !== 'ident') {
    report('badDefine', tokenLocation(t), `macro names must be identifiers, not '${t.text}'`);
    return null;
  }
  if (RESERVED_MACRO_NAMES.has(t.text)) {
    report('badDefine', tokenLocation(t), `'${t.text}' cannot be used as a macro name`);
    return null;
  }
  return t;
}

/** The macro a #define's tokens (after `define`) define, or null after an error (reported). */
export function parseDefine(tokens: readonly Tok[], directive: Tok, report: Report): Macro | null {
  const name = macroName(tokens[0], directive, report);
  if (name === null) return null;
  let i = 1;
  const params: string[] = [];
  let variadic = false;
  const open = tokens[1];
  const functionLike = open !== undefined && isPunct(open, '(') && !open.space;
  if (functionLike) {
    i = 2;
    const fail = (at: Tok | undefined, message: string): null => {
      report('badDefine', tokenLocation(at ?? tokens[tokens.length - 1]!), message);
      return null;
    };
    if (tokens[i] !== undefined && isPunct(tokens[i]!, ')')) i++;
    else {
      for (;;) {
        const p = tokens[i];
        if (p !== undefined && isPunct(p, '...')) {
          params.push('__VA_ARGS__');
          variadic = true;
          i++;
        } else if (p !== undefined && p.kind === 'ident') {
          if (p.text === '__VA_ARGS__') return fail(p, `'__VA_ARGS__' can only be the '...' of a variadic macro`);
          if (params.includes(p.text)) return fail(p, `duplicate macro parameter '${p.text}'`);
          params.push(p.text);
          i++;
          if (tokens[i] !== undefined && isPunct(tokens[i]!, '...')) {
            variadic = true;
            i++;
          }
        } else return fail(p, p === undefined ? `missing ')' in the parameter list of macro '${name.text}'` : `expected a parameter name, found '${p.text}'`);
        const sep = tokens[i];
        i++;
        if (sep !== undefined && isPunct(sep, ')')) break;
        if (sep !== undefined && isPunct(sep, ',') && !variadic) continue;
        if (sep === undefined) return fail(undefined, `missing ')' in the parameter list of macro '${name.text}'`);
        return fail(sep, variadic ? `expected ')' after '...'` : `expected ',' or ')' in the parameter list, found '${sep.text}'`);
      }
    }
  }
  const body = parseBody(tokens.slice(i), name, functionLike, params, report);
  if (body === null) return null;
  return { name: name.text, defined: name, functionLike, params, variadic, body, builtin: null, disabled: 0 };
}

function parseBody(tokens: readonly Tok[], name: Tok, functionLike: boolean, params: readonly string[], report: Report): BodyItem[] | null {
  const paramIndex = (t: Tok | undefined): number => (t !== undefined && t.kind === 'ident' ? params.indexOf(t.text) : -1);
  const items: BodyItem[] = [];
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!;
    if (isHashHash(t)) {
      if (k === 0 || k === tokens.length - 1) {
        report('badDefine', tokenLocation(t), `'##' cannot appear at either end of the body of macro '${name.text}'`);
        return null;
      }
      items.push({ kind: 'paste', tok: t });
    } else if (functionLike && isHash(t)) {
      const index = paramIndex(tokens[k + 1]);
      if (index < 0) {
        report('badStringize', tokenLocation(t), `'#' is not followed by a parameter of macro '${name.text}'`);
        return null;
      }
      items.push({ kind: 'stringize', index, tok: t });
      k++;
    } else if (paramIndex(t) >= 0) {
      items.push({ kind: 'param', index: paramIndex(t), raw: false, tok: t });
    } else {
      if (t.kind === 'ident' && t.text === '__VA_ARGS__') {
        report('variadicMisuse', tokenLocation(t), `'__VA_ARGS__' can only appear in the body of a macro declared with '...'`);
      }
      items.push({ kind: 'token', tok: t });
    }
  }
  return items.map((item, k) =>
    item.kind === 'param' && (items[k - 1]?.kind === 'paste' || items[k + 1]?.kind === 'paste') ? { ...item, raw: true } : item,
  );
}

/** Whether two definitions are the same (C11 6.10.3p2): same parameters, same body tokens, same spacing. */
export function sameDefinition(a: Macro, b: Macro): boolean {
  if (a.functionLike !== b.functionLike || a.variadic !== b.variadic || a.params.join(',') !== b.params.join(',')) return false;
  if (a.body.length !== b.body.length) return false;
  return a.body.every((x, k) => {
    const y = b.body[k]!;
    return x.kind === y.kind && x.tok.text === y.tok.text && (k === 0 || x.tok.space === y.tok.space);
  });
}
