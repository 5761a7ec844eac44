import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { positionAt, spanText } from '../../src/core/source.js';
import { DiagnosticError, type Diagnostic } from '../../src/diagnostics/diagnostic.js';
import type { BExpr, Expr, Kernel, Program, Stmt } from '../../src/core/ast.js';

function parse(text: string): Program {
  return parseProgram('t.bcu', text);
}

function kernelOf(text: string): Kernel {
  const p = parse(text);
  expect(p.kernels).toHaveLength(1);
  return p.kernels[0]!;
}

/** The body of `kernel k(N, M) { shared A; global B; <body> }`. */
function body(stmts: string): readonly Stmt[] {
  return kernelOf(`kernel k(N, M) { shared A; global B; ${stmts} }`).body;
}

/** Fully parenthesised form of an expression, to check the tree shape. */
function sx(e: Expr): string {
  switch (e.kind) {
    case 'nat':
      return e.value.toString();
    case 'var':
      return e.name;
    case 'builtin':
      return `${e.name}.${e.axis}`;
    case 'binary':
      return `(${sx(e.left)} ${e.op} ${sx(e.right)})`;
    case 'int':
    case 'cast':
    case 'ite':
      throw new Error(`the BabyCUDA parser never builds a '${e.kind}'`);
  }
}

function bsx(c: BExpr): string {
  switch (c.kind) {
    case 'bool':
      return String(c.value);
    case 'cmp':
      return `(${sx(c.left)} ${c.op} ${sx(c.right)})`;
    case 'and':
      return `(${bsx(c.left)} && ${bsx(c.right)})`;
    case 'or':
      return `(${bsx(c.left)} || ${bsx(c.right)})`;
    case 'not':
      return `!${bsx(c.operand)}`;
  }
}

/** The expression `e` as the value of a write. */
function expr(e: string): string {
  const [s] = body(`A[0] := ${e}`);
  if (s?.kind !== 'write') throw new Error('expected a write');
  return sx(s.value);
}

function cond(c: string): string {
  const [s] = body(`if ${c} { skip }`);
  if (s?.kind !== 'if') throw new Error('expected an if');
  return bsx(s.cond);
}

function syntaxError(text: string): Diagnostic {
  try {
    parse(text);
  } catch (e) {
    if (!(e instanceof DiagnosticError)) throw e;
    expect(e.diagnostics).toHaveLength(1);
    return e.diagnostics[0]!;
  }
  throw new Error(`expected a syntax error for: ${text}`);
}

describe('statements', () => {
  it('parses skip, sync, syncwarp, write, read, pure let and assume', () => {
    const stmts = body('skip; sync; syncwarp; A[tid] := N + 1; let v = A[0] in skip; let w = N * 2 in B[w] := v; assume N > 0');
    expect(stmts.map((s) => s.kind)).toEqual(['skip', 'sync', 'syncwarp', 'write', 'read', 'let', 'assume']);
    const w = stmts[3]!;
    if (w.kind !== 'write') throw new Error();
    expect(w.array.text).toBe('A');
    expect(w.index.map(sx)).toEqual(['threadIdx.x']);
    expect(sx(w.value)).toBe('(N + 1)');
    const r = stmts[4]!;
    if (r.kind !== 'read') throw new Error();
    expect(r.local.text).toBe('v');
    expect(r.array.text).toBe('A');
    expect(r.index.map(sx)).toEqual(['0']);
    expect(r.body.kind).toBe('skip');
    const l = stmts[5]!;
    if (l.kind !== 'let') throw new Error();
    expect(l.local.text).toBe('w');
    expect(sx(l.value)).toBe('(N * 2)');
    expect(l.body.kind).toBe('write');
    const a = stmts[6]!;
    if (a.kind !== 'assume') throw new Error();
    expect(bsx(a.cond)).toBe('(N > 0)');
  });

  it('reads `let x = A[i]` as a read and `let x = A` (no index) as a pure let', () => {
    const [r] = body('let x = A[1][2] in skip');
    expect(r?.kind).toBe('read');
    if (r?.kind === 'read') expect(r.index.map(sx)).toEqual(['1', '2']);
    const [l] = body('let x = N in skip');
    expect(l?.kind).toBe('let');
  });

  it('parses multi-dimensional writes and reads', () => {
    const [w] = body('A[tid][N][threadIdx.y] := 0');
    if (w?.kind !== 'write') throw new Error();
    expect(w.index.map(sx)).toEqual(['threadIdx.x', 'N', 'threadIdx.y']);
  });

  it('parses if with and without else; without else is null', () => {
    const [withElse, without] = body('if (tid = 0) { A[0] := 1 } else { skip; skip }; if N < 2 { sync }');
    if (withElse?.kind !== 'if' || without?.kind !== 'if') throw new Error();
    expect(withElse.then.map((s) => s.kind)).toEqual(['write']);
    expect(withElse.else?.map((s) => s.kind)).toEqual(['skip', 'skip']);
    expect(without.else).toBeNull();
    expect(without.then.map((s) => s.kind)).toEqual(['sync']);
  });

  it('accepts a trailing `;` in the body and in blocks', () => {
    expect(body('skip;').map((s) => s.kind)).toEqual(['skip']);
    expect(body('if (tid = 0) { skip; } else { sync; };').map((s) => s.kind)).toEqual(['if']);
    expect(() => parse('kernel k() { skip;; }')).toThrow(DiagnosticError);
  });

  it('reads `let` bodies as one statement, the rest of the block following with `;`', () => {
    const stmts = body('let v = A[0] in A[1] := v; A[2] := 0');
    expect(stmts.map((s) => s.kind)).toEqual(['read', 'write']);
  });
});

