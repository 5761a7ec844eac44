import { describe, expect, it } from 'vitest';
import { codeLines, diagnosticsOf, pp } from './preprocess-helpers.js';

/** Whether `#if <condition>` keeps its group, and the diagnostics. */
function holds(condition: string, defines: readonly (readonly [string, string | null])[] = []): { value: boolean; diagnostics: string[] } {
  const r = pp(`#if ${condition}\nyes\n#else\nno\n#endif\n`, { defines });
  const lines = codeLines(r);
  expect(lines.length).toBe(1);
  return { value: lines[0] === 'yes', diagnostics: diagnosticsOf(r) };
}

function value(condition: string): boolean {
  const { value: v, diagnostics } = holds(condition);
  expect(diagnostics).toEqual([]);
  return v;
}

describe('#if expressions', () => {
  it('integer arithmetic with C precedence and associativity', () => {
    expect(value('1 + 2 * 3 == 7')).toBe(true);
    expect(value('(1 + 2) * 3 == 9')).toBe(true);
    expect(value('10 - 3 - 2 == 5')).toBe(true);
    expect(value('7 / 2 == 3 && -7 / 2 == -3 && -7 % 3 == -1 && 7 % -3 == 1')).toBe(true);
    expect(value('1 << 4 == 16 && 256 >> 4 == 16 && -16 >> 2 == -4')).toBe(true);
    expect(value('(6 & 3) == 2 && (6 | 3) == 7 && (6 ^ 3) == 5 && ~0 == -1')).toBe(true);
    expect(value('!0 && !!5 == 1 && -(-3) == 3 && +4 == 4')).toBe(true);
    expect(value('1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 4 == 0 && 1 != 2')).toBe(true);
    expect(value('1 ? 2 : 0')).toBe(true);
    expect(value('0 ? 1 : 0 ? 1 : 0')).toBe(false);
    expect(value('(0, 1)')).toBe(true);
  });

  it('constants: octal, hexadecimal, binary, suffixes, digit separators, characters', () => {
    expect(value('010 == 8 && 0x1F == 31 && 0b101 == 5 && 1\'000 == 1000')).toBe(true);
    expect(value('10u == 10 && 10UL == 10 && 10ll == 10 && 10LLU == 10')).toBe(true);
    expect(value("'a' == 97 && '\\n' == 10 && '\\0' == 0 && '\\x41' == 65 && '\\101' == 65")).toBe(true);
    expect(value("'\\xff' == -1 && u'\\xff' == 255 && L'A' == 65 && 'ab' == 24930")).toBe(true);
  });

  it('signed and unsigned 64-bit values follow the usual arithmetic conversions', () => {
    expect(value('-1 < 0')).toBe(true);
    expect(value('-1 < 0u')).toBe(false);
    expect(value('-1 > 0u')).toBe(true);
    expect(value('0u - 1 == 18446744073709551615u')).toBe(true);
    expect(value('0xFFFFFFFFFFFFFFFF == -1')).toBe(true);
    expect(value('0x7FFFFFFFFFFFFFFF > 0')).toBe(true);
    expect(value('(1 ? -1 : 0u) > 0')).toBe(true);
    expect(value('-1u >> 63 == 1 && -1 >> 63 == -1')).toBe(true);
  });

  it('signed overflow wraps, with a warning where it happens', () => {
    const { value: v, diagnostics } = holds('0x7FFFFFFFFFFFFFFF + 1 < 0');
    expect(v).toBe(true);
    expect(diagnostics).toEqual(['W0504 k.cu:1:24 integer overflow in preprocessor expression: the value wraps to -9223372036854775808']);
    expect(holds('18446744073709551615 == -1').diagnostics).toEqual(['W0507 k.cu:1:5 integer constant 18446744073709551615 is so large that it is unsigned']);
  });

  it('defined NAME and defined(NAME), also when a macro expands to them', () => {
    expect(holds('defined X && defined(Y) && !defined Z', [['X', null], ['Y', '0']]).value).toBe(true);
    expect(holds('defined(X) || defined Y').value).toBe(false);
    expect(holds('HAS_X', [['X', null], ['HAS_X', 'defined(X)']]).value).toBe(true);
    expect(value('defined __CUDACC__ && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700')).toBe(true);
  });

  it('macros are expanded; identifiers left are 0, except true and false', () => {
    expect(holds('N * 2 == 16', [['N', '8']]).value).toBe(true);
    expect(holds('SQ(3) == 9', [['SQ(x)', '((x) * (x))']]).value).toBe(true);
    expect(value('UNDEFINED == 0 && !UNDEFINED')).toBe(true);
    expect(value('true && !false')).toBe(true);
    expect(value('1 and not 0 and (1 bitor 2) == 3')).toBe(true);
  });

  it('unevaluated operands report nothing: 0 && 1/0, 1 || 1/0, 0 ? 1/0 : 1', () => {
    expect(value('0 && 1 / 0')).toBe(false);
    expect(value('1 || 1 / 0')).toBe(true);
    expect(value('0 ? 1 / 0 : 1')).toBe(true);
    expect(value('0 && 0x7FFFFFFFFFFFFFFF + 1')).toBe(false);
  });

  it('__has_include is defined (for #ifdef and defined), and is true for a header that would be found', () => {
    expect(codeLines(pp('#ifdef __has_include\na\n#endif\n#if defined(__has_include)\nb\n#endif\n'))).toEqual(['a', 'b']);
    const files = { 'here.h': '', 'inc/there.h': '' };
    const r = pp('#if __has_include("here.h") && __has_include(<there.h>) && !__has_include("nowhere.h") && !__has_include(<cuda_runtime.h>)\nyes\n#endif\n', {
      files,
      includeDirs: ['inc'],
    });
    expect(codeLines(r)).toEqual(['yes']);
    expect(r.diagnostics).toEqual([]);
  });

  it('errors are reported where they are, and make the condition false', () => {
    const cases: [string, string][] = [
      ['1 / 0', 'E0507 k.cu:1:7 division by zero in #if'],
      ['2 % (1 - 1)', 'E0507 k.cu:1:7 remainder by zero in #if'],
      ['', 'E0506 k.cu:1:2 #if with no expression'],
      ['1 +', "E0506 k.cu:1:7 expected a value at the end of the expression"],
      ['(1', "E0506 k.cu:1:6 expected ')' at the end of the expression"],
      ['1 2', "E0506 k.cu:1:7 missing binary operator before '2'"],
      ['1.5 > 1', 'E0506 k.cu:1:5 floating constant 1.5 in preprocessor expression'],
      ['08', 'E0506 k.cu:1:5 invalid integer constant 08'],
      ['1x', "E0506 k.cu:1:5 invalid suffix 'x' on integer constant 1x"],
      ['"s"', 'E0506 k.cu:1:5 a string literal is not valid in a preprocessor expression'],
      ['x = 1', "E0506 k.cu:1:7 missing binary operator before '='"],
      ['defined', "E0506 k.cu:1:5 operator 'defined' requires an identifier"],
      ['defined(X', "E0506 k.cu:1:13 missing ')' after 'defined(X'"],
      ['F(1)', "E0506 k.cu:1:5 'F' is not a defined function-like macro"],
      ['99999999999999999999', 'E0506 k.cu:1:5 integer constant 99999999999999999999 is too large for any integer type'],
    ];
    for (const [condition, diagnostic] of cases) {
      const { value: v, diagnostics } = holds(condition);
      expect({ condition, v, diagnostics }).toEqual({ condition, v: false, diagnostics: [diagnostic] });
    }
  });

  it('an expression nested more than 1000 deep is an error, not a stack overflow', () => {
    expect(value(`${'('.repeat(900)}1${')'.repeat(900)}`)).toBe(true);
    expect(holds(`${'('.repeat(5000)}1${')'.repeat(5000)}`).diagnostics).toEqual(['E0517 k.cu:1:1005 #if expression nested more than 1000 deep']);
    expect(holds(`${'~ '.repeat(3000)}1`).diagnostics).toEqual(['E0517 k.cu:1:2005 #if expression nested more than 1000 deep']);
  });

  it('an error inside a macro is located at the outermost use', () => {
    const r = pp('#define BAD (1 / 0)\n#if 1 + BAD\n#endif\n');
    expect(diagnosticsOf(r)).toEqual(['E0507 k.cu:2:9 division by zero in #if']);
    expect(r.diagnostics[0]!.at.expansions.map((u) => u.name)).toEqual(['BAD']);
  });
});

