// Accounts: local email + password (argon2id) and users coming from OpenID Connect claims.
import argon2 from 'argon2';
import { fail, retryAfter } from '../errors.js';
import type { RegisterRequest, LoginRequest } from '../../shared/contracts/index.js';
import type { User, UsersRepository } from '../db/repositories/users.repository.js';
import type { RateLimiter } from '../lib/rate-limiter.js';

const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

export interface AuthServiceDeps {
  users: UsersRepository;
  /** Attempts per IP and per (IP, email): ctx.limits.signInsPerIp / signInsPerIpAndEmail. */
  ipLimiter: RateLimiter;
  emailLimiter: RateLimiter;
}

const invalidCredentials = () => fail('auth.invalid_credentials');

const tooManyAttempts = (seconds: number) => fail('auth.rate_limited', undefined, {}, retryAfter(seconds));

export function createAuthService(deps: AuthServiceDeps) {
  // Wrong passwords for one email count per (IP, email): an attacker elsewhere cannot lock the
  // owner out of their own account; each IP also has its own ceiling across emails.
  const { ipLimiter, emailLimiter } = deps;
  const emailKey = (ip: string, email: string) => `email:${ip}|${email.toLowerCase()}`;
  // Verifying against a real hash when the email is unknown keeps both answers equally slow.
  const dummyHash = hashPassword(`not-a-real-password-${Math.random()}`);

  async function checkLimits(ip: string, email?: string) {
    const [byIp, byEmail] = await Promise.all([
      ipLimiter.hit(`ip:${ip}`),
      email ? emailLimiter.hit(emailKey(ip, email)) : 0,
    ]);
    const wait = Math.max(byIp, byEmail);
    if (wait > 0) throw tooManyAttempts(wait);
  }

  return {
    async register(input: RegisterRequest, ip: string): Promise<User> {
      await checkLimits(ip);
      const hash = await hashPassword(input.password);
      const user = await deps.users.createWithPassword(
        { email: input.email, firstName: input.firstName || null, lastName: input.lastName || null },
        hash,
      );
      if (!user) throw fail('auth.email_taken');
      return user;
    },

    async login(input: LoginRequest, ip: string): Promise<User> {
      await checkLimits(ip, input.email);
      const user = input.email ? await deps.users.findByEmail(input.email) : undefined;
      const hash = user ? await deps.users.getPasswordHash(user.id) : undefined;
      const ok = await argon2.verify(hash ?? (await dummyHash), input.password).catch(() => false);
      if (!user || !hash || !ok) throw invalidCredentials();
      await emailLimiter.reset(emailKey(ip, input.email));
      return user;
    },

    upsertFromClaims(
      issuer: string,
      claims: {
        sub: string;
        email?: unknown;
        email_verified?: unknown;
        given_name?: unknown;
        family_name?: unknown;
        picture?: unknown;
      },
    ): Promise<User> {
      const str = (v: unknown, max: number) => (typeof v === 'string' && v.trim() ? v.trim().slice(0, max) : null);
      const email = str(claims.email, 320)?.toLowerCase() ?? null;
      return deps.users.upsertFromIdentity(
        { issuer, subject: claims.sub },
        {
          email,
          firstName: str(claims.given_name, 255),
          lastName: str(claims.family_name, 255),
          profileImageUrl: str(claims.picture, 1000),
        },
        claims.email_verified === true,
      );
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
