/**
 * The value of an #if/#elif condition (C11 6.10.1, C++17 [cpp.cond]) after
 * macro expansion and `defined`.
 *
 * Arithmetic is that of intmax_t and uintmax_t, 64 bits: every operand is a
 * signed or an unsigned 64-bit value; a binary operator converts both to
 * unsigned when either is (the usual arithmetic conversions), so `-1 < 0u` is
 * false; a shift has the type of its left operand. Signed overflow wraps
 * around with a warning (C leaves it undefined); a shift count that is
 * negative shifts the other way, one of 64 or more gives 0 (or -1 for a
 * negative signed value shifted right), as GCC does. Division or remainder by
 * zero is an error. Operands that are not evaluated (the right of `&&` when
 * the left is 0, the other arm of `?:`) report nothing. Identifiers left after
 * expansion are 0, except C++'s `true` (1) and `false` (0); C++'s named
 * operators (`and`, `or`, `not`, `bitand`, `bitor`, `xor`, `compl`, `not_eq`)
 * are operators. A character constant is an `int` of the target: `char` is
 * signed (x86/ARM Linux), so '\xff' is -1; multi-character constants pack
 * their bytes into an int. Any error makes the condition false.
 */
import type { Report } from './diagnostics.js';
import { tokenLocation } from './sourcemap.js';
import type { Tok } from './tokens.js';

export interface Integer {
  readonly value: bigint;
  readonly unsigned: boolean;
}

const MAX_SIGNED = (1n << 63n) - 1n;
const MAX_UNSIGNED = (1n << 64n) - 1n;
const ZERO: Integer = { value: 0n, unsigned: false };
const ONE: Integer = { value: 1n, unsigned: false };

const NAMED_OPERATORS: ReadonlyMap<string, string> = new Map([
  ['and', '&&'], ['or', '||'], ['not', '!'], ['bitand', '&'], ['bitor', '|'], ['xor', '^'], ['compl', '~'], ['not_eq', '!='],
]);

const BINARY_PRECEDENCE: ReadonlyMap<string, number> = new Map([
  ['*', 10], ['/', 10], ['%', 10],
  ['+', 9], ['-', 9],
  ['<<', 8], ['>>', 8],
  ['<', 7], ['>', 7], ['<=', 7], ['>=', 7],
  ['==', 6], ['!=', 6],
  ['&', 5], ['^', 4], ['|', 3], ['&&', 2], ['||', 1],
]);

class Failed extends Error {}

/** Parentheses and unary operators nest by recursion: this bounds it on pathological input. */
const MAX_NESTING = 1000;

/** The value of a condition, or null after an error (reported). */
export function evaluateCondition(tokens: readonly Tok[], report: Report, directive: Tok): Integer | null {
  if (tokens.length === 0) {
    report('badCondition', tokenLocation(directive), `#${directive.text} with no expression`);
    return null;
  }
  const parser = new ConditionParser(tokens, report);
  try {
    const value = parser.comma(true);
    if (parser.peek() !== null) parser.fail(parser.peek()!, `missing binary operator before '${parser.peek()!.text}'`);
    return value;
  } catch (e) {
    if (e instanceof Failed) return null;
    throw e;
  }
}

function operatorOf(t: Tok): string | null {
  if (t.kind === 'punct') return t.text;
  if (t.kind === 'ident') return NAMED_OPERATORS.get(t.text) ?? null;
  return null;
}

class ConditionParser {
  private i = 0;
  private depth = 0;

  constructor(
    private readonly tokens: readonly Tok[],
    private readonly report: Report,
  ) {}

  peek(): Tok | null {
    return this.tokens[this.i] ?? null;
  }

  fail(at: Tok | null, message: string): never {
    const where = at ?? this.tokens[this.tokens.length - 1]!;
    this.report('badCondition', tokenLocation(where), at === null ? `${message} at the end of the expression` : message);
    throw new Failed();
  }

