// TikTok's "Please wait..." proof-of-work page (docs/sources.md 'TikTok wait page', as yt-dlp e3f0d8b731 and
// gallery-dl solve it): find i with sha256(base64dec(c.v.a) + String(i)) == base64dec(c.v.c), then
// set the cookie named by #wci to base64(JSON(c with d = base64(String(i)))) and fetch again.
import crypto from 'node:crypto';

export interface WafChallenge {
  cookieName: string;
  challenge: { v: { a: string; c: string }; [k: string]: unknown };
  extraCookie: { name: string; value: string } | null;
}

/**
 * The class of the first `<p ... id="<id>" ... class="...">`: the first `<p` tag whose text (to its
 * `>`) names the id and then a class. One pass over the page: the regex this replaces
 * (/<p\b[^>]*\bid=..[^>]*\bclass=../i) backtracked over every `<p` and took 18 s on 120 KB of
 * `<p id="wci" ` (issue 42). Starts that share one closing `>` share one tag text, read once.
 */
function classOf(html: string, id: string): string | undefined {
  const opens = /<p\b/gi;
  const idAttr = new RegExp(`\\bid=["']${id}["']`, 'i');
  const classAttr = /\bclass=["']([^"']*)["']/i;
  let tagEnd = -1;
  for (let m = opens.exec(html); m; m = opens.exec(html)) {
    if (m.index < tagEnd) continue;
    const gt = html.indexOf('>', m.index);
    tagEnd = gt < 0 ? html.length : gt;
    const tag = html.slice(m.index + 2, tagEnd);
    const named = idAttr.exec(tag);
    const cls = named ? classAttr.exec(tag.slice(named.index + named[0].length)) : null;
    if (cls) return cls[1];
    if (gt < 0) break; // the last tag runs to the end: every later `<p` is inside it
  }
  return undefined;
}

const b64 = (s: string) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');

export function detectWafChallenge(html: string): WafChallenge | null {
  const cookieName = classOf(html, 'wci');
  const cs = classOf(html, 'cs');
  if (!cookieName || !cs || !/^[\w-]{1,64}$/.test(cookieName)) return null;
  try {
    const challenge = JSON.parse(b64(cs).toString('utf8'));
    if (typeof challenge?.v?.a !== 'string' || typeof challenge?.v?.c !== 'string') return null;
    const rci = classOf(html, 'rci');
    const rs = classOf(html, 'rs');
    const extraCookie = rci && rs && /^[\w-]{1,64}$/.test(rci) ? { name: rci, value: rs } : null;
    return { cookieName, challenge, extraCookie };
  } catch {
    return null;
  }
}

/** Solves the challenge without blocking the event loop for long; null when no answer <= 1e6. */
export async function solveWafChallenge(ch: WafChallenge, maxTries = 1_000_000): Promise<string | null> {
  const prefix = b64(ch.challenge.v.a);
  const target = b64(ch.challenge.v.c);
  for (let i = 0; i <= maxTries; i++) {
    if (crypto.createHash('sha256').update(prefix).update(String(i)).digest().equals(target)) {
      const solved = { ...ch.challenge, d: Buffer.from(String(i)).toString('base64') };
      return Buffer.from(JSON.stringify(solved)).toString('base64');
    }
    if (i % 20_000 === 19_999) await new Promise((r) => setImmediate(r));
  }
  return null;
}