describe('loops', () => {
  const loop = (text: string): Extract<Stmt, { kind: 'for' }> => {
    const [s] = body(text);
    if (s?.kind !== 'for') throw new Error('expected a loop');
    return s;
  };
  const shape = (text: string): [string, string, string, string, string | null] => {
    const l = loop(text);
    return [l.var.text, sx(l.from), sx(l.to), l.direction, l.step ? `${l.step.op} ${sx(l.step.amount)}` : null];
  };

  it('parses all six loop forms', () => {
    expect(shape('for i in 0..N { skip }')).toEqual(['i', '0', 'N', 'up', null]);
    expect(shape('for i in 1..N step + 2 { skip }')).toEqual(['i', '1', 'N', 'up', '+ 2']);
    expect(shape('for i in 1..N step * M { skip }')).toEqual(['i', '1', 'N', 'up', '* M']);
    expect(shape('for i in N downto 0 { skip }')).toEqual(['i', 'N', '0', 'down', null]);
    expect(shape('for i in N downto 1 step - 3 { skip }')).toEqual(['i', 'N', '1', 'down', '- 3']);
    expect(shape('for i in N downto 1 step / 2 { skip }')).toEqual(['i', 'N', '1', 'down', '/ 2']);
  });

  it('parses expressions as bounds and the step amount', () => {
    expect(shape('for i in N + 1..M * 2 step + (N - 1) { skip }')).toEqual(['i', '(N + 1)', '(M * 2)', 'up', '+ (N - 1)']);
  });

  it('keeps the loop body', () => {
    const l = loop('for i in 0..N { A[i] := 1; sync }');
    expect(l.body.map((s) => s.kind)).toEqual(['write', 'sync']);
  });

  it('rejects a downward step on an upward loop and vice versa', () => {
    expect(() => parse('kernel k(N) { for i in 0..N step - 1 { skip } }')).toThrow(DiagnosticError);
    expect(() => parse('kernel k(N) { for i in N downto 0 step * 2 { skip } }')).toThrow(DiagnosticError);
  });
});

