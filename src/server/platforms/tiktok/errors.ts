// TikTok's failures in the catalogue's neutral codes (shared/error-messages.ts): each a clear message
// saying what to do next (decision 0092 'Honest product') and a 4xx status, upstream trouble included (424/429).
import { fail, type AppError } from '../../errors.js';

/** The params of TikTok's messages in the catalogue's platform-neutral codes. */
export const TIKTOK = { platform: 'TikTok' } as const;

/** TikTok's `webapp.video-detail.statusCode` (+ `statusMsg`) to a typed failure; null when OK. */
export function errorForStatus(statusCode: unknown, statusMsg: unknown): AppError | null {
  const code = Number(statusCode ?? 0);
  const msg = String(statusMsg ?? '');
  if (!code) return null;
  switch (code) {
    case 10204:
      // 'cross_border_violation_ur' = withheld in the region serving us; '...status_deleted' = removed.
      return /cross_border|region|geo/i.test(msg)
        ? fail('video.region_blocked', TIKTOK)
        : fail('video.not_found', TIKTOK);
    case 10216:
    case 10222:
      return fail('video.private', TIKTOK);
    case 10221:
      return fail('video.not_found', TIKTOK);
    case 10231:
      return fail('video.region_blocked', TIKTOK);
    default:
      return /private/i.test(msg)
        ? fail('video.private', TIKTOK)
        : /deleted|not.?exist|removed/i.test(msg)
          ? fail('video.not_found', TIKTOK)
          : fail('upstream.unavailable', TIKTOK);
  }
}
