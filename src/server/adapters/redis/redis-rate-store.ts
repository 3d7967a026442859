// Rate-limit windows in Redis (issue 21): when REDIS_URL is set, every node counts in it, whatever
// database each uses. One INCR per hit, the key expiring with its window (aligned on the clock, so
// every node agrees where a window starts).
import type { createClient } from '@redis/client';
import type { Logger } from 'pino';
import { fail } from '../../errors.js';
import type { RateLimitStore } from '../../lib/rate-limiter.js';

const UNHIT =
  "if redis.call('GET', KEYS[1]) and tonumber(redis.call('GET', KEYS[1])) > 0 then " +
  "return redis.call('DECR', KEYS[1]) end return 0";

export function createRedisRateStore(opts: {
  url: string;
  prefix: string;
  logger: Logger;
}): RateLimitStore & { ready(timeoutMs: number): Promise<void>; close(): Promise<void> } {
  // The client library loads here, not with the server: most installs have no Redis (decision 0075).
  // No offline queue: while Redis is away a hit fails at once (503) instead of holding the request.
  let client: ReturnType<typeof createClient> | null = null;
  const loaded = import('@redis/client').then(({ createClient }) => {
    client = createClient({
      url: opts.url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => Math.min(retries * 200, 5_000) },
    });
    client.on('error', (err: Error) => opts.logger.warn({ err: err.message }, 'redis error'));
    // Connecting goes on in the background (and again after a drop); hits meanwhile answer 503.
    client.connect().catch(() => undefined);
    return client;
  });
  const away = () => fail('service.rate_limits_unavailable');
  const run = async <T>(fn: (c: NonNullable<typeof client>) => Promise<T>): Promise<T> => {
    if (!client?.isReady) throw away();
    try {
      return await fn(client);
    } catch {
      throw away();
    }
  };
  const windowKey = (key: string, windowMs: number, now: number) => {
    const start = Math.floor(now / windowMs) * windowMs;
    return { name: `${opts.prefix}rl:${key}:${start}`, resetAt: start + windowMs };
  };
  return {
    async hit(key, windowMs, now) {
      const w = windowKey(key, windowMs, now);
      const [count] = (await run((c) =>
        c
          .multi()
          .incr(w.name)
          .pExpireAt(w.name, w.resetAt + 1_000)
          .exec(),
      )) as unknown as [number, unknown];
      return { count: Number(count), resetAt: w.resetAt };
    },
    async reset(key, windowMs, now) {
      await run((c) => c.del(windowKey(key, windowMs, now).name));
    },
    async unhit(key, windowMs, now) {
      // Only an existing window: a DECR on an expired key would create one that never expires.
      await run((c) => c.eval(UNHIT, { keys: [windowKey(key, windowMs, now).name] }));
    },
    /** Waits (at most `timeoutMs`) for the first connection, so the first requests are not refused. */
    async ready(timeoutMs) {
      const client = await loaded;
      if (client.isReady) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        client.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (!client.isReady) opts.logger.warn('redis is not reachable yet: rate-limited requests answer 503 until it is');
    },
    async close() {
      const client = await loaded;
      if (client.isReady) await client.close().catch(() => client.destroy());
      else if (client.isOpen) client.destroy();
    },
  };
}