describe('conditional groups', () => {
  it('#ifdef, #ifndef, #elif chains and #else take exactly one group', () => {
    const text = '#ifdef A\na\n#elif B == 1\nb\n#elif B == 2\nb2\n#else\nnone\n#endif\n#ifndef A\nnot_a\n#endif\n';
    expect(codeLines(pp(text))).toEqual(['none', 'not_a']);
    expect(codeLines(pp(text, { defines: [['A', null]] }))).toEqual(['a']);
    expect(codeLines(pp(text, { defines: [['B', '2']] }))).toEqual(['b2', 'not_a']);
    expect(codeLines(pp(text, { defines: [['B', '1']] }))).toEqual(['b', 'not_a']);
  });

  it('nested groups inside a skipped group are skipped whatever their conditions', () => {
    const r = pp('#if 0\n#if 1\nin\n#else\nelse\n#endif\n#elif 1\nyes\n#endif\n');
    expect(codeLines(r)).toEqual(['yes']);
  });

  it('an #elif after a taken group is not evaluated', () => {
    const r = pp('#if 1\nyes\n#elif 1 / 0\nno\n#endif\n');
    expect(codeLines(r)).toEqual(['yes']);
    expect(r.diagnostics).toEqual([]);
  });

  it('skipped groups may hold anything: no directives act, no diagnostics', () => {
    const r = pp("#if 0\n#error no\n#include \"missing.h\"\n#define X 1\n#bogus\ndon't \"unterminated\n#endif\nX\n");
    expect(codeLines(r)).toEqual(['X']);
    expect(r.diagnostics).toEqual([]);
  });

  it('a directive inside a comment is not a directive; a comment before # is', () => {
    expect(codeLines(pp('/*\n#define X 1\n*/ X\n/* c */ # define Y 2\nY\n'))).toEqual(['/*', '#define X 1', '*/ X', '2']);
  });

  it('directives may be indented and continued with backslash-newline', () => {
    expect(codeLines(pp('  #  define  LONG 1 + \\\n  2\n\t#if LONG == 3\nyes\n  #endif\n'))).toEqual(['yes']);
  });

  it('unbalanced directives are errors at the directive', () => {
    const r = pp('#else\n#elif 1\n#endif\n#if 1\n#else\n#else\n#elif 1\n#endif\n#ifdef A\n#if 1\n');
    expect(diagnosticsOf(r)).toEqual([
      'E0508 k.cu:1:1 #else without #if',
      'E0508 k.cu:2:1 #elif without #if',
      'E0508 k.cu:3:1 #endif without #if',
      'E0508 k.cu:6:1 #else after #else',
      'E0508 k.cu:7:1 #elif after #else',
      'E0509 k.cu:9:1 unterminated conditional directive: no #endif in this file',
      'E0509 k.cu:10:1 unterminated conditional directive: no #endif in this file',
    ]);
    expect(r.diagnostics[3]!.related.map((x) => x.message)).toEqual(['the #else']);
  });

  it('a group after a second #else is skipped', () => {
    expect(codeLines(pp('#if 0\n#else\nsecond\n#else\nthird\n#endif\n'))).toEqual(['second']);
  });

  it('extra tokens after #ifdef, #else, #endif and #undef are a warning', () => {
    const r = pp('#ifdef A B\n#else junk\n#endif A\n#undef A B\n');
    expect(diagnosticsOf(r)).toEqual([
      'W0503 k.cu:1:10 extra tokens at the end of #ifdef',
      'W0503 k.cu:2:7 extra tokens at the end of #else',
      'W0503 k.cu:3:8 extra tokens at the end of #endif',
      'W0503 k.cu:4:10 extra tokens at the end of #undef',
    ]);
  });

  it('#ifdef without a name is an error, and its group is skipped', () => {
    const r = pp('#ifdef\nin\n#endif\n#ifndef 3\nin\n#endif\nout\n');
    expect(codeLines(r)).toEqual(['out']);
    expect(diagnosticsOf(r)).toEqual(['E0503 k.cu:1:2 no macro name given in #ifdef', "E0503 k.cu:4:9 macro names must be identifiers, not '3'"]);
  });

  it('an unterminated conditional in an included file is reported there, and does not reach the includer', () => {
    const r = pp('#include "a.h"\nafter\n', { files: { 'a.h': '#if 1\nin_a\n' } });
    expect(codeLines(r)).toEqual(['in_a', 'after']);
    expect(diagnosticsOf(r)).toEqual(['E0509 a.h:1:1 unterminated conditional directive: no #endif in this file']);
  });
});

describe('other directives', () => {
  it('#error is an error and #warning a warning, with their text; preprocessing goes on', () => {
    const r = pp('#error tile   size "too" big\n#warning check me\nint x;\n');
    expect(diagnosticsOf(r)).toEqual(['E0512 k.cu:1:1 #error tile size "too" big', 'W0501 k.cu:2:1 #warning check me']);
    expect(codeLines(r)).toEqual(['int x;']);
  });

  it('#pragma is ignored (and removed), #line with a note, unknown directives are errors', () => {
    const r = pp('#pragma unroll\n#pragma GCC diagnostic push\n#line 10 "x.cu"\n# 20 "y.cu"\n#foo bar\n#include_next <x.h>\n#\n#!\nint x;\n');
    expect(codeLines(r)).toEqual(['int x;']);
    expect(diagnosticsOf(r)).toEqual([
      'W0505 k.cu:3:1 #line is ignored: positions are reported in the files as written',
      'W0505 k.cu:4:1 #line is ignored: positions are reported in the files as written',
      "E0502 k.cu:5:1 unknown preprocessing directive '#foo'",
      'E0502 k.cu:6:1 #include_next is not supported',
      "E0502 k.cu:8:1 invalid preprocessing directive '#!'",
    ]);
  });
});
