/** The watchdog over a solver's checks: a check that never returns becomes unknown, and so does every later one. */
import { describe, expect, it } from 'vitest';
import type { Solver, Verdict } from '../../src/solve/solver.js';
import { watched } from '../../src/solve/watchdog.js';

/** A solver that answers unsat after `delayMs`, or never when the script says `hang`; it counts the checks it starts. */
function fake(delayMs: number): Solver & { started: number; running: number; most: number } {
  const s = {
    name: 'fake',
    started: 0,
    running: 0,
    most: 0,
    check(script: string): Promise<Verdict> {
      s.started++;
      if (script === 'hang') return new Promise(() => {});
      s.running++;
      s.most = Math.max(s.most, s.running);
      return new Promise((resolve) =>
        setTimeout(() => {
          s.running--;
          resolve({ status: 'unsat' });
        }, delayMs),
      );
    },
  };
  return s;
}

describe('watched', () => {
  it('passes answers through when they come in time', async () => {
    const solver = fake(5);
    const w = watched(solver, 100);
    expect(await w.check('a', 10)).toEqual({ status: 'unsat' });
    expect(await w.check('b', 10)).toEqual({ status: 'unsat' });
    expect(w.name).toBe('fake');
    expect(w.stuck()).toBeNull();
  });

  it('makes a check that never returns unknown after twice its timeout plus the slack, and every later check at once', async () => {
    const solver = fake(5);
    const w = watched(solver, 30);
    const started = performance.now();
    const hung = await w.check('hang', 10);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(hung).toEqual({ status: 'unknown', reason: 'fake did not return within 50 ms' });
    const later = await w.check('a', 10);
    expect(later).toEqual({ status: 'unknown', reason: 'fake stopped answering: an earlier check did not return within 50 ms' });
    expect(solver.started).toBe(1);
    expect(w.stuck()).toBe('fake stopped answering: an earlier check did not return within 50 ms');
  });

  it('runs checks one at a time, so that waiting for an earlier check does not count against a later one', async () => {
    const solver = fake(20);
    const w = watched(solver, 25);
    // five checks at once take 100 ms in all, more than one check's limit of 45 ms
    const verdicts = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((s) => w.check(s, 10)));
    expect(verdicts.every((v) => v.status === 'unsat')).toBe(true);
    expect(solver.most).toBe(1);
  });
});
