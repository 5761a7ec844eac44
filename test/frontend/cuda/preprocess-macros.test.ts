import { describe, expect, it } from 'vitest';
import { MAX_EXPANDED_TOKENS } from '../../../src/frontend/cuda/preprocess/index.js';
import { MAX_PRODUCED_PER_STATEMENT, MAX_TOKENS_PER_USE } from '../../../src/frontend/cuda/preprocess/expand.js';
import { codeLines, diagnosticsOf, pp, squash } from './preprocess-helpers.js';

describe('object-like macros', () => {
  it('replaces a name by its body, and rescans the result', () => {
    const r = pp('#define TILE 16\n#define AREA TILE * TILE\nint a = AREA;\n');
    expect(codeLines(r)).toEqual(['int a = 16 * 16;']);
    expect(r.diagnostics).toEqual([]);
  });

  it('leaves names in strings, characters and comments alone', () => {
    const r = pp('#define N 4\nconst char *s = "N"; char c = \'N\'; // N\nint n = N; /* N */\n');
    expect(codeLines(r)).toEqual(['const char *s = "N"; char c = \'N\'; // N', 'int n = 4; /* N */']);
  });

  it('an empty body removes the name; #undef ends a macro', () => {
    const r = pp('#define RESTRICT\n#define N 1\nint * RESTRICT p = N;\n#undef N\nint m = N;\n');
    expect(codeLines(r)).toEqual(['int *  p = 1;', 'int m = N;']);
  });

  it('a name defined after its use is not expanded before', () => {
    expect(codeLines(pp('int a = N;\n#define N 2\nint b = N;\n'))).toEqual(['int a = N;', 'int b = 2;']);
  });

  it('puts a space between tokens that would otherwise join', () => {
    const r = pp('#define NEG -1\n#define PLUS +\nint a = -NEG; int b = a PLUS+ 1; int c = 1 PLUS PLUS 2;\n');
    expect(codeLines(r)).toEqual(['int a = - -1; int b = a + + 1; int c = 1 + + 2;']);
  });
});

