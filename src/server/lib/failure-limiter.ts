// Limits on failures, not on attempts (issue 31): a sign-in is counted before the password is
// checked, so concurrent guesses cannot slip past the limit, and taken back when it succeeds or is
// refused. Tiers of growing windows make the delays grow: a few failures cost a minute, more cost
// a quarter of an hour, many cost a day. The counters live in the rate-limit store (memory,
// PostgreSQL or Redis), so every node agrees.
import type { RateLimitStore } from './rate-limiter.js';

export interface FailureTier {
  /** Failures allowed within one window; the next attempt waits for the window's end. */
  limit: number;
  windowMs: number;
}

export interface Attempt {
  /** Seconds to wait before trying again (0: go ahead and check the password). */
  wait: number;
  /** The attempt was not a failure (it succeeded, or it was refused unchecked): take it back. */
  forgive(): Promise<void>;
}

export class FailureLimiter {
  constructor(
    private readonly name: string,
    private readonly tiers: readonly FailureTier[],
    private readonly store: RateLimitStore,
    private readonly now: () => number = Date.now,
  ) {}

  private key(key: string, tier: FailureTier) {
    return `${this.name}:${tier.windowMs}:${key}`;
  }

  /** Counts an attempt as a failure until it is forgiven. */
  async attempt(key: string): Promise<Attempt> {
    const t = this.now();
    const counts = await Promise.all(this.tiers.map((tier) => this.store.hit(this.key(key, tier), tier.windowMs, t)));
    let wait = 0;
    counts.forEach(({ count, resetAt }, i) => {
      if (count > this.tiers[i].limit) wait = Math.max(wait, Math.max(1, Math.ceil((resetAt - t) / 1000)));
    });
    const forgive = async () => {
      await Promise.all(this.tiers.map((tier) => this.store.unhit(this.key(key, tier), tier.windowMs, t)));
    };
    return { wait, forgive };
  }

  /** Forgets the failures of `key` (its owner proved who they are). */
  async clear(key: string): Promise<void> {
    const t = this.now();
    await Promise.all(this.tiers.map((tier) => this.store.reset(this.key(key, tier), tier.windowMs, t)));
  }
}
