// The device cookie of OWASP's "Slow Down Online Guessing Attacks with Device Cookies" (issue 34,
// decision 0048): after a correct password (or a sign-up) the browser gets a signed cookie naming
// its own random id and the accounts it signed in to (a hash of each email, never the email). On
// the next sign-in to one of those accounts, wrong passwords count on that device's own budget
// only, so an attacker elsewhere, or on other accounts from a shared address, never blocks it.
// Sent only to /api/auth, HttpOnly, SameSite=Strict; signed with SESSION_SECRET like the session.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const DEVICE_COOKIE = 'smt.device';
const MAX_AGE_S = 365 * 24 * 60 * 60;
const MAX_ACCOUNTS = 8;
const ID = /^[A-Za-z0-9_-]{22}$/;
const TAG = /^[0-9a-f]{16}$/;

interface Device {
  id: string;
  /** One per account the device signed in to, most recent first. */
  tags: string[];
}

const tagOf = (email: string) =>
  crypto.createHash('sha256').update(`device:${email.toLowerCase()}`).digest('hex').slice(0, 16);

function read(request: FastifyRequest): Device | null {
  const raw = request.cookies[DEVICE_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  const [id, list = ''] = unsigned.value.split('.');
  const tags = list.split(',').filter((t) => TAG.test(t));
  return ID.test(id) ? { id, tags } : null;
}

/** The id of this browser's device cookie when it signed in to `email` before, else null. */
export function knownDevice(request: FastifyRequest, email: string): string | null {
  const device = read(request);
  return device?.tags.includes(tagOf(email)) ? device.id : null;
}

/** After a correct password or a sign-up: this device now knows `email` (kept for a year). */
export function rememberDevice(request: FastifyRequest, reply: FastifyReply, email: string, secure: boolean): void {
  const device = read(request) ?? { id: crypto.randomBytes(16).toString('base64url'), tags: [] };
  const tag = tagOf(email);
  const tags = [tag, ...device.tags.filter((t) => t !== tag)].slice(0, MAX_ACCOUNTS);
  reply.setCookie(DEVICE_COOKIE, `${device.id}.${tags.join(',')}`, {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure,
    signed: true,
    maxAge: MAX_AGE_S,
  });
}