  private peekOperator(): string | null {
    const t = this.peek();
    return t === null ? null : operatorOf(t);
  }

  private expect(op: string): void {
    const t = this.peek();
    if (t === null || operatorOf(t) !== op) this.fail(t, `expected '${op}'`);
    this.i++;
  }

  comma(evaluated: boolean): Integer {
    let value = this.conditional(evaluated);
    while (this.peekOperator() === ',') {
      this.i++;
      value = this.conditional(evaluated);
    }
    return value;
  }

  private conditional(evaluated: boolean): Integer {
    const test = this.binary(1, evaluated);
    if (this.peekOperator() !== '?') return test;
    this.i++;
    const truth = test.value !== 0n;
    const yes = this.comma(evaluated && truth);
    this.expect(':');
    const no = this.conditional(evaluated && !truth);
    const unsigned = yes.unsigned || no.unsigned;
    return convert(truth ? yes : no, unsigned);
  }

  private binary(minimum: number, evaluated: boolean): Integer {
    let left = this.unary(evaluated);
    for (;;) {
      const opTok = this.peek();
      const op = opTok === null ? null : operatorOf(opTok);
      const precedence = op === null ? undefined : BINARY_PRECEDENCE.get(op);
      if (precedence === undefined || precedence < minimum) return left;
      this.i++;
      if (op === '&&' || op === '||') {
        const decided = op === '&&' ? left.value === 0n : left.value !== 0n;
        const right = this.binary(precedence + 1, evaluated && !decided);
        left = decided ? (op === '&&' ? ZERO : ONE) : truthOf(right.value !== 0n);
        continue;
      }
      const right = this.binary(precedence + 1, evaluated);
      left = this.apply(op!, left, right, opTok!, evaluated);
    }
  }

  private unary(evaluated: boolean): Integer {
    if (++this.depth > MAX_NESTING) {
      const at = this.peek() ?? this.tokens[this.tokens.length - 1]!;
      this.report('tooDeep', tokenLocation(at), `#if expression nested more than ${MAX_NESTING} deep`);
      throw new Failed();
    }
    try {
      return this.unaryAt(evaluated);
    } finally {
      this.depth--;
    }
  }

  private unaryAt(evaluated: boolean): Integer {
    const t = this.peek();
    if (t === null) return this.fail(null, 'expected a value');
    const op = operatorOf(t);
    if (op === '+' || op === '-' || op === '~' || op === '!') {
      this.i++;
      const v = this.unary(evaluated);
      switch (op) {
        case '+':
          return v;
        case '!':
          return truthOf(v.value === 0n);
        case '~':
          return fit(~v.value, v.unsigned);
        case '-':
          return this.checked(-v.value, v.unsigned, t, evaluated);
      }
    }
    return this.primary(evaluated);
  }

  private primary(evaluated: boolean): Integer {
    const t = this.peek()!;
    this.i++;
    switch (t.kind) {
      case 'number': {
        const n = parseInteger(t.text);
        if (typeof n === 'string') return this.fail(t, n);
        if (n.unsigned && !/[uU]/.test(t.text) && !/^0[xXbB0-7]/.test(t.text) && evaluated) {
          this.report('largeConstant', tokenLocation(t), `integer constant ${t.text} is so large that it is unsigned`);
        }
        return n;
      }
      case 'char': {
        const n = characterValue(t.text);
        return typeof n === 'string' ? this.fail(t, n) : n;
      }
      case 'ident': {
        if (NAMED_OPERATORS.has(t.text)) return this.fail(t, `expected a value before '${t.text}'`);
        const next = this.peek();
        if (next !== null && next.kind === 'punct' && next.text === '(') {
          return this.fail(t, `'${t.text}' is not a defined function-like macro`);
        }
        return t.text === 'true' ? ONE : ZERO;
      }
      case 'punct':
        if (t.text === '(') {
          const v = this.comma(evaluated);
          this.expect(')');
          return v;
        }
        return this.fail(t, `'${t.text}' is not valid in a preprocessor expression`);
      case 'string':
        return this.fail(t, 'a string literal is not valid in a preprocessor expression');
      default:
        return this.fail(t, `'${t.text}' is not valid in a preprocessor expression`);
    }
  }

