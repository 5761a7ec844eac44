/**
 * Examples may state, on their second line, which of their barriers
 * `verify --barriers` proves redundant:
 *   // barriers: redundant at L:C, L:C
 *   // barriers: none redundant
 * The set must match exactly: a missed redundant barrier and a barrier called
 * redundant without being so both fail.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkedKernels } from '../../src/api/check.js';
import { DEFAULT_TIMEOUT_MS, verifyKernel, type VerifyOptions } from '../../src/verify/verify.js';
import { withBarrierChecks } from '../../src/verify/barriers.js';
import { positionAt } from '../../src/core/source.js';
import { examples } from './expectations.js';
import { z3Wasm } from '../../src/solve/z3.js';

const LINE = /^\/\/ barriers: (?:none redundant|redundant at (\d+:\d+(?:, \d+:\d+)*))\s*$/;

interface Stated {
  readonly path: string;
  readonly redundant: readonly string[];
}

function stated(): Stated[] {
  return examples().flatMap((e) => {
    const second = readFileSync(e.path, 'utf8').split('\n')[1] ?? '';
    if (!second.startsWith('// barriers:')) return [];
    const m = LINE.exec(second);
    if (m === null) throw new Error(`${e.path}: expected \`// barriers: redundant at L:C[, L:C…]\` or \`// barriers: none redundant\``);
    return [{ path: e.path, redundant: m[1] === undefined ? [] : m[1].split(', ') }];
  });
}

// three times the default per query, as the expectations test does, for a loaded machine
const OPTIONS: VerifyOptions = { launch: { params: new Map(), blockDim: null, gridDim: null }, timeoutMs: 3 * DEFAULT_TIMEOUT_MS, maxRaces: 20, solver: z3Wasm };

describe('verify --barriers finds exactly the redundant barriers the examples state', () => {
  const all = stated();
  it('some examples state their barriers, with and without redundant ones', () => {
    expect(all.some((s) => s.redundant.length > 0)).toBe(true);
    expect(all.some((s) => s.redundant.length === 0)).toBe(true);
  });
  for (const example of all) {
    it(`${example.path}: ${example.redundant.length === 0 ? 'none redundant' : example.redundant.join(', ')}`, async () => {
      const checked = checkedKernels(example.path, readFileSync(example.path, 'utf8'));
      if (!checked.ok) throw new Error(checked.diagnostics.map((d) => d.message).join('; '));
      const found: string[] = [];
      for (const map of checked.kernels) {
        const result = await withBarrierChecks(map, await verifyKernel(map, OPTIONS), OPTIONS);
        expect(result.status, map.name).toBe('drf');
        for (const b of result.barriers ?? []) {
          const p = positionAt(map.file, b.sync.span.start);
          if (b.verdict === 'redundant') found.push(`${p.line}:${p.column}`);
          // every barrier of these examples is decided: redundant, or needed with a real race
          else expect(b.verdict, `${map.name} barrier at ${p.line}:${p.column}`).toBe('needed');
        }
      }
      expect(found).toEqual(example.redundant);
    });
  }
});
