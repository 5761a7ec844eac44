/**
 * Nesting limits of the CUDA front end (issue 30 §2): blocks, statements,
 * calls and parentheses nested past the limits end in E0004 at the place
 * the nesting goes past them, never in a stack overflow; below the limits a
 * kernel lowers with half the stack already in use.
 */
import { describe, expect, it, vi } from 'vitest';
import { lowered } from './lower-helpers.js';
import { cudaGrammar } from '../../../src/cli/cuda.js';
import { lowerCuda } from '../../../src/frontend/cuda/lower.js';
import { positionAt } from '../../../src/core/source.js';
import { MAX_SYNTAX_DEPTH } from '../../../src/frontend/cuda/parse.js';
import { MAX_LOWERING_DEPTH } from '../../../src/frontend/cuda/nesting.js';
import type { Diagnostic } from '../../../src/diagnostics/diagnostic.js';
import { Scope, type Binding } from '../../../src/frontend/cuda/context.js';

const kernel = (body: string): string => `__global__ void k(int *A) {\n${body}\n}\n__global__ void other(int *A) { A[threadIdx.x] = 1; }\n`;

const SHAPES: Record<string, (n: number) => string> = {
  blocks: (n) => kernel(`${'{'.repeat(n)}A[threadIdx.x] = 0;${'}'.repeat(n)}`),
  parentheses: (n) => kernel(`A[threadIdx.x] = ${'('.repeat(n)}1${')'.repeat(n)};`),
  'if statements': (n) => kernel(`${'if (threadIdx.x < 5) '.repeat(n)}A[threadIdx.x] = 0;`),
  'for loops': (n) => kernel(`${Array.from({ length: n }, (_, i) => `for (int i${i} = 0; i${i} < 2; i${i}++) `).join('')}A[threadIdx.x] = 0;`),
  'nested calls': (n) => `__device__ int f(int x) { return x; }\n${kernel(`A[threadIdx.x] = ${'f('.repeat(n)}1${')'.repeat(n)};`)}`,
  'a chain of functions': (n) =>
    `${Array.from({ length: n }, (_, i) => `__device__ int f${i + 1}(int x) { return f${i}(x); }`).join('\n').replace('f0(x)', 'x')}\n${kernel(`A[threadIdx.x] = f${n}(1);`)}`,
  'unary minus': (n) => kernel(`A[threadIdx.x] = ${'- '.repeat(n)}1;`),
  'a long sum': (n) => kernel(`A[threadIdx.x] = ${Array(n).fill('threadIdx.x').join(' + ')};`),
};

/** The one E0004 of the unit (the file's, or k's with `other` lowered), and its line. */
async function tooDeep(text: string): Promise<{ diagnostic: Diagnostic; line: number; whole: boolean }> {
  const unit = await lowered(text);
  const problems = [...unit.errors, ...unit.rejected.map((r) => r.diagnostic)];
  expect(problems.map((d) => d.code)).toEqual(['E0004']);
  const d = problems[0]!;
  const whole = unit.errors.length > 0;
  // a kernel's own limit leaves the file's other kernel lowered
  if (!whole) expect(unit.program.kernels.map((k) => k.name.text)).toEqual(['other']);
  return { diagnostic: d, line: positionAt(d.file, d.span.start).line, whole };
}

/** `f()` run with about half the stack in use, as a deeper caller would leave it. */
function withHalfStack<T>(f: () => T): T {
  let deepest = 0;
  const probe = (d: number): number => {
    deepest = d;
    return probe(d + 1) + 1;
  };
  try {
    probe(0);
  } catch {
    // the stack's size in frames of `probe`
  }
  const descend = (d: number): T => (d === 0 ? f() : descend(d - 1));
  return descend(Math.floor(deepest / 2));
}