  private apply(op: string, a: Integer, b: Integer, at: Tok, evaluated: boolean): Integer {
    if (op === '<<' || op === '>>') return this.shift(op, a, b, at, evaluated);
    const unsigned = a.unsigned || b.unsigned;
    const x = convert(a, unsigned).value;
    const y = convert(b, unsigned).value;
    switch (op) {
      case '*':
        return this.checked(x * y, unsigned, at, evaluated);
      case '/':
      case '%':
        if (y === 0n) {
          if (!evaluated) return { value: 0n, unsigned };
          this.report('divisionByZero', tokenLocation(at), op === '/' ? 'division by zero in #if' : 'remainder by zero in #if');
          throw new Failed();
        }
        return this.checked(op === '/' ? x / y : x % y, unsigned, at, evaluated);
      case '+':
        return this.checked(x + y, unsigned, at, evaluated);
      case '-':
        return this.checked(x - y, unsigned, at, evaluated);
      case '<':
        return truthOf(x < y);
      case '>':
        return truthOf(x > y);
      case '<=':
        return truthOf(x <= y);
      case '>=':
        return truthOf(x >= y);
      case '==':
        return truthOf(x === y);
      case '!=':
        return truthOf(x !== y);
      case '&':
        return fit(x & y, unsigned);
      case '^':
        return fit(x ^ y, unsigned);
      case '|':
        return fit(x | y, unsigned);
      default:
        return this.fail(at, `'${op}' is not valid in a preprocessor expression`);
    }
  }

  private shift(op: '<<' | '>>', a: Integer, b: Integer, at: Tok, evaluated: boolean): Integer {
    let count = b.value;
    let left = op === '<<';
    if (!b.unsigned && count < 0n) {
      count = -count;
      left = !left;
    }
    if (left) {
      if (count >= 64n) return this.checked(a.value === 0n ? 0n : a.value << 64n, a.unsigned, at, evaluated);
      return this.checked(a.value << count, a.unsigned, at, evaluated);
    }
    if (count >= 64n) return { value: !a.unsigned && a.value < 0n ? -1n : 0n, unsigned: a.unsigned };
    return { value: a.value >> count, unsigned: a.unsigned };
  }

  /** The exact result wrapped to its type; a signed result that did not fit is reported. */
  private checked(exact: bigint, unsigned: boolean, at: Tok, evaluated: boolean): Integer {
    const v = fit(exact, unsigned);
    if (!unsigned && v.value !== exact && evaluated) {
      this.report('overflow', tokenLocation(at), `integer overflow in preprocessor expression: the value wraps to ${v.value}`);
    }
    return v;
  }
}

function truthOf(b: boolean): Integer {
  return b ? ONE : ZERO;
}

function fit(value: bigint, unsigned: boolean): Integer {
  return { value: unsigned ? BigInt.asUintN(64, value) : BigInt.asIntN(64, value), unsigned };
}

function convert(v: Integer, unsigned: boolean): Integer {
  return v.unsigned === unsigned ? v : fit(v.value, unsigned);
}

const INTEGER = /^(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)([a-zA-Z_]*)$/;
const INTEGER_SUFFIX = /^(?:[uU]?(?:l|L|ll|LL)?|(?:l|L|ll|LL)[uU])$/;

