// Fixed-window rate limits. The counters live in a store: this process's memory (one node, the
// embedded PGlite default), or PostgreSQL when several nodes share it, so a visitor gets the same
// limit whichever node answers (decision 0004). Memory is bounded: past `maxKeys` expired windows
// are swept, then the oldest keys dropped.

export interface RateLimitStore {
  /** Counts one hit for `key` in the window containing `now`; the count after it and when the window ends. */
  hit(key: string, windowMs: number, now: number): Promise<{ count: number; resetAt: number }>;
  reset(key: string, windowMs: number, now: number): Promise<void>;
  /** Takes back one hit counted at `now` (an attempt that turned out not to count), never below 0. */
  unhit(key: string, windowMs: number, now: number): Promise<void>;
}

export class MemoryStore implements RateLimitStore {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly maxKeys = 50_000) {}

  get size(): number {
    return this.hits.size;
  }

  async hit(key: string, windowMs: number, now: number) {
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= now) {
      if (this.hits.size >= this.maxKeys) this.sweep(now);
      entry = { count: 0, resetAt: now + windowMs };
      this.hits.set(key, entry);
    }
    entry.count += 1;
    return { count: entry.count, resetAt: entry.resetAt };
  }

  async reset(key: string) {
    this.hits.delete(key);
  }

  async unhit(key: string, _windowMs: number, now: number) {
    const entry = this.hits.get(key);
    if (entry && entry.resetAt > now && entry.count > 0) entry.count -= 1;
  }

  private sweep(t: number): void {
    for (const [k, v] of this.hits) if (v.resetAt <= t) this.hits.delete(k);
    // Still full (a flood of distinct keys): forget the oldest windows first.
    for (const k of this.hits.keys()) {
      if (this.hits.size < this.maxKeys) break;
      this.hits.delete(k);
    }
  }
}

/** Windows aligned on the clock, so every node agrees where a window starts. */
/** The shared windows' table, as db/repositories/rate-limits.repository.ts keeps it (declared here: lib looks down only). */
export interface RateLimitWindows {
  /** Counts one hit in the window; returns the window's count after it. */
  hit(key: string, windowStart: number, resetAt: number): Promise<number>;
  reset(key: string, windowStart: number): Promise<void>;
  unhit(key: string, windowStart: number): Promise<void>;
  prune(now: number): Promise<void>;
}

export function createPostgresStore(repo: RateLimitWindows, opts: { pruneEvery?: number } = {}): RateLimitStore {
  let hits = 0;
  const start = (windowMs: number, now: number) => Math.floor(now / windowMs) * windowMs;
  return {
    async hit(key, windowMs, now) {
      const windowStart = start(windowMs, now);
      const resetAt = windowStart + windowMs;
      const count = await repo.hit(key, windowStart, resetAt);
      if (++hits % (opts.pruneEvery ?? 500) === 0) void repo.prune(now).catch(() => undefined);
      return { count, resetAt };
    },
    async reset(key, windowMs, now) {
      await repo.reset(key, start(windowMs, now));
    },
    async unhit(key, windowMs, now) {
      await repo.unhit(key, start(windowMs, now));
    },
  };
}

export class RateLimiter {
  constructor(
    private readonly name: string,
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly store: RateLimitStore = new MemoryStore(),
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit; resolves to the seconds to wait when the limit is exceeded, else 0. */
  async hit(key: string): Promise<number> {
    const t = this.now();
    const { count, resetAt } = await this.store.hit(`${this.name}:${key}`, this.windowMs, t);
    return count > this.limit ? Math.max(1, Math.ceil((resetAt - t) / 1000)) : 0;
  }

  reset(key: string): Promise<void> {
    return this.store.reset(`${this.name}:${key}`, this.windowMs, this.now());
  }
}
