/** The watchdog over a solver's checks: a check that never returns becomes unknown, and so does every later one. */
import { describe, expect, it } from 'vitest';
import type { Verdict } from '../../src/solve/solver.js';
import { watchdog } from '../../src/solve/watchdog.js';

/** Jobs that answer unsat after `delayMs`, or never (`hang`); it counts the jobs it starts and how many run at once. */
function fake(delayMs: number): { job: (what: string) => () => Promise<Verdict>; started: number; running: number; most: number } {
  const s = {
    started: 0,
    running: 0,
    most: 0,
    job: (what: string) => (): Promise<Verdict> => {
      s.started++;
      if (what === 'hang') return new Promise(() => {});
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

describe('watchdog', () => {
  it('passes answers through when they come in time', async () => {
    const jobs = fake(5);
    const dog = watchdog('fake', 100);
    expect(await dog.run(10, jobs.job('a'))).toEqual({ status: 'unsat' });
    expect(await dog.run(10, jobs.job('b'))).toEqual({ status: 'unsat' });
    expect(dog.stuck()).toBeNull();
  });

  it('makes a check that never returns unknown after twice its timeout plus the slack, and every later check at once', async () => {
    const jobs = fake(5);
    const dog = watchdog('fake', 30);
    const started = performance.now();
    const hung = await dog.run(10, jobs.job('hang'));
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(hung).toEqual({ status: 'unknown', reason: 'fake did not return within 50 ms' });
    const later = await dog.run(10, jobs.job('a'));
    expect(later).toEqual({ status: 'unknown', reason: 'fake stopped answering: an earlier check did not return within 50 ms' });
    expect(jobs.started).toBe(1);
    expect(dog.stuck()).toBe('fake stopped answering: an earlier check did not return within 50 ms');
  });

  it('runs checks one at a time, so that waiting for an earlier check does not count against a later one', async () => {
    const jobs = fake(50);
    const dog = watchdog('fake', 200);
    // ten checks at once take 500 ms in all, more than one check's limit of 220 ms
    const verdicts = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((s) => dog.run(10, jobs.job(s))));
    expect(verdicts.every((v) => v.status === 'unsat')).toBe(true);
    expect(jobs.most).toBe(1);
  });
});
