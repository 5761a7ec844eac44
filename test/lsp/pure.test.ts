/** The language server's protocol-independent parts, without a server: the smallest edit of a repair, and settings as a client sends them. */
import { describe, expect, it } from 'vitest';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { smallestEdit } from '../../src/lsp/actions.js';
import { DEFAULT_SETTINGS, settingsOf } from '../../src/lsp/settings.js';

describe('smallestEdit', () => {
  for (const [before, after] of [
    ['a\nb\nc\n', 'a\nb;\n  sync\nc\n'],
    ['x := 1;\n  sync;\n  y := 2\n', 'x := 1;\n  y := 2\n'],
    ['same', 'same'],
    ['', 'all new'],
    ['abab', 'ab'],
  ] as const) {
    it(`turns ${JSON.stringify(before)} into ${JSON.stringify(after)} with one edit of the differing part`, () => {
      const edit = smallestEdit(before, after);
      expect(TextDocument.applyEdits(TextDocument.create('u', 'x', 0, before), [edit])).toBe(after);
      expect(edit.newText.length).toBeLessThanOrEqual(Math.abs(after.length - before.length) + 2);
    });
  }
});

describe('settingsOf', () => {
  it('takes the fields given over the defaults, dimensions as text, lists or numbers', () => {
    const { settings, problems } = settingsOf({ blockDim: [16, 16], gridDim: 4, warpSize: 32, define: ['N=4'], solver: 'z3-wasm', debounceMs: 0 });
    expect(problems).toEqual([]);
    expect(settings).toEqual({ ...DEFAULT_SETTINGS, blockDim: '[16,16]', gridDim: '4', warpSize: 32, define: ['N=4'], solver: 'z3-wasm', debounceMs: 0 });
  });

  it('leaves a bad field as it was and says why, keeping the good ones', () => {
    const base = { ...DEFAULT_SETTINGS, maxRaces: 5 };
    const { settings, problems } = settingsOf({ blockDim: '0', maxRaces: -1, solver: 'yices', include: 'inc', rlimit: 7 }, base);
    expect(settings).toEqual({ ...base, rlimit: 7 });
    expect(problems).toEqual([
      'faial-ts settings: blockDim: blockDim 0: every dimension must be at least 1',
      'faial-ts settings: include: expected a list of strings',
      'faial-ts settings: solver: expected one of portfolio, z3-wasm, z3, cvc5',
      'faial-ts settings: maxRaces: maxRaces -1: expected a natural number',
    ]);
  });

  it('takes nothing from a missing section, and says so of one that is not an object', () => {
    expect(settingsOf(undefined)).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
    expect(settingsOf('blockDim=4')).toEqual({ settings: DEFAULT_SETTINGS, problems: ['faial-ts settings: expected an object'] });
  });
});
