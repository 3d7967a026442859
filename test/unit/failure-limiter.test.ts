// Growing delays for wrong passwords (issue 31): tiers of longer windows make each wait longer.
import { describe, expect, it } from 'vitest';
import { FailureLimiter } from '../../src/server/lib/failure-limiter.js';
import { MemoryStore } from '../../src/server/lib/rate-limiter.js';

const MINUTE = 60_000;

describe('failure limiter', () => {
  it('waits a minute after a few failures, a quarter of an hour after more; forgiven attempts are free', async () => {
    let now = 0;
    const limiter = new FailureLimiter(
      'f',
      [
        { limit: 3, windowMs: MINUTE },
        { limit: 5, windowMs: 15 * MINUTE },
      ],
      new MemoryStore(),
      () => now,
    );
    const fail = async () => (await limiter.attempt('k')).wait;
    expect([await fail(), await fail(), await fail()]).toEqual([0, 0, 0]);
    const first = await limiter.attempt('k');
    expect(first.wait).toBe(60);
    await first.forgive(); // refused, not a failure
    now = MINUTE + 1;
    expect([await fail(), await fail()]).toEqual([0, 0]);
    // Five failures in the quarter: the next waits for the quarter's end, far longer than a minute.
    expect(await fail()).toBe(Math.ceil((15 * MINUTE - now) / 1000));
    // Successes never count: a hundred forgiven attempts elsewhere leave that key untouched.
    for (let i = 0; i < 100; i++) await (await limiter.attempt('other')).forgive();
    expect((await limiter.attempt('other')).wait).toBe(0);
  });

  it('clears a key when its owner proves who they are', async () => {
    const limiter = new FailureLimiter('f', [{ limit: 2, windowMs: MINUTE }], new MemoryStore());
    await limiter.attempt('k');
    await limiter.attempt('k');
    await limiter.clear('k');
    expect((await limiter.attempt('k')).wait).toBe(0);
  });
});
