// Accounts: local email + password (argon2id) and users coming from OpenID Connect claims.
import argon2 from 'argon2';
import { fail, retryAfter } from '../errors.js';
import type { RegisterRequest, LoginRequest } from '../../shared/contracts/index.js';
import type { User, UsersRepository } from '../db/repositories/users.repository.js';
import type { RateLimits } from '../lib/rate-limits.js';
import { checkPassword } from '../lib/password-policy.js';

const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_OPTIONS);
}

export interface AuthServiceDeps {
  users: UsersRepository;
  /** Sign-ups per IP; wrong passwords per (IP, email), per email, per IP, or per known device (rate-limits.ts). */
  limits: Pick<
    RateLimits,
    | 'signUpsPerIp'
    | 'signInFailuresPerIpAndEmail'
    | 'signInFailuresPerEmail'
    | 'signInFailuresPerIp'
    | 'signInFailuresPerDevice'
  >;
}

const invalidCredentials = () => fail('auth.invalid_credentials');

const tooManyAttempts = (seconds: number) => fail('auth.rate_limited', undefined, {}, retryAfter(seconds));

export function createAuthService(deps: AuthServiceDeps) {
  // Only failures count (issue 31): each attempt is counted before the password is checked, so
  // parallel guesses cannot pass the limit, then taken back unless the password was wrong. The
  // (IP, email) pair is tight; an email's own limit (any address) and an address's own limit (any
  // email) are wide. A device that signed in to the email before (its signed device cookie, as
  // OWASP's "device cookies") counts on its own budget only, so failures from anywhere else, on
  // this account or on others from a shared address, never block the owner there (decision 0048).
  const { limits } = deps;
  // Verifying against a real hash when the email is unknown keeps both answers equally slow.
  const dummyHash = hashPassword(`not-a-real-password-${Math.random()}`);

  return {
    async register(input: RegisterRequest, ip: string): Promise<User> {
      const wait = await limits.signUpsPerIp.hit(`ip:${ip}`);
      if (wait > 0) throw tooManyAttempts(wait);
      checkPassword(input.password, { email: input.email, names: [input.firstName ?? null, input.lastName ?? null] });
      const hash = await hashPassword(input.password);
      const user = await deps.users.createWithPassword(
        { email: input.email, firstName: input.firstName || null, lastName: input.lastName || null },
        hash,
      );
      if (!user) throw fail('auth.email_taken');
      return user;
    },

    /** `device`: the id of a device that signed in to this email before (a valid device cookie), else null. */
    async login(input: LoginRequest, ip: string, device: string | null = null): Promise<User> {
      const email = input.email.toLowerCase();
      const pair = `${ip}|${email}`;
      const known = device ? `${device}|${email}` : null;
      const attempts = await Promise.all(
        known
          ? [limits.signInFailuresPerDevice.attempt(known)]
          : [
              limits.signInFailuresPerIpAndEmail.attempt(pair),
              limits.signInFailuresPerEmail.attempt(email),
              limits.signInFailuresPerIp.attempt(ip),
            ],
      );
      const forgive = () => Promise.all(attempts.map((a) => a.forgive()));
      const wait = Math.max(...attempts.map((a) => a.wait));
      if (wait > 0) {
        await forgive();
        throw tooManyAttempts(wait);
      }
      let wrong = false;
      try {
        const user = email ? await deps.users.findByEmail(email) : undefined;
        const hash = user ? await deps.users.getPasswordHash(user.id) : undefined;
        const ok = await argon2.verify(hash ?? (await dummyHash), input.password).catch(() => false);
        if (!user || !hash || !ok) {
          wrong = true;
          throw invalidCredentials();
        }
        // The owner proved who they are: their device, or their pair and their email, start again
        // from nothing (on a known device the email's count stays: it is other devices' failures).
        await Promise.all(
          known
            ? [limits.signInFailuresPerDevice.clear(known)]
            : [limits.signInFailuresPerIpAndEmail.clear(pair), limits.signInFailuresPerEmail.clear(email)],
        );
        return user;
      } finally {
        // Not a wrong password (a success, or our own fault such as the database away): not a failure.
        if (!wrong) await forgive().catch(() => undefined);
      }
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
