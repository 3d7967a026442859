// Each route declares its error answers where it is defined (issue 35), so the OpenAPI description
// (plugins/openapi-errors.ts) is read off the routes themselves and cannot drift from them:
//  - a route's own codes: `config: { errors: [...] }` in its options (the codes its services raise);
//  - a guard's codes travel with the guard: `guard(codes, fn)` marks a preHandler (sign-in, Pro,
//    admin, a rate limit, a same-site check) with what it may answer, so any route using it lists them.
// The named sets below are what several routes share (a video lookup, a platform file, a media job).
import type { ErrorCode } from '../../shared/error-messages.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The catalogue codes this route's own work may answer (guards and validation add theirs). */
    errors?: readonly ErrorCode[];
  }
}

const GUARD_ERRORS = Symbol('guardErrors');

/** A preHandler marked with the codes it may answer. */
export type Guard<F> = F & { readonly [GUARD_ERRORS]: readonly ErrorCode[] };

export function guard<F extends (...args: never[]) => unknown>(codes: readonly ErrorCode[], fn: F): Guard<F> {
  return Object.assign(fn, { [GUARD_ERRORS]: codes });
}

/** The codes a preHandler was marked with; none for an unmarked one. */
export function guardErrors(handler: unknown): readonly ErrorCode[] {
  return typeof handler === 'function' && GUARD_ERRORS in handler
    ? (handler as Guard<() => unknown>)[GUARD_ERRORS]
    : [];
}

/** What looking a video up may answer (any platform; platforms map their own failures to these). */
export const LOOKUP_ERRORS: readonly ErrorCode[] = [
  'link.unsupported',
  'video.not_found',
  'video.private',
  'video.region_blocked',
  'video.login_required',
  'video.age_restricted',
  'upstream.unavailable',
  'upstream.rate_limited',
  'upstream.busy',
  'upstream.timeout',
  'upstream.blocked',
];
/** Opening a platform file (preview, slide, picture, sound). */
export const MEDIA_ERRORS: readonly ErrorCode[] = [
  ...LOOKUP_ERRORS,
  'upstream.incomplete',
  'upstream.not_media',
  'upstream.too_large',
  'request.range',
];
/** A download: a platform file, the quota, and the result made from it. */
export const DOWNLOAD_ERRORS: readonly ErrorCode[] = [
  ...MEDIA_ERRORS,
  'quota.exhausted',
  'video.quality_unavailable',
  'video.sound_unavailable',
  'media.busy',
  'media.timeout',
  'media.store_unavailable',
  'storage.full',
];
/** Work done by a media job (audio, transcripts, caption projects and renders). */
export const MEDIA_JOB_ERRORS: readonly ErrorCode[] = [
  ...MEDIA_ERRORS,
  'media.no_audio',
  'media.unreadable',
  'media.empty',
  'media.too_large',
  'media.timeout',
  'media.busy',
  'media.interrupted',
  'media.unavailable',
  'media.store_unavailable',
  'storage.full',
];
