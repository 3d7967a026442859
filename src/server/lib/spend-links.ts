// Keys on the links that spend a download or start media work (issue 42, decision 0082). A browser
// sends Fetch Metadata only to https and localhost; on a plain-http address (a LAN name) another
// site's page can send such a GET with the person's Lax cookie and nothing tells it apart. So there
// the link must carry `t=<exp>.<mac>`: an HMAC over the person's id, the path, every other query
// parameter and the expiry, keyed from SESSION_SECRET. Only this site's own answers (to a
// same-origin POST, which the Origin check guards) hand keys out, and only to the person they are
// for; another site can neither read them nor make one.
import crypto from 'node:crypto';

/** The query parameter carrying the key. */
export const SPEND_KEY_PARAM = 't';
/** How long a key works: a card left open for an afternoon still previews; a copied link soon stops. */
export const SPEND_KEY_TTL_MS = 6 * 3_600_000;

export type SpendKeyVerdict = 'ok' | 'missing' | 'expired' | 'invalid';

export interface SpendLinks {
  /** `link` (a path with its query, as the route builders make it) with a key for `userId`. */
  sign(userId: string, link: string): string;
  /** Whether the request target (`request.url`) carries a key made for `userId`. */
  check(userId: string, target: string): SpendKeyVerdict;
}

/** The path (decoded, so any spelling of one path is one path) and the other parameters, in order. */
function canonical(target: string): { text: string; key: string | null } {
  // Parsed against a fixed origin: the target is a path, never an address to follow.
  const url = new URL(`http://x${target.startsWith('/') ? '' : '/'}${target}`);
  let path = url.pathname;
  try {
    path = decodeURIComponent(path);
  } catch {
    /* a malformed escape: keep it as sent (it then matches nothing we signed) */
  }
  const key = url.searchParams.get(SPEND_KEY_PARAM);
  url.searchParams.delete(SPEND_KEY_PARAM);
  const params = [...url.searchParams].sort(([a, av], [b, bv]) => (a === b ? cmp(av, bv) : cmp(a, b)));
  return { text: JSON.stringify([path, params]), key };
}
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function createSpendLinks(secret: string, now: () => number = Date.now): SpendLinks {
  const macKey = crypto.createHmac('sha256', secret).update('spend-link-v1').digest();
  const mac = (userId: string, text: string, exp: number) =>
    crypto.createHmac('sha256', macKey).update(`${userId}\n${text}\n${exp}`).digest('base64url');
  return {
    sign(userId, link) {
      const { text } = canonical(link);
      const exp = Math.floor((now() + SPEND_KEY_TTL_MS) / 1000);
      const bare = link.replace(new RegExp(`([?&])${SPEND_KEY_PARAM}=[^&]*&?`), '$1').replace(/[?&]$/, '');
      return `${bare}${bare.includes('?') ? '&' : '?'}${SPEND_KEY_PARAM}=${exp}.${mac(userId, text, exp)}`;
    },
    check(userId, target) {
      const { text, key } = canonical(target);
      if (!key) return 'missing';
      const m = /^(\d{1,12})\.([\w-]{43})$/.exec(key);
      if (!m) return 'invalid';
      const exp = Number(m[1]);
      const expected = Buffer.from(mac(userId, text, exp));
      const given = Buffer.from(m[2]);
      if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return 'invalid';
      return exp * 1000 < now() ? 'expired' : 'ok';
    },
  };
}