describe('function-like macros', () => {
  it('substitutes fully expanded arguments', () => {
    const r = pp('#define N 8\n#define IDX(i, j) ((i) * N + (j))\nA[IDX(ty, tx + 1)] = 0;\n');
    expect(codeLines(r)).toEqual(['A[((ty) * 8 + (tx + 1))] = 0;']);
  });

  it('a name not followed by ( is not a call, even across lines and comments', () => {
    const r = pp('#define f(x) [x]\nint f; f /* c */ (1); f\n(2);\nint g;\n');
    expect(r.text.split('\n').map((l) => l.trim())).toEqual(['', 'int f; [1]; [2];', '', 'int g;', '']);
    expect(codeLines(pp('#define f(x) [x]\nf + 1;\n'))).toEqual(['f + 1;']);
  });

  it('arguments split at top-level commas only, and may be empty', () => {
    const r = pp('#define F(a, b) <a|b>\nF((1, 2), [3]); F(, ); F(x,);\n#define G() g\nG();\n#define H(a) <a>\nH();\n');
    expect(codeLines(r)).toEqual(['<(1, 2)|[3]>; <|>; <x|>;', 'g;', '<>;']);
    expect(r.diagnostics).toEqual([]);
    // brackets and braces do not protect commas
    expect(diagnosticsOf(pp('#define F(a, b) <a|b>\nF([1, 2], 3);\n'))).toEqual(["E0505 k.cu:2:1 macro 'F' takes 2 arguments, but 3 were given"]);
  });

  it('a call may span lines; the unit keeps the line count', () => {
    const r = pp('#define ADD(a, b) a + b\nint x = ADD(1,\n  2);\nint y;\n');
    expect(r.text.split('\n')[3]).toBe('int y;');
    expect(squash(r.text)).toBe('intx=1+2;inty;');
  });

  it('# makes a string of the argument as written, escaping quotes and backslashes', () => {
    const r = pp('#define S(x) #x\nS(a  +  b); S( "q\\n" ); S(\'"\'); S();\n');
    expect(codeLines(r)).toEqual(['"a + b"; "\\"q\\\\n\\""; "\'\\"\'"; "";']);
  });

  it('## pastes tokens, before the arguments are expanded', () => {
    const r = pp('#define N 4\n#define CAT(a, b) a ## b\n#define XCAT(a, b) CAT(a, b)\nCAT(N, 1); XCAT(N, 1); CAT(x, N); CAT(<, <=); CAT(., 5);\n');
    expect(codeLines(r)).toEqual(['N1; 41; xN; <<=; .5;']);
  });

  it('a token made by ## is rescanned and may be a macro use', () => {
    const r = pp('#define CAT(a, b) a ## b\n#define BLOCK_SIZE 256\nint n = CAT(BLOCK_, SIZE);\n');
    expect(codeLines(r)).toEqual(['int n = 256;']);
  });

  it('## that does not make one token is an error; both tokens are kept', () => {
    const r = pp('#define CAT(a, b) a ## b\nCAT(x, +);\n');
    expect(codeLines(r)).toEqual(['x +;']);
    expect(diagnosticsOf(r)).toEqual(["E0514 k.cu:2:1 pasting 'x' and '+' does not give a valid preprocessing token"]);
  });

  it('variadic macros: __VA_ARGS__, named variadic parameters, an omitted variadic part, GNU , ## __VA_ARGS__', () => {
    const r = pp(
      [
        '#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)',
        '#define LOG2(fmt, args...) printf(fmt, args)',
        '#define LOG3(fmt, ...) printf(fmt, ## __VA_ARGS__)',
        '#define FIRST(...) #__VA_ARGS__',
        'LOG("%d %d", a, (b, c)); LOG2("%d", x); LOG3("none"); LOG3("%d", y); FIRST(a, b ,c); LOG("x");',
        '',
      ].join('\n'),
    );
    expect(codeLines(r)).toEqual(['printf("%d %d", a, (b, c)); printf("%d", x); printf("none"); printf("%d", y); "a, b ,c"; printf("x",);']);
    expect(r.diagnostics).toEqual([]);
  });

  it('the wrong number of arguments is an error at the use, and the text is kept', () => {
    const r = pp('#define F(a, b) a + b\nint x = F(1);\nint y = F(1, 2, 3);\n');
    expect(diagnosticsOf(r)).toEqual([
      "E0505 k.cu:2:9 macro 'F' takes 2 arguments, but 1 was given",
      "E0505 k.cu:3:9 macro 'F' takes 2 arguments, but 3 were given",
    ]);
    expect(squash(r.text)).toBe('intx=F(1);inty=F(1,2,3);');
  });

  it('an argument list that does not end in its file is an error at the use, and the text is kept', () => {
    const r = pp('#define F(a) a\nint x = F(1, \nint y;\n');
    expect(diagnosticsOf(r)).toEqual(["E0504 k.cu:2:9 unterminated argument list invoking macro 'F'"]);
    expect(squash(r.text)).toBe('intx=F(1,inty;');
  });

  it('a call inside an argument must end inside it', () => {
    const r = pp('#define ID(x) x\n#define G F(\n#define F(a) a\nID(G 1) end\n');
    expect(diagnosticsOf(r)).toEqual(["E0504 k.cu:4:4 unterminated argument list invoking macro 'F'"]);
    expect(codeLines(r)).toEqual(['F( 1 end']);
  });

  it('__FILE__ and __LINE__ give the file and line of the outermost use', () => {
    const r = pp('#define HERE __FILE__ ":" LINE_OF\n#define LINE_OF __LINE__\nint a = __LINE__;\n\nconst char *h = HERE;\n', {}, 'dir/k.cu');
    expect(codeLines(r)).toEqual(['int a = 3;', 'const char *h = "dir/k.cu" ":" 5;']);
  });

  it('calls nested more than 200 deep in arguments are an error, not a stack overflow', () => {
    const ok = pp(`#define F(x) x\nint a = ${'F('.repeat(150)}1${')'.repeat(150)};\n`);
    expect(codeLines(ok)).toEqual(['int a = 1;']);
    const deep = pp(`#define F(x) x\nint a = ${'F('.repeat(5000)}1${')'.repeat(5000)};\n`);
    // the arguments left unexpanded are rescanned at every level: quadratic, until the bound on tokens one use produces stops it
    expect(diagnosticsOf(deep)).toEqual([
      'E0517 k.cu:2:409 macro calls nested more than 200 deep in arguments: the arguments are left unexpanded',
      `E0519 k.cu:2:409 expanding 'F' passes the bound of ${MAX_TOKENS_PER_USE} tokens produced by one macro use: expansion stops here`,
    ]);
  });

  it('an exponential #define chain stops at the bound on tokens produced, an error naming the macro at its use', () => {
    // A20 alone would be 2^21 tokens: about 650 bytes of chain ran minutes and took gigabytes
    const chain = ['#define A0 x x', ...Array.from({ length: 40 }, (_, i) => `#define A${i + 1} A${i} A${i}`)].join('\n');
    const r = pp(`${chain}\nint y;\nA40\n`);
    expect(diagnosticsOf(r)).toEqual([
      `E0519 k.cu:43:1 expanding 'A2' within the expansion of 'A40' passes the bound of ${MAX_TOKENS_PER_USE} tokens produced by one macro use: expansion stops here`,
    ]);
    expect(r.text.length).toBeLessThan(4 * MAX_TOKENS_PER_USE);
    const calls = ['#define F0(x) x x', ...Array.from({ length: 40 }, (_, i) => `#define F${i + 1}(x) F${i}(F${i}(x))`)].join('\n');
    expect(diagnosticsOf(pp(`${calls}\nint y = F40(1);\n`))[0]).toMatch(/^E0519 k\.cu:42:9 expanding 'F0' within the expansion of 'F40' passes the bound/);
  });

  // A11 produces 2 + 4 + … + 2^12 = 8,190 tokens counting every replacement (4,096 in the output), A12 16,382
  const chain12 = ['#define A0 x x', ...Array.from({ length: 12 }, (_, i) => `#define A${i + 1} A${i} A${i}`)].join('\n');

  it('one use producing more than its bound is an error at the use naming the macro, under the bound of the file', () => {
    expect(pp(`${chain12}\nint y = A11;\n`).diagnostics).toEqual([]);
    const r = pp(`${chain12}\nint y = A12;\n`);
    expect(diagnosticsOf(r)).toEqual([
      `E0519 k.cu:14:9 expanding 'A0' within the expansion of 'A12' passes the bound of ${MAX_TOKENS_PER_USE} tokens produced by one macro use: expansion stops here`,
    ]);
  });

  it('macros producing more than the bound within one statement are an error: the parse of such a statement is quadratic', () => {
    expect(pp(`${chain12}\nint y = A11;\nint z = A11;\n{ A11 } A11;\n`).diagnostics).toEqual([]);
    const r = pp(`${chain12}\nint y = A11\n  + A11;\nint z = A11 + A11;\n`);
    // once per statement
    expect(diagnosticsOf(r)).toEqual([
      `E0519 k.cu:15:5 expanding 'A0' within the expansion of 'A11' passes the bound of ${MAX_PRODUCED_PER_STATEMENT} tokens produced by macros in one statement: expansion stops here`,
      `E0519 k.cu:16:15 expanding 'A0' within the expansion of 'A11' passes the bound of ${MAX_PRODUCED_PER_STATEMENT} tokens produced by macros in one statement: expansion stops here`,
    ]);
  });

  it('statements each under the bounds still stop at the bound of the file', () => {
    const r = pp(`${chain12}\n${'A11;\n'.repeat(70)}`);
    expect(diagnosticsOf(r)).toEqual([
      `E0519 k.cu:75:1 expanding 'A0' within the expansion of 'A11' passes the bound of ${MAX_EXPANDED_TOKENS} tokens produced by macros in this file: expansion stops here`,
    ]);
  });

  it('a chain well under the bound expands whole', () => {
    const chain = ['#define A0 x x', ...Array.from({ length: 10 }, (_, i) => `#define A${i + 1} A${i} A${i}`)].join('\n');
    const r = pp(`${chain}\nA10\n`);
    expect(r.diagnostics).toEqual([]);
    expect(squash(r.text)).toBe('x'.repeat(2 ** 11));
  });

  it('_Pragma is removed like #pragma', () => {
    const r = pp('#define UNROLL _Pragma("unroll")\nUNROLL for (;;) {}\n_Pragma("once") int x;\n');
    expect(codeLines(r)).toEqual(['for (;;) {}', 'int x;']);
  });
});

