// Which types a relayed file may carry (issue 42). Relays exist for video, sound and raster
// pictures; a site that answers with a page, an SVG or any other document is refused, since sent
// on from our origin a browser would render it as ours (a meta refresh in a PDS's "video" moved
// readers to another site). The one list: every relay takes its type from here.
import { fail } from '../../errors.js';

/** The types a relay passes on, by their exact (lower-case, parameter-free) name. */
export const RELAYABLE_TYPES: ReadonlySet<string> = new Set([
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'video/x-matroska',
  'video/mp2t',
  'audio/mpeg',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/ogg',
  'audio/webm',
  'audio/wav',
  'audio/x-wav',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/heic',
]);

/** Common misspellings of listed types, sent on under the right name. */
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/m4a': 'audio/mp4',
  'video/x-m4v': 'video/mp4',
};

/** Answers that name no type: sent on as what the relay expects (and never sniffed: nosniff). */
const UNLABELLED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);
const TYPE_NAME = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,63}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,63}$/;

/**
 * The type to send a relayed file with: the upstream's own when it is one of RELAYABLE_TYPES,
 * `fallback` (what the relay expects) when it named none, else `upstream.not_media` naming it.
 */
export function relayableType(contentType: string | undefined, fallback: string): string {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (RELAYABLE_TYPES.has(type)) return type;
  if (Object.hasOwn(ALIASES, type)) return ALIASES[type];
  if (UNLABELLED.has(type)) return fallback;
  throw TYPE_NAME.test(type)
    ? fail('upstream.not_media', { type })
    : fail('upstream.not_media', { variant: 'unnamed' });
}
