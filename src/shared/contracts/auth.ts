import { z } from 'zod';

const INVALID_EMAIL = 'Please enter a valid email address';
/** RFC 5321's limits: a local part of at most 64 octets, an address of at most 254 (a path is 256 with <>). */
const withinMailLimits = (email: string) => email.length <= 254 && email.indexOf('@') <= 64;

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, 'Email is too long')
  .pipe(z.email(INVALID_EMAIL).refine(withinMailLimits, INVALID_EMAIL));

export const registerRequest = z.object({
  email: emailSchema,
  password: z.string().min(8, 'Password must be at least 8 characters').max(256, 'Password is too long'),
  firstName: z.string().trim().max(255).optional(),
  lastName: z.string().trim().max(255).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export const loginRequest = z.object({
  email: z.string().trim().toLowerCase().max(320),
  password: z.string().max(256),
});
export type LoginRequest = z.infer<typeof loginRequest>;

export const authUser = z.object({
  id: z.string(),
  email: z.string().nullable(),
  firstName: z.string().nullable(),
  lastName: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  subscriptionStatus: z.string(),
  isPro: z.boolean(),
  isAdmin: z.boolean(),
});
export type AuthUser = z.infer<typeof authUser>;

/** `GET /api/auth/session`: the signed-in user, or null when signed out (always 200). */
export const authSession = z.object({ user: authUser.nullable() });
export type AuthSession = z.infer<typeof authSession>;

/** `GET /api/auth/providers`: which sign-in the server offers (its own accounts, or an OIDC provider). */
export const authProviders = z.object({ local: z.boolean(), oidc: z.boolean() });

export const healthResponse = z.object({ status: z.literal('ok') });