describe('nesting past the limits is E0004 where it goes past them', () => {
  for (const [shape, text] of Object.entries(SHAPES)) {
    it(`${shape}: 3,000 and 10,000 deep`, async () => {
      for (const n of [3000, 10000]) {
        if (shape === 'a chain of functions' && n > 3000) continue;
        const { diagnostic, line } = await tooDeep(text(n));
        expect(diagnostic.message).toMatch(/^nested too deep/);
        // at the nesting, in the kernel, not at the file's start
        expect(line).toBeGreaterThanOrEqual(shape === 'a chain of functions' ? 1 : 2);
        expect(diagnostic.span.start).toBeGreaterThan(0);
      }
    }, 60_000);
  }

  it('a syntax tree past its limit is the file error, at the first node past it', async () => {
    const { diagnostic, whole } = await tooDeep(SHAPES['parentheses']!(MAX_SYNTAX_DEPTH + 10));
    expect(whole).toBe(true);
    expect(diagnostic.message).toContain(`more than ${MAX_SYNTAX_DEPTH} levels`);
    expect(diagnostic.file.text.slice(diagnostic.span.start, diagnostic.span.start + 1)).toBe('(');
  });

  it('the lowering limit is the kernel error, the file\'s other kernel lowered', async () => {
    const { diagnostic, whole } = await tooDeep(SHAPES['if statements']!(MAX_LOWERING_DEPTH + 10));
    expect(whole).toBe(false);
    expect(diagnostic.message).toContain(`more than ${MAX_LOWERING_DEPTH}`);
    // inside the statement nested past the limit (its condition), not at the kernel or the chain's start
    const ifs = [...diagnostic.file.text.matchAll(/if \(/g)].map((m) => m.index);
    expect(diagnostic.span.start).toBeGreaterThan(ifs[MAX_LOWERING_DEPTH - 10]!);
    expect(diagnostic.span.start).toBeLessThan(ifs[MAX_LOWERING_DEPTH]!);
  });

  it('a long kernel past the core limits (core/limits.ts) is E0004 in its lowered form', async () => {
    // each read from memory nests what follows it in the lowered kernel: 1,100 in a row
    const { diagnostic, whole } = await tooDeep(kernel(Array.from({ length: 1100 }, (_, i) => `int x${i} = A[threadIdx.x + ${i}];`).join('\n')));
    expect(whole).toBe(false);
    expect(diagnostic.message).toMatch(/^nested too deep: the lowered kernel is \d+ levels deep here \(limit 1024\)/);
  }, 60_000);
});

describe('below the limits, lowering leaves the stack half free', () => {
  const depths: Record<string, number> = {
    blocks: MAX_LOWERING_DEPTH - 5,
    parentheses: MAX_LOWERING_DEPTH - 5,
    'if statements': MAX_LOWERING_DEPTH - 5,
    'for loops': MAX_LOWERING_DEPTH - 5,
    'nested calls': MAX_LOWERING_DEPTH / 2 - 5,
    'a chain of functions': MAX_LOWERING_DEPTH / 2 - 5,
    'unary minus': MAX_LOWERING_DEPTH - 5,
    'a long sum': MAX_LOWERING_DEPTH - 5,
  };
  for (const [shape, n] of Object.entries(depths)) {
    it(`${shape}, ${n} deep`, async () => {
      const text = SHAPES[shape]!(n);
      const grammar = await cudaGrammar();
      const unit = withHalfStack(() => lowerCuda({ grammar, defines: new Map(), undefines: [], includeDirs: [], readFile: () => null }, 'k.cu', text));
      expect([...unit.errors, ...unit.rejected.map((r) => r.diagnostic)].map((d) => `${d.code} ${d.message}`)).toEqual([]);
      expect(unit.program.kernels.map((k) => k.name.text)).toEqual(['k', 'other']);
    }, 60_000);
  }
});

describe('a name missing from scope is found missing without walking the frames', () => {
  // a `for` nested N deep looked names missing from scope up through all N frames at each use: lowering was cubic in the nesting
  const type = (name: string): Binding => ({ kind: 'type', ctype: { kind: 'opaque', name } });
  const chain = (root: Scope, depth: number): Scope => {
    let s = root;
    for (let i = 0; i < depth; i++) s = new Scope(s);
    return s;
  };

  it('a miss does not reach the outer frames; names of the frames, shadowing and a sibling frame behave as before', () => {
    const root = new Scope(null);
    root.define('A', type('root A'));
    const sibling = new Scope(root);
    sibling.define('s', type('sibling s'));
    const middle = chain(root, 50);
    middle.define('A', type('middle A'));
    const leaf = chain(middle, 50);
    const walked = vi.spyOn(root, 'lookup');
    expect(leaf.lookup('missing')).toBeUndefined();
    expect(walked).not.toHaveBeenCalled();
    expect(leaf.lookup('A')).toEqual(type('middle A'));
    expect(leaf.lookup('s')).toBeUndefined();
    expect(sibling.lookup('A')).toEqual(type('root A'));
  });

  it('a miss still asks the scopes that resolve names they do not define (class members)', () => {
    const root = new Scope(null);
    root.define('A', type('root A'));
    const members = new Scope(chain(root, 5), (name) => (name === 'm' ? type('member m') : undefined));
    const leaf = chain(members, 20);
    expect(leaf.lookup('m')).toEqual(type('member m'));
    expect(leaf.lookup('A')).toEqual(type('root A'));
    const walked = vi.spyOn(root, 'lookup');
    expect(leaf.lookup('missing')).toBeUndefined();
    expect(walked).not.toHaveBeenCalled();
  });
});