describe('rescanning and the blue-paint rule', () => {
  it('a macro is not expanded inside its own expansion, and such a name stays unexpanded', () => {
    const r = pp('#define foo foo\n#define bar baz + bar\n#define baz bar\nfoo; bar; baz;\n');
    expect(codeLines(r)).toEqual(['foo; bar + bar; baz + bar;']);
  });

  it('mutual recursion stops at the first repeated name', () => {
    const r = pp('#define a b + 1\n#define b a * 2\na; b;\n');
    expect(codeLines(r)).toEqual(['a * 2 + 1; b + 1 * 2;']);
  });

  it('a painted name stays painted when it is an argument of another macro', () => {
    const r = pp('#define ID(x) x\n#define f ID(f)\nf;\n');
    expect(codeLines(r)).toEqual(['f;']);
  });

  it('a function-like macro at the end of an expansion takes its arguments from the text after it', () => {
    const r = pp('#define f(a) a*g\n#define g(a) f(a)\nf(2)(9);\n');
    expect(squash(r.text)).toBe('2*9*g;');
  });

  it('follows the C standard\'s example of rescanning (C11 6.10.3.5 EXAMPLE 3)', () => {
    const r = pp(
      [
        '#define x 3',
        '#define f(a) f(x * (a))',
        '#undef x',
        '#define x 2',
        '#define g f',
        '#define z z[0]',
        '#define h g(~',
        '#define m(a) a(w)',
        '#define w 0,1',
        '#define t(a) a',
        '#define p() int',
        '#define q(x) x',
        '#define r(x,y) x ## y',
        '#define str(x) # x',
        'f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);',
        'g(x+(3,4)-w) | h 5) & m',
        '(f)^m(m);',
        'p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };',
        'char c[2][6] = { str(hello), str() };',
        '',
      ].join('\n'),
    );
    expect(squash(r.text)).toBe(
      squash(`f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
        f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
        int i[] = { 1, 23, 4, 5, };
        char c[2][6] = { "hello", "" };`),
    );
    expect(r.diagnostics).toEqual([]);
  });

  it('follows the C standard\'s examples of # and ## (EXAMPLES 4 and 5) and of variadic macros (EXAMPLE 7)', () => {
    const four = pp(
      [
        '#define str(s) # s',
        '#define xstr(s) str(s)',
        '#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \\',
        'x ## s, x ## t)',
        '#define INCFILE(n) vers ## n',
        '#define glue(a, b) a ## b',
        '#define xglue(a, b) glue(a, b)',
        '#define HIGHLOW "hello"',
        '#define LOW LOW ", world"',
        'debug(1, 2);',
        'fputs(str(strncmp("abc\\0d", "abc", \'\\4\') // this goes away',
        '== 0) str(: @\\n), s);',
        '#include xstr(INCFILE(2).h)',
        'glue(HIGH, LOW);',
        'xglue(HIGH, LOW)',
        '',
      ].join('\n'),
      { files: { 'vers2.h': 'included_vers2\n' } },
    );
    expect(codeLines(four)).toEqual([
      'printf("x" "1" "= %d, x" "2" "= %s", x1, x2);',
      'fputs("strncmp(\\"abc\\\\0d\\", \\"abc\\", \'\\\\4\') == 0" ": @\\n", s);',
      'included_vers2',
      '"hello";',
      '"hello" ", world"',
    ]);
    const five = pp('#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\nt(10,,), t(,11,), t(,,12), t(,,) };\n');
    expect(squash(five.text)).toBe(squash('int j[] = { 123, 45, 67, 89, 10, 11, 12, };'));
    const seven = pp(
      [
        '#define debug(...) fprintf(stderr, __VA_ARGS__)',
        '#define showlist(...) puts(#__VA_ARGS__)',
        '#define report(test, ...) ((test)?puts(#test):\\',
        'printf(__VA_ARGS__))',
        'debug("Flag");',
        'debug("X = %d\\n", x);',
        'showlist(The first, second, and third items.);',
        'report(x>y, "x is %d but y is %d", x, y);',
        '',
      ].join('\n'),
    );
    expect(codeLines(seven)).toEqual([
      'fprintf(stderr, "Flag");',
      'fprintf(stderr, "X = %d\\n", x);',
      'puts("The first, second, and third items.");',
      '((x>y)?puts("x>y"):printf("x is %d but y is %d", x, y));',
    ]);
    expect([...four.diagnostics, ...five.diagnostics, ...seven.diagnostics]).toEqual([]);
  });
});

