import { describe, expect, it } from 'vitest';
import { StageClock } from '../../src/util/clock.js';

/** A clock whose time moves only when the test says so. */
function fakeClock(): { clock: StageClock<'a' | 'b' | 'c'>; advance: (ms: number) => void } {
  let t = 1000;
  return { clock: new StageClock<'a' | 'b' | 'c'>(() => t), advance: (ms) => void (t += ms) };
}

describe('StageClock', () => {
  it('charges nested time to the inner stage only, and nothing outside every stage', () => {
    const { clock, advance } = fakeClock();
    advance(50); // before any stage: not counted
    const value = clock.timed('a', () => {
      advance(10);
      clock.timed('b', () => advance(7));
      advance(3);
      return 42;
    });
    advance(100);
    expect(value).toBe(42);
    expect(clock.milliseconds('a')).toBe(13);
    expect(clock.milliseconds('b')).toBe(7);
    expect(clock.milliseconds('c')).toBe(0);
  });

  it('times asynchronous stages until their promise settles, failures included', async () => {
    const { clock, advance } = fakeClock();
    await clock.timedAsync('a', async () => {
      advance(5);
      await clock.timedAsync('c', async () => {
        await Promise.resolve();
        advance(20);
      });
    });
    await expect(
      clock.timedAsync('b', async () => {
        advance(4);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    advance(9);
    expect([clock.milliseconds('a'), clock.milliseconds('b'), clock.milliseconds('c')]).toEqual([5, 4, 20]);
  });

  it('adds up the time of repeated entries', () => {
    const { clock, advance } = fakeClock();
    for (const ms of [1, 2, 3]) clock.timed('a', () => advance(ms));
    expect(clock.milliseconds('a')).toBe(6);
  });
});