describe('kernel header', () => {
  it('parses parameters, several kernels, requires clauses and declarations', () => {
    const p = parse(`
      kernel a(N, M) requires N > 0 requires M <= N && N < 100 {
        shared A[N], S;
        global G[N][M];
        skip
      }
      kernel b() { skip }`);
    expect(p.kernels.map((k) => k.name.text)).toEqual(['a', 'b']);
    const a = p.kernels[0]!;
    expect(a.params.map((x) => x.text)).toEqual(['N', 'M']);
    expect(a.requires.map(bsx)).toEqual(['(N > 0)', '((M <= N) && (N < 100))']);
    expect(a.arrays.map((d) => [d.name.text, d.scope, d.sizes.map(sx)])).toEqual([
      ['A', 'shared', ['N']],
      ['S', 'shared', []],
      ['G', 'global', ['N', 'M']],
    ]);
    expect(p.kernels[1]!.params).toEqual([]);
    expect(a.launch).toBeNull();
  });

  it('parses a launch clause with scalar dims', () => {
    const k = kernelOf('kernel k(N) <<<2, N * 32>>> { skip }');
    expect(k.launch).not.toBeNull();
    expect(sx(k.launch!.grid.x)).toBe('2');
    expect(k.launch!.grid.y).toBeNull();
    expect(k.launch!.grid.z).toBeNull();
    expect(sx(k.launch!.block.x)).toBe('(N * 32)');
    expect(k.launch!.block.y).toBeNull();
  });

  it('parses a launch clause with tuple dims of two and three components', () => {
    const k = kernelOf('kernel k(N) <<<(N, 2), (32, 4, 1)>>> requires N > 1 { skip }');
    const { grid, block } = k.launch!;
    expect([sx(grid.x), grid.y && sx(grid.y), grid.z]).toEqual(['N', '2', null]);
    expect([sx(block.x), block.y && sx(block.y), block.z && sx(block.z)]).toEqual(['32', '4', '1']);
    expect(k.requires.map(bsx)).toEqual(['(N > 1)']);
  });

  it('skips line and block comments anywhere', () => {
    const k = kernelOf(`// leading comment
      kernel /* inline */ k(N) {
        shared A; // trailing
        /* multi
           line */ A[tid] := /* in an expression */ N
      }
      // end`);
    expect(k.body.map((s) => s.kind)).toEqual(['write']);
  });
});

describe('expressions', () => {
  it('follows C precedence for | ^ & << >> + - * / %', () => {
    expect(expr('a | b ^ c & d << 1 + 2 * 3'.replace(/[abcd]/g, 'N'))).toBe('(N | (N ^ (N & (N << (1 + (2 * 3))))))');
    expect(expr('N * 2 + M / 3 - N % 4')).toBe('(((N * 2) + (M / 3)) - (N % 4))');
    expect(expr('N >> 1 << 2')).toBe('((N >> 1) << 2)');
    expect(expr('N & M | N ^ M')).toBe('((N & M) | (N ^ M))');
    expect(expr('3 * 4 | 2 & 1 ^ N')).toBe('((3 * 4) | ((2 & 1) ^ N))');
  });

  it('is left-associative at every level', () => {
    expect(expr('N - M - 1')).toBe('((N - M) - 1)');
    expect(expr('N / M / 2')).toBe('((N / M) / 2)');
    expect(expr('N | M | 1')).toBe('((N | M) | 1)');
    expect(expr('N ^ M ^ 1')).toBe('((N ^ M) ^ 1)');
  });

  it('respects parentheses', () => {
    expect(expr('(N + M) * 2')).toBe('((N + M) * 2)');
    expect(expr('N - (M - 1)')).toBe('(N - (M - 1))');
  });

  it('parses builtins, with tid as threadIdx.x', () => {
    expect(expr('tid + threadIdx.y + blockIdx.z + blockDim.x + gridDim.y')).toBe(
      '((((threadIdx.x + threadIdx.y) + blockIdx.z) + blockDim.x) + gridDim.y)',
    );
  });

  it('reads `=` as `==` and parses every comparison', () => {
    expect(cond('(N = M)')).toBe('(N == M)');
    expect(cond('N == M')).toBe('(N == M)');
    for (const op of ['!=', '<', '<=', '>', '>=']) expect(cond(`N ${op} M`)).toBe(`(N ${op} M)`);
  });

  it('gives && precedence over || and parses !, true and false', () => {
    expect(cond('N < 1 || N > 2 && M = 0')).toBe('((N < 1) || ((N > 2) && (M == 0)))');
    expect(cond('!(N < 1) && true || false')).toBe('((!(N < 1) && true) || false)');
    expect(cond('(N < 1 || N > 2) && M = 0')).toBe('(((N < 1) || (N > 2)) && (M == 0))');
  });

  it('does not read `a < <b` style or `N << 1 < M` wrongly', () => {
    expect(cond('N << 1 < M')).toBe('((N << 1) < M)');
    expect(cond('N >> 1 >= M')).toBe('((N >> 1) >= M)');
  });

  // The grammar is written for the lexical pass's text (one space for each run
  // of white space and comments) and tries ASCII before Ohm's Unicode letters;
  // these pin what it accepts at those seams.
  it('reads names of any Unicode letter, but digits only from ASCII', () => {
    const k = kernelOf('kernel café(ǅx, ʰy, 中, Ω_1) { shared Ä; Ä[0] := ǅx + ʰy + 中 + Ω_1 }');
    expect(k.params.map((p) => p.text)).toEqual(['ǅx', 'ʰy', '中', 'Ω_1']);
    expect(k.arrays.map((a) => a.name.text)).toEqual(['Ä']);
    expect(syntaxError('kernel k(x٣) { shared A; A[0] := 0 }').message).toBe("syntax error: expected ')', found '٣'");
    expect(syntaxError('kernel k(½) { shared A; A[0] := 0 }').message).toBe("syntax error: expected ')', found '½'");
  });

  it('reads operators across any white space and comments, and a split operator as two', () => {
    expect(expr('N\t<<\x0B1\f+/* c */M //\n * 2')).toBe('(N << (1 + (M * 2)))');
    expect(cond('N = 1\r\n||\tM /**/ < 1 &&/**/!\n(N = 0)')).toBe('((N == 1) || ((M < 1) && !(N == 0)))');
    expect(syntaxError('kernel k(N) { shared A; A[N | | N] := 0 }').message).toBe("syntax error: expected an expression, found '|'");
    expect(syntaxError('kernel k(N) { shared A; if N < < 1 { skip } }').message).toBe('syntax error: expected not "<", found \'<\'');
    expect(syntaxError('kernel k(N) { shared A; if ! = N { skip } }').message).toBe('syntax error: expected not "=", found \'=\'');
  });
});

