/**
 * The places `fix` puts barriers at, and the rewriting of a kernel's text:
 * insertions keep the layout, barriers in thread-dependent branches are
 * hoisted by splitting the branch, removals leave valid text, and offsets of
 * the rewritten text map back to the original.
 */
import { describe, expect, it } from 'vitest';
import { parseProgram } from '../../src/frontend/bcu/parse.js';
import { wellFormednessErrors } from '../../src/names/check.js';
import { forwardOf, layoutOf, loopsAround, originOf, pointBefore, rewrite, type Layout, type Point } from '../../src/fix/layout.js';
import { positionAt } from '../../src/core/source.js';

function layout(text: string): Layout {
  const program = parseProgram('t.bcu', text);
  expect(wellFormednessErrors(program)).toEqual([]);
  return layoutOf(program.file, program.kernels[0]!);
}

/** The candidate point at line:column of the original text. */
function pointAt(l: Layout, line: number, column: number): Point {
  const p = l.points.find((x) => x.candidate && positionAt(l.file, x.offset).line === line && positionAt(l.file, x.offset).column === column);
  if (p === undefined) throw new Error(`no candidate point at ${line}:${column}`);
  return p;
}

function inserted(l: Layout, ...points: Point[]): string {
  return rewrite(l, { insert: new Set(points.map((p) => p.id)), remove: new Set() }).text;
}

function valid(text: string): boolean {
  return wellFormednessErrors(parseProgram('t.bcu', text)).length === 0;
}

const RMW = `kernel rmw() {
  shared A;
  let v = A[tid + 1] in A[tid] := v;
  A[tid + 2] := 0
}
`;

const GUARDED = `kernel g(n) {
  shared buf;
  global src, dst;
  let i = blockIdx.x * blockDim.x + tid in
  if (i < n) {
    let v = src[i] in
    buf[tid] := v;
    let w = buf[tid + 1] in
    dst[i] := w
  } else {
    buf[tid] := 0
  }
}
`;

describe('candidate places', () => {
  it('are statement boundaries and let bodies, never the start or end of the kernel', () => {
    const l = layout(RMW);
    const places = l.points.filter((p) => p.candidate).map((p) => positionAt(l.file, p.offset));
    // after `in` (splitting the read-modify-write) and between the two statements
    expect(places).toEqual([
      { line: 3, column: 25 },
      { line: 4, column: 3 },
    ]);
  });

  it('include the start and end of a loop body, and know which loops are uniform', () => {
    const l = layout(`kernel k(T) {
  shared s;
  for t in 0..T {
    for j in tid..T {
      s[j] := t
    }
  }
}
`);
    const inner = pointAt(l, 5, 7);
    expect(inner.block.loops.map((x) => [x.var, x.uniform])).toEqual([
      ['j', false],
      ['t', true],
    ]);
    expect(loopsAround(l, { start: inner.offset, end: inner.offset + 4 }).map((x) => x.var)).toEqual(['j', 't']);
    expect(l.points.filter((p) => p.candidate && p.block.kind === 'loop')).toHaveLength(4);
  });
});

