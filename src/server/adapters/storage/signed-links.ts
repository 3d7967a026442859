// Expiring links to stored results: /api/media/<key>?exp=<unix s>&sig=<HMAC-SHA256>. The link is
// the capability (it works in a plain <a download>), so it is bound to the key and expiry and
// signed with a key derived from the session secret.
import crypto from 'node:crypto';
import { mediaResultUrl } from '../../../shared/api-paths.js';

function mac(secret: string, key: string, exp: number): string {
  const k = crypto.createHmac('sha256', secret).update('media-link-v1').digest();
  return crypto.createHmac('sha256', k).update(`${key}\n${exp}`).digest('base64url');
}

/** The signature alone, for links served by another route (a batch's ZIP). */
export const mediaLinkSignature = (secret: string, key: string, exp: number): string => mac(secret, key, exp);

export function signMediaLink(secret: string, key: string, exp: number): string {
  return mediaResultUrl(key, exp, mac(secret, key, exp));
}

export function verifyMediaLink(
  secret: string,
  key: string,
  exp: number,
  sig: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): 'ok' | 'expired' | 'invalid' {
  const expected = Buffer.from(mac(secret, key, exp));
  const given = Buffer.from(sig);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'invalid';
  return exp < nowSeconds ? 'expired' : 'ok';
}