describe('#define and #undef', () => {
  it('a redefinition is a warning unless it is the same definition (C11 6.10.3.5 EXAMPLE 6)', () => {
    const r = pp(
      [
        '#define OBJ_LIKE (1-1)',
        '#define OBJ_LIKE /* white space */ (1-1) /* other */',
        '#define FUNC_LIKE(a) ( a )',
        '#define FUNC_LIKE( a )( /* note the white space */ \\',
        'a /* other stuff on this line',
        '*/ )',
        '#define OBJ_LIKE (0)',
        '#define OBJ_LIKE (1 - 1)',
        '#define FUNC_LIKE(b) ( a )',
        '#define FUNC_LIKE(b) ( b )',
        '',
      ].join('\n'),
    );
    expect(diagnosticsOf(r)).toEqual([
      "W0502 k.cu:7:9 'OBJ_LIKE' redefined",
      "W0502 k.cu:8:9 'OBJ_LIKE' redefined",
      "W0502 k.cu:9:9 'FUNC_LIKE' redefined",
      "W0502 k.cu:10:9 'FUNC_LIKE' redefined",
    ]);
    expect(r.diagnostics[0]!.related.map((x) => x.message)).toEqual(['the previous definition']);
    expect(diagnosticsOf(pp('#define A (1-1)\n#define A (1 - 1)\n#define B(x) x\n#define B(y) y\n'))).toEqual([
      "W0502 k.cu:2:9 'A' redefined",
      "W0502 k.cu:4:9 'B' redefined",
    ]);
  });

  it('malformed definitions are errors at the offending token, and define nothing', () => {
    const r = pp(
      [
        '#define',
        '#define 3 x',
        '#define defined 1',
        '#define F(a, a) a',
        '#define G(a b) a',
        '#define H(a',
        '#define S(a) #b',
        '#define P(a) ## a',
        '#define Q(a) a ##',
        'F G H S P Q',
        '',
      ].join('\n'),
    );
    expect(diagnosticsOf(r)).toEqual([
      'E0503 k.cu:1:2 no macro name given in #define',
      "E0503 k.cu:2:9 macro names must be identifiers, not '3'",
      "E0503 k.cu:3:9 'defined' cannot be used as a macro name",
      "E0503 k.cu:4:14 duplicate macro parameter 'a'",
      "E0503 k.cu:5:13 expected ',' or ')' in the parameter list, found 'b'",
      "E0503 k.cu:6:11 missing ')' in the parameter list of macro 'H'",
      "E0515 k.cu:7:14 '#' is not followed by a parameter of macro 'S'",
      "E0503 k.cu:8:14 '##' cannot appear at either end of the body of macro 'P'",
      "E0503 k.cu:9:16 '##' cannot appear at either end of the body of macro 'Q'",
    ]);
    expect(codeLines(r)).toEqual(['F G H S P Q']);
  });

  it('a space between the name and ( makes an object-like macro', () => {
    expect(codeLines(pp('#define F (x) x\nF(1);\n'))).toEqual(['(x) x(1);']);
  });

  it('__VA_ARGS__ outside a variadic macro is a warning', () => {
    expect(diagnosticsOf(pp('#define F(a) __VA_ARGS__\n'))).toEqual(["W0508 k.cu:1:14 '__VA_ARGS__' can only appear in the body of a macro declared with '...'"]);
  });
});

describe('predefined and command-line macros', () => {
  it('predefines nvcc compiling device code for sm_80 in C++17', () => {
    const r = pp('__CUDACC__ __NVCC__ __CUDA_ARCH__ __cplusplus __CUDACC_VER_MAJOR__\n');
    expect(codeLines(r)).toEqual(['1 1 800 201703L 12']);
  });

  it('-D defines (as 1 without a value), in order, then -U undefines, predefined ones too', () => {
    const r = pp('A B C F(2) __CUDA_ARCH__ E\n', {
      defines: [['A', null], ['B', '2 + 3'], ['C', 'B'], ['F(x)', 'x * x'], ['E', '']],
      undefines: ['__CUDA_ARCH__'],
    });
    expect(codeLines(r)).toEqual(['1 2 + 3 2 + 3 2 * 2 __CUDA_ARCH__']);
  });

  it('a bad -D is an error located in the <command line> pseudo-file', () => {
    const r = pp('int x;\n', { defines: [['1X', 'y']] });
    expect(diagnosticsOf(r)).toEqual(["E0503 <command line>:1:9 macro names must be identifiers, not '1X'"]);
  });
});