describe('rewrite', () => {
  it('inserts a barrier after a let in line, or on its own line', () => {
    const l = layout(RMW);
    expect(inserted(l, pointAt(l, 3, 25))).toBe(RMW.replace('in A[tid] := v;', 'in sync; A[tid] := v;'));
    expect(inserted(l, pointAt(l, 4, 3))).toBe(RMW.replace('  A[tid + 2]', '  sync;\n  A[tid + 2]'));
  });

  it('inserts at the end of a loop body after its last statement', () => {
    const text = 'kernel k(T) {\n  shared s;\n  for t in 0..T {\n    s[tid] := t\n  }\n}\n';
    const l = layout(text);
    const end = l.points.find((p) => p.candidate && p.block.kind === 'loop' && p.index === 1)!;
    expect(inserted(l, end)).toBe(text.replace('s[tid] := t\n', 's[tid] := t;\n    sync\n'));
  });

  it('leaves a barrier in a uniform branch where it is', () => {
    const text = 'kernel k(n) {\n  shared s;\n  if (n > 2) {\n    s[tid] := 1;\n    s[tid + 1] := 2\n  }\n}\n';
    const l = layout(text);
    const p = pointAt(l, 5, 5);
    expect(p.block.splits).toEqual([]);
    expect(inserted(l, p)).toBe(text.replace('    s[tid + 1]', '    sync;\n    s[tid + 1]'));
  });

  it('hoists a barrier out of a thread-dependent branch by splitting it; the else branch runs before the barrier', () => {
    const l = layout(GUARDED);
    const p = pointAt(l, 8, 5);
    expect(p.block.splits).toHaveLength(1);
    const rw = rewrite(l, { insert: new Set([p.id]), remove: new Set() });
    expect(rw.text).toBe(`kernel g(n) {
  shared buf;
  global src, dst;
  let i = blockIdx.x * blockDim.x + tid in
  if (i < n) {
    let v = src[i] in
    buf[tid] := v
  } else {
    buf[tid] := 0
  };
  sync;
  if (i < n) {
    let w = buf[tid + 1] in
    dst[i] := w
  }
}
`);
    expect(valid(rw.text)).toBe(true);
    expect(rw.splits).toEqual([{ start: GUARDED.indexOf('if (i < n)'), end: GUARDED.lastIndexOf('}\n}') + 1 }]);
    expect(positionAt(parseProgram('t.bcu', rw.text).file, rw.barriers.get(p.id)!)).toEqual({ line: 11, column: 3 });
  });

  it('orders the then branch before the else branch with a barrier at the start of the else branch', () => {
    const l = layout(GUARDED);
    const p = l.points.find((x) => x.candidate && x.block.kind === 'else')!;
    expect(inserted(l, p)).toContain('    dst[i] := w\n  };\n  sync;\n  if !(i < n) {\n    buf[tid] := 0\n  }\n');
  });

  it('hoists through nested branches up to the first one that is uniform for the block', () => {
    const text = `kernel k(n) {
  shared s;
  if (n > 1) {
    if (tid < n) {
      if (n > 3) {
        s[tid] := 1;
        s[tid + 1] := 2
      }
    }
  }
}
`;
    const l = layout(text);
    const p = pointAt(l, 7, 9);
    expect(p.block.splits).toHaveLength(2);
    const out = inserted(l, p);
    expect(out).toBe(`kernel k(n) {
  shared s;
  if (n > 1) {
    if (tid < n) {
      if (n > 3) {
        s[tid] := 1
      }
    };
    sync;
    if (tid < n) {
      if (n > 3) {
        s[tid + 1] := 2
      }
    }
  }
}
`);
  });

  it('splits after a let only into text the name check rejects when the name is used after the barrier', () => {
    const l = layout(GUARDED);
    // between `let v = src[i] in` and `buf[tid] := v`: v would be out of scope
    const out = inserted(l, pointAt(l, 7, 5));
    expect(out).toContain('let v = src[i] in skip\n  } else {');
    expect(valid(out)).toBe(false);
  });

  it('removes a barrier in the middle, at the end, as the body of a let (the let then binds over what follows), and as the only statement', () => {
    const text = `kernel k(T) {
  shared s;
  s[tid] := 1;
  sync;
  let x = s[tid] in sync;
  for t in 0..T {
    sync
  };
  s[tid] := x;
  sync
}
`;
    const l = layout(text);
    const starts = [...text.matchAll(/\bsync\b/g)].map((m) => m.index);
    const out = rewrite(l, { insert: new Set(), remove: new Set(starts) }).text;
    expect(out).toBe(`kernel k(T) {
  shared s;
  s[tid] := 1;
  let x = s[tid] in
  for t in 0..T {
    skip
  };
  s[tid] := x
}
`);
    expect(valid(out)).toBe(true);
  });

  it('removes a syncwarp as it removes a sync, and hoists one as a syncwarp', () => {
    const text = `kernel k() {
  shared s;
  if (tid % 32 < 16) {
    s[tid] := 1;
    syncwarp;
    let x = s[tid + 1] in
    s[tid] := x
  }
}
`;
    const l = layout(text);
    const at = text.indexOf('syncwarp');
    expect(rewrite(l, { insert: new Set(), remove: new Set([at]) }).text).toBe(text.replace('    syncwarp;\n', ''));
    const p = pointBefore(l, at)!;
    const hoisted = rewrite(l, { insert: new Set([p.id]), warp: new Set([p.id]), remove: new Set([at]) }).text;
    expect(hoisted).toBe(`kernel k() {
  shared s;
  if (tid % 32 < 16) {
    s[tid] := 1
  };
  syncwarp;
  if (tid % 32 < 16) {
    let x = s[tid + 1] in
    s[tid] := x
  }
}
`);
    expect(valid(hoisted)).toBe(true);
  });

  it('moves a barrier out of a branch: the point before it, with the barrier removed', () => {
    const text = 'kernel k() {\n  shared s;\n  if (tid > 0) {\n    s[tid] := 1;\n    sync;\n    s[tid - 1] := 2\n  }\n}\n';
    const l = layout(text);
    const sync = text.indexOf('sync');
    const p = pointBefore(l, sync)!;
    const out = rewrite(l, { insert: new Set([p.id]), remove: new Set([sync]) }).text;
    expect(out).toBe('kernel k() {\n  shared s;\n  if (tid > 0) {\n    s[tid] := 1\n  };\n  sync;\n  if (tid > 0) {\n    s[tid - 1] := 2\n  }\n}\n');
  });

  it('maps offsets of the rewritten text back to the original and forward again', () => {
    const l = layout(GUARDED);
    const rw = rewrite(l, { insert: new Set([pointAt(l, 8, 5).id]), remove: new Set() });
    for (const access of ['src[i]', 'buf[tid] :=', 'buf[tid + 1]', 'dst[i]', 'buf[tid] := 0']) {
      const at = rw.text.indexOf(access);
      expect(originOf(rw.pieces, at), access).toBe(GUARDED.indexOf(access));
      expect(forwardOf(rw.pieces, GUARDED.indexOf(access)), access).toBe(at);
    }
    expect(originOf(rw.pieces, rw.barriers.values().next().value!)).toBeNull();
  });
});
