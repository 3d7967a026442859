// A fixed-window counter kept in memory: enough for per-IP and per-email limits on one node.
// (Behind a load balancer each node limits on its own; see docs/decisions/0004-rate-limits.md.)
// Memory is bounded: past `maxKeys` expired windows are swept, then the oldest keys dropped.
export class RateLimiter {
  private readonly hits = new Map<string, { count: number; resetAt: number }>();
  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 50_000,
  ) {}

  get size(): number {
    return this.hits.size;
  }

  /** Counts one hit; returns the seconds to wait when the limit is exceeded, else 0. */
  hit(key: string): number {
    const t = this.now();
    let entry = this.hits.get(key);
    if (!entry || entry.resetAt <= t) {
      if (this.hits.size >= this.maxKeys) this.sweep(t);
      entry = { count: 0, resetAt: t + this.windowMs };
      this.hits.set(key, entry);
    }
    entry.count += 1;
    return entry.count > this.limit ? Math.ceil((entry.resetAt - t) / 1000) : 0;
  }

  reset(key: string): void {
    this.hits.delete(key);
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
