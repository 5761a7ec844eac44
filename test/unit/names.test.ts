import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { spanText } from '../../src/core/source.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

interface Found {
  readonly code: string;
  readonly message: string;
  /** the source text the diagnostic points at */
  readonly at: string;
  readonly hints: readonly string[];
  readonly related: readonly string[];
}

function errors(text: string): Found[] {
  const program = parseProgram('t.bcu', text);
  return wellFormednessErrors(program).map((d: Diagnostic) => ({
    code: d.code,
    message: d.message,
    at: spanText(program.file, d.span),
    hints: d.hints,
    related: d.related.map((r) => `${r.message} @ ${spanText(program.file, r.span)}`),
  }));
}

function only(text: string): Found {
  const found = errors(text);
  expect(found, JSON.stringify(found)).toHaveLength(1);
  return found[0]!;
}

describe('well-formed kernels', () => {
  it('accepts a kernel using parameters, builtins, loop variables, reads and lets', () => {
    expect(
      errors(`kernel k(N, M) <<<(N, 1), blockDim.x>>> requires N > 0 && gridDim.x = N {
        shared A[N][M], B;
        global G;
        for i in 0..N {
          let x = A[i][tid] in
          let y = x + i in
          B[y] := blockIdx.x;
          if (y < M) { G[i] := x } else { skip }
        };
        for j in N downto 1 step / 2 { sync };
        assume M > 1
      }`),
    ).toEqual([]);
  });

  it('lets the same name be bound again once its scope has ended', () => {
    expect(errors('kernel k(N) { shared A; for i in 0..N { skip }; for i in 0..N { A[i] := 1 } }')).toEqual([]);
    expect(errors('kernel k(N) { shared A; if (tid < 1) { let x = 1 in skip } else { let x = A[0] in skip } }')).toEqual([]);
  });
});

describe('unknown names', () => {
  it('reports an unknown variable with a did-you-mean hint', () => {
    const e = only('kernel k(size) { shared A; A[sise] := 1 }');
    expect(e.code).toBe('E0103');
    expect(e.message).toBe("unknown variable 'sise'");
    expect(e.at).toBe('sise');
    expect(e.hints).toEqual(["did you mean 'size'?"]);
  });

  it('suggests no name when nothing is close', () => {
    const e = only('kernel k(width) { shared A; A[offset] := 1 }');
    expect(e.code).toBe('E0103');
    expect(e.hints.some((h) => h.includes('did you mean'))).toBe(false);
  });

  it('reports an unknown array', () => {
    const e = only('kernel k() { shared A; B[0] := 1 }');
    expect(e.code).toBe('E0103');
    expect(e.message).toBe("unknown array 'B'");
    expect(e.at).toBe('B');
  });

  it('does not let a read see its own local, or a loop bound its own variable', () => {
    expect(only('kernel k() { shared A; let v = A[v] in skip }').code).toBe('E0103');
    expect(only('kernel k() { shared A; for i in 0..i { skip } }').code).toBe('E0103');
  });

  it('reports undeclared names in array sizes', () => {
    expect(only('kernel k(N) { shared A[M]; skip }').code).toBe('E0103');
  });
});

describe('scopes', () => {
  it('extends a let to the rest of its block', () => {
    expect(errors('kernel k() { shared A; let x = 1 in skip; A[x] := 1 }')).toEqual([]);
    expect(errors('kernel k() { shared A; let x = A[0] in skip; A[x] := x }')).toEqual([]);
  });

  it('does not extend a let outside its block', () => {
    const e = only('kernel k() { shared A; if (tid < 1) { let x = 1 in skip }; A[x] := 1 }');
    expect(e.code).toBe('E0103');
    expect(e.message).toBe("unknown variable 'x'");
    expect(e.at).toBe('x');
  });

  it('does not extend a let from a loop body, or the loop variable, past the loop', () => {
    expect(only('kernel k(N) { shared A; for i in 0..N { let y = i in skip }; A[y] := 1 }').message).toBe("unknown variable 'y'");
    expect(only('kernel k(N) { shared A; for i in 0..N { skip }; A[i] := 1 }').message).toBe("unknown variable 'i'");
  });
});

describe('shadowing', () => {
  it('rejects a let over a parameter', () => {
    const e = only('kernel k(N) { shared A; let N = 1 in skip }');
    expect(e.code).toBe('E0102');
    expect(e.message).toContain("'N' is already bound");
    expect(e.related).toEqual(["'N' first bound here @ N"]);
  });

  it('rejects a loop variable reused in a nested loop', () => {
    const text = 'kernel k(N) { shared A; for i in 0..N { for i in 0..N { skip } } }';
    const e = only(text);
    expect(e.code).toBe('E0102');
    expect(e.message).toContain("'i'");
  });

  it('rejects a read local over a loop variable, and a let over an array', () => {
    expect(only('kernel k(N) { shared A; for i in 0..N { let i = A[0] in skip } }').code).toBe('E0102');
    expect(only('kernel k() { shared A; let A = 1 in skip }').code).toBe('E0102');
  });

  it('rejects two lets of one name in the same block', () => {
    expect(only('kernel k() { shared A; let x = 1 in skip; let x = 2 in skip }').code).toBe('E0102');
  });

  it('rejects duplicate parameters, arrays and kernels', () => {
    expect(only('kernel k(N, N) { skip }').code).toBe('E0102');
    expect(only('kernel k() { shared A; global A; skip }').code).toBe('E0102');
    const e = only('kernel k() { skip }\nkernel k() { skip }');
    expect(e.code).toBe('E0101');
    expect(e.related).toEqual(['first defined here @ k']);
  });
});