describe('spans', () => {
  it("records the offsets of a write's target and a read's source", () => {
    const text = 'kernel k(N) { shared A; A[tid + 1][N] := 3; let y = A[N][0] in skip }';
    const p = parse(text);
    const [w, r] = p.kernels[0]!.body;
    if (w?.kind !== 'write' || r?.kind !== 'read') throw new Error();
    const wStart = text.indexOf('A[tid + 1][N]');
    expect(w.target).toEqual({ start: wStart, end: wStart + 'A[tid + 1][N]'.length });
    expect(spanText(p.file, w.target)).toBe('A[tid + 1][N]');
    const rStart = text.indexOf('A[N][0]');
    expect(r.source).toEqual({ start: rStart, end: rStart + 'A[N][0]'.length });
    expect(spanText(p.file, r.array.span)).toBe('A');
    expect(spanText(p.file, r.local.span)).toBe('y');
  });

  it('records spans of expressions and names', () => {
    const text = 'kernel k(N) { shared A; A[0] := N * (tid + 2) }';
    const p = parse(text);
    const [w] = p.kernels[0]!.body;
    if (w?.kind !== 'write') throw new Error();
    expect(spanText(p.file, w.value.span)).toBe('N * (tid + 2)');
    expect(spanText(p.file, w.span)).toBe('A[0] := N * (tid + 2)');
    expect(spanText(p.file, p.kernels[0]!.name.span)).toBe('k');
    expect(spanText(p.file, p.kernels[0]!.params[0]!.span)).toBe('N');
  });

  it('computes positions on later lines', () => {
    const text = 'kernel k() {\n  shared A;\n  A[0] := 1\n}';
    const p = parse(text);
    const [w] = p.kernels[0]!.body;
    if (w?.kind !== 'write') throw new Error();
    expect(positionAt(p.file, w.target.start)).toEqual({ line: 3, column: 3 });
  });
});