/** The value of an integer constant, or why it is not one. */
export function parseInteger(spelling: string): Integer | string {
  const text = spelling.replace(/'/g, '');
  const m = INTEGER.exec(text);
  if (m === null) {
    const floating = /^[0-9]*\.|^[0-9]+[eE][+-]?[0-9]|^0[xX][0-9a-fA-F.]*[pP]/.test(text);
    return floating ? `floating constant ${spelling} in preprocessor expression` : `invalid integer constant ${spelling}`;
  }
  const [, digits, suffix] = m as unknown as [string, string, string];
  if (!INTEGER_SUFFIX.test(suffix)) return `invalid suffix '${suffix}' on integer constant ${spelling}`;
  const value = digits.length > 1 && digits[0] === '0' && /[0-7]/.test(digits[1]!) ? BigInt(`0o${digits.slice(1)}`) : BigInt(digits);
  if (value > MAX_UNSIGNED) return `integer constant ${spelling} is too large for any integer type`;
  return { value, unsigned: /[uU]/.test(suffix) || value > MAX_SIGNED };
}

const SIMPLE_ESCAPES: ReadonlyMap<string, number> = new Map([
  ['n', 10], ['t', 9], ['v', 11], ['b', 8], ['r', 13], ['f', 12], ['a', 7], ['\\', 92], ['?', 63], ["'", 39], ['"', 34], ['e', 27],
]);

/** What a character constant's body denotes: bytes (ASCII characters, octal and \\x escapes) or code points (other characters, \\u, \\U). */
interface Unit {
  readonly value: number;
  readonly byte: boolean;
}

function decodeCharacters(body: string): Unit[] | string {
  const out: Unit[] = [];
  for (let i = 0; i < body.length; ) {
    if (body[i] !== '\\') {
      const cp = body.codePointAt(i)!;
      out.push({ value: cp, byte: cp < 0x80 });
      i += cp > 0xffff ? 2 : 1;
      continue;
    }
    const e = body[i + 1] ?? '';
    const simple = SIMPLE_ESCAPES.get(e);
    if (simple !== undefined) {
      out.push({ value: simple, byte: true });
      i += 2;
    } else if (/[0-7]/.test(e)) {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i + 1))![0];
      out.push({ value: parseInt(digits, 8), byte: true });
      i += 1 + digits.length;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const m = (e === 'x' ? /^[0-9a-fA-F]+/ : e === 'u' ? /^[0-9a-fA-F]{4}/ : /^[0-9a-fA-F]{8}/).exec(body.slice(i + 2));
      if (m === null) return `invalid escape sequence \\${e} in character constant`;
      out.push({ value: Number(BigInt(`0x${m[0]}`) & 0xffffffffn), byte: e === 'x' });
      i += 2 + m[0].length;
    } else return `unknown escape sequence \\${e} in character constant`;
  }
  return out;
}

/** The value of a character constant (an int of the target), or why it has none. */
export function characterValue(spelling: string): Integer | string {
  const open = spelling.indexOf("'");
  const close = spelling.lastIndexOf("'");
  if (close !== spelling.length - 1) return 'a character constant with a suffix is not valid in a preprocessor expression';
  const prefix = spelling.slice(0, open);
  const units = decodeCharacters(spelling.slice(open + 1, close));
  if (typeof units === 'string') return units;
  if (units.length === 0) return 'empty character constant';
  if (prefix === 'L' || prefix === 'u' || prefix === 'U') {
    const last = BigInt(units[units.length - 1]!.value);
    const v = prefix === 'u' ? last & 0xffffn : last & 0xffffffffn;
    return { value: prefix === 'L' ? BigInt.asIntN(32, v) : v, unsigned: false };
  }
  const bytes = units.flatMap((u) => (u.byte || u.value > 0x10ffff ? [u.value & 0xff] : utf8(u.value)));
  if (bytes.length === 1) return { value: BigInt.asIntN(8, BigInt(bytes[0]!)), unsigned: false };
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return { value: BigInt.asIntN(32, v), unsigned: false };
}

function utf8(cp: number): number[] {
  if (cp < 0x800) return [0xc0 | (cp >> 6), 0x80 | (cp & 63)];
  if (cp < 0x10000) return [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
  return [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
}