describe('arrays and values', () => {
  it('rejects an array used as a value', () => {
    const e = only('kernel k() { shared A; A[0] := A }');
    expect(e.code).toBe('E0105');
    expect(e.message).toBe("'A' is an array, not a value");
  });

  it('rejects an array used as an index or condition operand', () => {
    expect(only('kernel k() { shared A, B; B[A] := 1 }').code).toBe('E0105');
    expect(only('kernel k() { shared A; if (A < 1) { skip } }').code).toBe('E0105');
  });

  it('rejects a write to, or a read from, a non-array', () => {
    const w = only('kernel k(N) { shared A; N[0] := 1 }');
    expect(w.code).toBe('E0106');
    expect(w.message).toContain("cannot write to 'N'");
    expect(w.message).toContain('parameter');
    const r = only('kernel k(N) { shared A; for i in 0..N { let x = i[0] in skip } }');
    expect(r.code).toBe('E0106');
    expect(r.message).toContain("cannot read from 'i'");
    expect(r.message).toContain('loop variable');
  });

  it('checks the number of indices against the declared sizes', () => {
    const e = only('kernel k(N) { shared A[N]; A[0][1] := 1 }');
    expect(e.code).toBe('E0107');
    expect(e.message).toBe("'A' has 1 dimension, but is used with 2 indices");
    expect(e.at).toBe('A[0][1]');
    expect(e.related).toEqual(['declared here @ A[N]']);
    expect(only('kernel k(N) { shared A[N][N]; let v = A[0] in skip }').code).toBe('E0107');
  });

  it('checks the number of indices against the first use', () => {
    const e = only('kernel k() { shared A; A[0][1] := 1; let v = A[0] in skip }');
    expect(e.code).toBe('E0107');
    expect(e.message).toBe("'A' has 2 dimensions, but is used with 1 index");
    expect(e.at).toBe('A[0]');
    expect(e.related).toEqual(['first used with 2 indices here @ A[0][1]']);
  });

  it('accepts consistent multi-dimensional uses', () => {
    expect(errors('kernel k(N) { shared A[N][N], B; A[0][1] := 1; let v = A[1][0] in B[v][v][v] := 0; B[0][0][0] := 1 }')).toEqual([]);
  });
});

describe('kernel header', () => {
  it('rejects threadIdx and blockIdx in requires', () => {
    const e = only('kernel k(N) requires tid < N { skip }');
    expect(e.code).toBe('E0104');
    expect(e.at).toBe('tid');
    expect(only('kernel k(N) requires blockIdx.y < N { skip }').code).toBe('E0104');
  });

  it('rejects thread ids in the launch clause and in array sizes', () => {
    expect(only('kernel k() <<<1, threadIdx.x>>> { skip }').code).toBe('E0104');
    expect(only('kernel k() { shared A[tid]; skip }').code).toBe('E0104');
  });

  it('accepts dimensions and parameters in the header', () => {
    expect(errors('kernel k(N) <<<N, 32>>> requires blockDim.x <= N && gridDim.x > 0 { shared A[blockDim.x]; skip }')).toEqual([]);
  });
});

describe('loop steps', () => {
  it('rejects steps that never advance', () => {
    for (const loop of ['0..N step + 0', '1..N step * 1', '1..N step * 0', 'N downto 0 step - 0', 'N downto 1 step / 1']) {
      const e = only(`kernel k(N) { for i in ${loop} { skip } }`);
      expect(e.code, loop).toBe('E0108');
      expect(e.message).toContain('never advances');
    }
  });

  it('points at the step amount', () => {
    expect(only('kernel k(N) { for i in 0..N step + 0 { skip } }').at).toBe('0');
  });

  it('accepts steps that advance', () => {
    for (const loop of ['0..N step + 1', '1..N step * 2', 'N downto 0 step - 1', 'N downto 1 step / 2', '0..N step + N']) {
      expect(errors(`kernel k(N) { for i in ${loop} { skip } }`), loop).toEqual([]);
    }
  });
});

it('reports every error of a kernel, not only the first', () => {
  const found = errors('kernel k(N) { shared A; A[x] := 1; let N = 2 in skip; N[0] := 1 }');
  expect(found.map((e) => e.code)).toEqual(['E0103', 'E0102', 'E0106']);
});
