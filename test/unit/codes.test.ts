/** The one table of diagnostic codes: each code once, its letter saying its severity, each stage in its range. */
import { describe, expect, it } from 'vitest';
import { CODES } from '../../src/diagnostics/codes.js';

describe('the diagnostic codes', () => {
  const entries = Object.entries(CODES);

  it('gives each code to one problem', () => {
    const codes = entries.map(([, c]) => c.code);
    expect(codes.filter((c, i) => codes.indexOf(c) !== i)).toEqual([]);
  });

  it('spells errors E, warnings W, notes N (or W, for a preprocessor warning that became a note)', () => {
    for (const [problem, c] of entries) {
      const letter = c.code[0];
      const fits = c.severity === 'error' ? letter === 'E' : c.severity === 'warning' ? letter === 'W' : letter === 'N' || letter === 'W';
      expect(fits, `${problem}: ${c.code} is a ${c.severity}`).toBe(true);
      expect(c.code).toMatch(/^[EWN]\d{4}$/);
    }
  });
});
