// Bluesky's failures in the catalogue's neutral codes (shared/error-messages.ts): the messages name
// the platform through its one name, never a text of their own.
import { fail } from '../../errors.js';
import { upstreamFailure } from '../errors.js';

export const NAME = 'Bluesky';
export const BLUESKY = { platform: NAME } as const;

/** The guarded client's own failures (no answer, timeout) as Bluesky not answering; a refusal by policy stays. */
export const upstream = upstreamFailure(BLUESKY);

/** An XRPC error answer (`{ error, message }`) of the AppView or a PDS to a typed failure. */
export function xrpcFailure(status: number, error: string | undefined) {
  if (status === 429) return fail('upstream.rate_limited', BLUESKY);
  // com.atproto.sync.getBlob's errors for an account that is gone or taken down (lexicon).
  if (error && /^Repo(Takendown|Suspended|Deactivated)$/.test(error))
    return fail('video.not_found', { variant: 'withheld', ...BLUESKY });
  if (error === 'NotFound' || error === 'BlobNotFound' || error === 'RepoNotFound' || status === 404)
    return fail('video.not_found', BLUESKY);
  return fail('upstream.unavailable', BLUESKY);
}