describe('syntax errors', () => {
  it('names what was expected and the offending token, at its position', () => {
    const text = 'kernel k() {\n  shared A\n  A[0] := 1\n}';
    const d = syntaxError(text);
    expect(d.code).toBe('E0001');
    expect(d.severity).toBe('error');
    expect(d.message).toBe("syntax error: expected '[', ',' or ';', found 'A'");
    expect(positionAt(d.file, d.span.start)).toEqual({ line: 3, column: 3 });
    expect(d.span.end - d.span.start).toBe(1);
    expect(d.file.path).toBe('t.bcu');
  });

  it('hints `:=` for a write written with `=`', () => {
    const d = syntaxError('kernel k() { shared A; A[0] = 1 }');
    expect(d.message).toContain("found '='");
    expect(d.message).toBe("syntax error: expected '[' or ':=', found '='");
    expect(d.hints.some((h) => h.includes(':='))).toBe(true);
    expect(positionAt(d.file, d.span.start)).toEqual({ line: 1, column: 29 });
  });

  it('hints `;` between statements', () => {
    const d = syntaxError('kernel k() { shared A; if (tid < 1) { skip } A[0] := 1 }');
    expect(d.message).toContain("found 'A'");
    expect(d.hints.some((h) => h.includes('`;`'))).toBe(true);
  });

  it('reports a whole word as the offending token', () => {
    const d = syntaxError('kernel k() { shared A; A[0] := 1 sync }');
    expect(d.message).toContain("found 'sync'");
    expect(d.span.end - d.span.start).toBe(4);
  });

  it('reports end of file', () => {
    const d = syntaxError('kernel k() { shared A; A[0] := 1');
    expect(d.message).toBe("syntax error: expected '}', found end of file");
    expect(d.span.start).toBe('kernel k() { shared A; A[0] := 1'.length);
  });

  it('rejects keywords as names and empty input', () => {
    expect(() => parse('kernel k(in) { skip }')).toThrow(DiagnosticError);
    expect(() => parse('kernel sync() { skip }')).toThrow(DiagnosticError);
    expect(() => parse('kernel k(syncwarp) { skip }')).toThrow(DiagnosticError);
    expect(() => parse('')).toThrow(DiagnosticError);
    expect(() => parse('kernel k() { }')).toThrow(DiagnosticError);
  });

  it('names the construct expected rather than the tokens that start it', () => {
    const expects = (text: string): string => syntaxError(text).message;
    expect(expects('kernel k() { shared A; A[0] := }')).toBe("syntax error: expected an expression, found '}'");
    expect(expects('kernel k() { shared A; A[0] := (1 + ) }')).toBe("syntax error: expected an expression, found ')'");
    expect(expects('kernel k() { shared A; assume }')).toBe("syntax error: expected a condition, found '}'");
    expect(expects('kernel k() { shared A; if tid { skip } }')).toBe("syntax error: expected a comparison operator, found '{'");
    expect(expects('kernel k() { shared A; if (tid < 1) { } }')).toBe("syntax error: expected a statement, found '}'");
    expect(expects('kernel k() { shared A; A[blockDim.w] := 1 }')).toBe("syntax error: expected 'x', 'y' or 'z', found 'w'");
    expect(expects('kernel k( { skip }')).toBe("syntax error: expected ')', found '{'");
    // operators that could continue the expression before are not listed
    expect(expects('kernel k() { shared A; A[0] := 1 A[1] := 2 }')).toBe("syntax error: expected ';' or '}', found 'A'");
    const empty = syntaxError('kernel k() { }');
    expect(empty.message).toBe("syntax error: expected an array declaration or a statement, found '}'");
    expect(empty.hints).toContain('a body needs a statement: `skip` does nothing');
  });

  describe('points back at an unclosed bracket', () => {
    const unclosed = (text: string): string[] => syntaxError(text).related.map((r) => `${r.message} at ${positionAt(syntaxError(text).file, r.span.start).column}`);
    it('at the end of the file', () => {
      const text = 'kernel k() {\n  shared A;\n  if (tid < 1) {\n    A[0] := 1\n';
      const d = syntaxError(text);
      expect(d.message).toBe("syntax error: expected ';' or '}', found end of file");
      expect(d.related).toHaveLength(1);
      expect(d.related[0]!.message).toBe("unclosed '{' opened here");
      expect(positionAt(d.file, d.related[0]!.span.start)).toEqual({ line: 3, column: 16 });
    });

    it('at a closer of another kind, a brace, or the next kernel', () => {
      expect(unclosed('kernel k() { shared A; A[(1 + 2] := 1 }')).toEqual(["unclosed '(' opened here at 26"]);
      expect(unclosed('kernel k() { shared A; if (tid < 1 { skip } }')).toEqual(["unclosed '(' opened here at 27"]);
      expect(unclosed('kernel k() { shared A; if (tid < 1) { A[0] := 1\nkernel j() { skip }')).toEqual(["unclosed '{' opened here at 37"]);
    });

    it('not when a separator is what is missing', () => {
      expect(unclosed('kernel k() { shared A; A[0] := 1 A[1] := 2 }')).toEqual([]);
    });

    it('and says when a closer closes nothing', () => {
      const d = syntaxError('kernel k() { skip } }');
      expect(d.message).toBe("syntax error: expected 'kernel' or end of file, found '}'");
      expect(d.hints).toContain("this '}' closes nothing");
    });
  });

  it('accepts names that start with a keyword', () => {
    const [s] = kernelOf('kernel k(index, skipped, tidy, syncs, syncwarps) { shared A; A[index + skipped + tidy + syncs + syncwarps] := 0 }').body;
    if (s?.kind !== 'write') throw new Error();
    expect(sx(s.index[0]!)).toBe('((((index + skipped) + tidy) + syncs) + syncwarps)');
  });
});
