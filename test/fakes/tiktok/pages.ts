/**
 * The fake TikTok's pages (docs/sources.md 'TikTok video page' and on): a video page's `__UNIVERSAL_DATA_FOR_REHYDRATION__`,
 * the proof-of-work "Please wait..." challenge, and every error page the real site answers.
 */
import crypto from 'node:crypto';
import type http from 'node:http';

export type ErrorKind =
  | 'deleted'
  | 'region_withheld'
  | 'private'
  | 'private_account'
  | 'user_not_found'
  | 'region_locked'
  | 'classified'
  | 'login'
  | 'rate_limited'
  | 'unavailable'
  | 'no_data';

export type PageAnswer = { status: number; html?: string; headers?: Record<string, string> };

/** Serialises the scope like TikTok does: `/` as \u002F, and nothing that can close the script. */
export function pageHtml(scope: unknown): string {
  const json = JSON.stringify({ __DEFAULT_SCOPE__: scope }).replace(/\//g, '\\u002F').replace(/</g, '\\u003c');
  return `<!DOCTYPE html><html lang="en"><head><meta charSet="UTF-8"/><title>TikTok</title></head><body><div id="app"></div>
<script id="__UNIVERSAL_DATA_FOR_REHYDRATION__" type="application/json">${json}</script></body></html>`;
}

/** TikTok's proof-of-work challenge: a page asking for it, and whether a request's cookie solved it. */
export function createChallenges() {
  const challenges = new Map<string, number>(); // base64 a -> answer
  let solved = 0;
  function page() {
    const a = crypto.randomBytes(16);
    const answer = crypto.randomInt(0, 5000);
    const c = crypto.createHash('sha256').update(a).update(String(answer)).digest();
    challenges.set(a.toString('base64'), answer);
    const cs = Buffer.from(
      JSON.stringify({ v: { a: a.toString('base64'), c: c.toString('base64') }, s: 'x' }),
    ).toString('base64');
    return {
      status: 200,
      html: `<html><body><p>Please wait...</p><p id="wci" class="_wafchallengeid"></p><p id="cs" class="${cs}"></p></body></html>`,
    };
  }
  function passed(req: http.IncomingMessage): boolean {
    const raw = /(?:^|;\s*)_wafchallengeid=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (!raw) return false;
    try {
      const c = JSON.parse(Buffer.from(raw, 'base64').toString('utf8'));
      const ok = challenges.get(c.v.a) === Number(Buffer.from(c.d, 'base64').toString('utf8'));
      if (ok) solved++;
      return ok;
    } catch {
      return false;
    }
  }
  return {
    page,
    passed,
    get solved() {
      return solved;
    },
  };
}

/** The page an error answers with, for a post `id`, built from the captured fixture pages. */
export function errorPage(kind: ErrorKind, id: string, fixtureScope: any, deletedHtml: string, deletedId: string) {
  const detail = (statusCode: number, statusMsg = '') => ({
    status: 200,
    html: pageHtml({ 'seo.abtest': fixtureScope['seo.abtest'], 'webapp.video-detail': { statusCode, statusMsg } }),
  });
  const responses: Record<ErrorKind, () => PageAnswer> = {
    deleted: () => ({ status: 200, html: deletedHtml.replaceAll(deletedId, id) }),
    region_withheld: () => detail(10204, 'cross_border_violation_ur'),
    private: () => detail(10216),
    private_account: () => detail(10222),
    user_not_found: () => detail(10221),
    region_locked: () => detail(10231),
    classified: () => {
      const scope = structuredClone(fixtureScope);
      const item = scope['webapp.video-detail'].itemInfo.itemStruct;
      delete item.video;
      item.id = id;
      item.isContentClassified = true;
      return { status: 200, html: pageHtml(scope) };
    },
    login: () => ({
      status: 302,
      headers: {
        location: `https://www.tiktok.com/login?redirect_url=${encodeURIComponent(`https://www.tiktok.com/@x/video/${id}`)}`,
      },
    }),
    rate_limited: () => ({ status: 429, html: 'Too many requests' }),
    unavailable: () => ({ status: 503, html: 'Service Unavailable' }),
    no_data: () => ({ status: 200, html: '<html><body><p>Please wait...</p></body></html>' }),
  };
  return responses[kind];
}
