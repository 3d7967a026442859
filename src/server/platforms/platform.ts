// The platform seam (issue 19): everything the product needs from a video platform, and the neutral
// model services work with. One module per platform under platforms/<id>/ implements it (link
// rules, lookups, media, errors mapped to neutral codes such as `video.not_found`); the registry
// (registry.ts) is the only list of platforms. Services never import a platform's files.
import type { HttpResponse } from '../adapters/http/index.js';
import type { VideoModel, VideoObservation } from './video-model.js';
import { DEFAULT_PLATFORM } from './default.js';
import type { ProfilePage, ProfileRef, ReplyRow } from './profile-model.js';

export type { MediaOption, PhotoSlide, VideoModel, VideoObservation } from './video-model.js';
export type { ListedPost, ProfilePage, ProfileRef, ReplyRow } from './profile-model.js';

/** A recognised link: a video (cleaned, canonical) or a short link to follow. */
export type PlatformLink = { kind: 'video'; id: string; url: string } | { kind: 'short'; url: string };

export interface VideoRef {
  platform: string; // the registry id
  id: string; // the platform's own video id
  url: string; // the canonical page URL
}

export interface FetchedVideo {
  ref: VideoRef;
  video: VideoModel;
  /** The platform's raw item (its page's or API's own JSON), for the platform's own mapping. */
  raw: Record<string, unknown>;
  /** What opening media later needs (cookies, page URL); opaque to services. */
  session: unknown;
}

/** range: a byte range (preview); maxBytes: a ceiling; bulk: a whole file relayed once (download, extraction). */
export interface MediaOpenOptions {
  range?: string;
  maxBytes?: number;
  bulk?: boolean;
  signal?: AbortSignal;
}

export interface Platform {
  id: string; // stored in `platform` columns, media keys and file names
  name: string; // for messages and the client's texts
  /** Ids this platform uses (routes that take an id check it). */
  idPattern: RegExp;
  /** Recognises and cleans a pasted link; null when it is not this platform's. Pure. */
  parseLink(input: string): PlatformLink | null;
  /**
   * The same rule for the client's link fields (GET /api/platforms): matched against a link reduced
   * by shared/platform-links.ts `linkShape` (`https://host/path`, host lower-cased, no query).
   */
  linkPattern: RegExp;
  /** False when its posts' sound is only inside the video (no `sound` download); default true. */
  separateSound?: boolean;
  /** A link of this platform's shape, for placeholders. */
  exampleUrl: string;
  canonicalUrl(id: string): string;
  /** Follows a short link (by its redirect only) to a video. */
  resolveShortLink(url: string, signal?: AbortSignal): Promise<VideoRef>;
  fetchVideo(ref: VideoRef, signal?: AbortSignal): Promise<FetchedVideo>;
  /** Opens one of the video's files (URLs tried in order) with its session; the caller owns the body. */
  openMedia(urls: string[], video: FetchedVideo, opts?: MediaOpenOptions): Promise<HttpResponse>;
  /** A first-party trends observation of a freshly fetched video (counts, tags, sound); null or absent: none. */
  observe?(video: FetchedVideo): VideoObservation | null;
  /** The same files' links in a video fetched again (signed links expire); [] when it has none of them. */
  renewUrls?(stale: string[], fresh: FetchedVideo): string[];
  /** A profile link (a whole account's posts), cleaned; null when it is not one. Pure. Optional (issue 45). */
  parseProfileLink?(input: string): ProfileRef | null;
  /** The same rule for the client's link fields, as `linkPattern`. */
  profilePattern?: RegExp;
  /** One page of the account's posts with media, newest first; reposts only when asked. */
  listProfile?(ref: ProfileRef, o: { cursor?: string; reposts: boolean; signal?: AbortSignal }): Promise<ProfilePage>;
  /** Every reply of a post the platform gives, depth first in thread order. */
  listReplies?(ref: VideoRef, signal?: AbortSignal): Promise<ReplyRow[]>;
}

/** The key prefix of a video in media keys: the default platform keeps bare ids (keys made before the seam stay valid). */
export function mediaKeyId(ref: { platform: string; id?: string; videoId?: string }): string {
  const id = ref.id ?? ref.videoId ?? '';
  return ref.platform === DEFAULT_PLATFORM ? id : `${ref.platform}-${id}`;
}
