// Every rate limit of the product, in one place: what is counted, how many per window. Services
// and routes take theirs from ctx.limits; the counters live in one store (memory for one node,
// PostgreSQL shared by every node: decision 0004).
import type { Config } from '../config.js';
import { MemoryStore, RateLimiter, type RateLimitStore } from './rate-limiter.js';
import { FailureLimiter, type FailureTier } from './failure-limiter.js';
import { fail, retryAfter } from '../errors.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export function rateLimitRules(config: Pick<Config, 'VIDEO_INFO_PER_MINUTE' | 'TEXT_REQUESTS_PER_MINUTE'>) {
  return {
    /** Video lookups (POST /api/video/info, media of an id not looked up lately) per IP, signed out. */
    lookupsPerIp: { limit: config.VIDEO_INFO_PER_MINUTE, windowMs: MINUTE },
    /** The same per account, signed in (an office behind one IP is not one person). */
    lookupsPerUser: { limit: config.VIDEO_INFO_PER_MINUTE * 3, windowMs: MINUTE },
    /** Preview and thumbnail requests per caller. */
    mediaPerCaller: { limit: 240, windowMs: MINUTE },
    /** Accounts created per IP (sign-ins are not counted: see signInFailureRules). */
    signUpsPerIp: { limit: 30, windowMs: 15 * MINUTE },
    /** Text work (hashtags, caption optimiser, blog saves) per account: each may run NLP or Markdown. */
    textPerUser: { limit: config.TEXT_REQUESTS_PER_MINUTE, windowMs: MINUTE },
    /** Subscription create/confirm/cancel per account (each calls PayPal). */
    billingCallsPerUser: { limit: 30, windowMs: MINUTE },
  } as const;
}

/**
 * Wrong passwords, each kind with growing delays (decision 0028). A correct password is never
 * counted, so people sharing an address do not lock each other out.
 */
export const signInFailureRules = {
  /** Per (IP, email): the tight one; nobody at another address is slowed by it. */
  signInFailuresPerIpAndEmail: [
    { limit: 5, windowMs: MINUTE },
    { limit: 10, windowMs: 15 * MINUTE },
    { limit: 20, windowMs: DAY },
  ],
  /** Per email, from any address: guessing spread over many addresses (NIST SP 800-63B: at most 100). */
  signInFailuresPerEmail: [
    { limit: 20, windowMs: 15 * MINUTE },
    { limit: 100, windowMs: DAY },
  ],
  /**
   * Per device that signed in to the email before (its signed device cookie, decision 0048): the
   * owner's own budget, the only one counted for them, so failures elsewhere never block it.
   */
  signInFailuresPerDevice: [
    { limit: 5, windowMs: MINUTE },
    { limit: 10, windowMs: 15 * MINUTE },
    { limit: 20, windowMs: DAY },
  ],
  /** Per IP, across emails: one address trying a list of passwords on many accounts. */
  signInFailuresPerIp: [
    { limit: 20, windowMs: MINUTE },
    { limit: 60, windowMs: 15 * MINUTE },
    { limit: 200, windowMs: DAY },
  ],
} as const satisfies Record<string, readonly FailureTier[]>;

export type RateLimits = Record<keyof ReturnType<typeof rateLimitRules>, RateLimiter> &
  Record<keyof typeof signInFailureRules, FailureLimiter>;

/** Every limit over one store: memory for one node, PostgreSQL shared by many (context.ts). */
export function createRateLimits(
  config: Pick<Config, 'VIDEO_INFO_PER_MINUTE' | 'TEXT_REQUESTS_PER_MINUTE'>,
  store: RateLimitStore = new MemoryStore(),
): RateLimits {
  const rules = rateLimitRules(config);
  return Object.fromEntries([
    ...Object.entries(rules).map(([name, r]) => [name, new RateLimiter(name, r.limit, r.windowMs, store)]),
    ...Object.entries(signInFailureRules).map(([name, tiers]) => [name, new FailureLimiter(name, tiers, store)]),
  ]) as RateLimits;
}

/** Counts one hit for `key`; past the limit, a 429 `rate_limited` saying how long to wait. */
export async function enforceLimit(limiter: RateLimiter, key: string): Promise<void> {
  const wait = await limiter.hit(key);
  if (wait) throw fail('rate_limited', undefined, {}, retryAfter(wait));
}
