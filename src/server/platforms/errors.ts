// Link refusals every platform shares; their failures are the catalogue's neutral codes
// (shared/error-messages.ts, issue 19), each naming the registered platforms, never a list of its own.
import { fail } from '../errors.js';
import { HttpClientError } from '../adapters/http/index.js';

/**
 * The guarded client's own failures (no answer, a timeout) as the platform not answering; a refusal
 * by policy (a private address) stays what it is. `who`: the platform's params in the catalogue.
 */
export function upstreamFailure(who: { platform: string }) {
  return (err: unknown): unknown =>
    err instanceof HttpClientError && err.kind !== 'blocked' ? fail('upstream.unavailable', who) : err;
}

/** `A`, `A or B`: the platforms' names in a sentence. */
export const platformList = (names: string[]) => names.join(' or ');

/** A link missing, malformed or known to no platform: one wording on every tool (issue 31). */
export const unsupportedLink = (names: string[]) =>
  fail('link.unsupported', { variant: 'provide', platforms: platformList(names) });
