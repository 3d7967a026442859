// Reddit's failures in the catalogue's neutral codes (shared/error-messages.ts), each naming Reddit.
// Its refusals, as its JSON answers them: a private community 403 {"reason": "private"}, a
// quarantined one 403 {"reason": "quarantined"}, a banned one 404 {"reason": "banned"}; a removed
// post keeps its JSON with `removed_by_category`; 429 when we ask too often (never the person's fault).
import { fail, type AppError } from '../../errors.js';
import { upstreamFailure } from '../errors.js';

export const NAME = 'Reddit';
export const REDDIT = { platform: NAME } as const;

/** The guarded client's own failures (no answer, timeout) as Reddit not answering; a refusal by policy stays. */
export const upstream = upstreamFailure(REDDIT);

/** Seconds until Reddit lets us ask again: its Retry-After, else X-Ratelimit-Reset, else a minute. */
export function retryAfterSeconds(header: (name: string) => string | undefined): number {
  for (const name of ['retry-after', 'x-ratelimit-reset']) {
    const n = Number(header(name));
    if (Number.isFinite(n) && n > 0) return Math.min(Math.ceil(n), 3600);
  }
  return 60;
}

export const busy = (seconds: number) => fail('upstream.busy', REDDIT, {}, { 'retry-after': String(seconds) });

/** A non-200 answer of the post's JSON to a typed failure. */
export function answerFailure(status: number, reason: unknown, header: (name: string) => string | undefined): AppError {
  if (status === 429) return busy(retryAfterSeconds(header));
  if (status === 403 && reason === 'private') return fail('video.private', { variant: 'community', ...REDDIT });
  if (status === 403 && reason === 'quarantined')
    return fail('video.login_required', { variant: 'quarantined', ...REDDIT });
  if (status === 404 && reason === 'banned') return fail('video.not_found', { variant: 'banned', ...REDDIT });
  if (status === 404) return fail('video.not_found', REDDIT);
  return fail('upstream.unavailable', REDDIT);
}
