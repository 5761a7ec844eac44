/**
 * Wall time split into stages, each millisecond counted once: while a stage
 * runs inside another (a solver check inside the phase split), the time is
 * the inner stage's, so the stages add up to the time spent in the outermost
 * ones. Time outside every stage is not counted. One clock follows one
 * sequential computation: two stages running concurrently on the same clock
 * would be charged to whichever was entered last.
 */
export class StageClock<S extends string> {
  private readonly totals = new Map<S, number>();
  private readonly open: S[] = [];
  private since = 0;

  /** `now` reads the time in milliseconds (a test passes a fake one) */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Charges the time since the last change to the stage running now, if any. */
  private charge(): void {
    const now = this.now();
    const stage = this.open.at(-1);
    if (stage !== undefined) this.totals.set(stage, (this.totals.get(stage) ?? 0) + now - this.since);
    this.since = now;
  }

  /** The value of `f`, its time charged to `stage`. */
  timed<T>(stage: S, f: () => T): T {
    this.charge();
    this.open.push(stage);
    try {
      return f();
    } finally {
      this.charge();
      this.open.pop();
    }
  }

  /** The value `f` resolves to, the time until then charged to `stage`. */
  async timedAsync<T>(stage: S, f: () => Promise<T>): Promise<T> {
    this.charge();
    this.open.push(stage);
    try {
      return await f();
    } finally {
      this.charge();
      this.open.pop();
    }
  }

  /** Milliseconds charged to `stage` so far (a stage still running counts up to now). */
  milliseconds(stage: S): number {
    this.charge();
    return this.totals.get(stage) ?? 0;
  }
}
