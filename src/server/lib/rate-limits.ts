// Every rate limit of the product, in one place: what is counted, how many per window. Services
// and routes take theirs from ctx.limits; the counters live in one store (memory for one node,
// PostgreSQL shared by every node: decision 0004).
import type { Config } from '../config.js';
import { MemoryStore, RateLimiter, type RateLimitStore } from './rate-limiter.js';

const MINUTE = 60_000;

export function rateLimitRules(config: Pick<Config, 'VIDEO_INFO_PER_MINUTE'>) {
  return {
    /** Video lookups (POST /api/video/info, media of an id not looked up lately) per IP, signed out. */
    lookupsPerIp: { limit: config.VIDEO_INFO_PER_MINUTE, windowMs: MINUTE },
    /** The same per account, signed in (an office behind one IP is not one person). */
    lookupsPerUser: { limit: config.VIDEO_INFO_PER_MINUTE * 3, windowMs: MINUTE },
    /** Preview and thumbnail requests per caller. */
    mediaPerCaller: { limit: 240, windowMs: MINUTE },
    /** Sign-in and sign-up attempts per IP. */
    signInsPerIp: { limit: 30, windowMs: 15 * MINUTE },
    /** Wrong passwords per (IP, email): nobody elsewhere can lock the owner out. */
    signInsPerIpAndEmail: { limit: 10, windowMs: 15 * MINUTE },
    /** Subscription create/confirm/cancel per account (each calls PayPal). */
    billingCallsPerUser: { limit: 30, windowMs: MINUTE },
  } as const;
}

export type RateLimits = Record<keyof ReturnType<typeof rateLimitRules>, RateLimiter>;

/** Every limit over one store: memory for one node, PostgreSQL shared by many (context.ts). */
export function createRateLimits(
  config: Pick<Config, 'VIDEO_INFO_PER_MINUTE'>,
  store: RateLimitStore = new MemoryStore(),
): RateLimits {
  const rules = rateLimitRules(config);
  return Object.fromEntries(
    Object.entries(rules).map(([name, r]) => [name, new RateLimiter(name, r.limit, r.windowMs, store)]),
  ) as RateLimits;
}
