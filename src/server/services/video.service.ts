/**
 * The video service (ctx.services.video): lookups on every registered platform (platforms/
 * registry.ts), cached, and media opening for every tool.
 *
 *   const { info, video } = await ctx.services.video.getInfo(url, signal)
 *     info   decision 0092 'Video info' (what /api/video/info answers; option urls are our own endpoints)
 *     video  FetchedVideo: video.ref ({ platform, id, url }), video.video the neutral VideoModel
 *            (title, author, duration, options, musicUrl, subtitles, images), video.raw the
 *            platform's own item, video.session what opening its media needs (e.g. cookies).
 *   const m = await ctx.services.video.openMedia(url, { kind: 'video', quality: DEFAULT_QUALITY } | { kind: 'music' }, signal)
 *     m.stream (Readable; the caller must consume or destroy it), m.contentType, m.contentLength
 *     (null when unknown), m.video (as above), m.option (the chosen video option, if kind=video).
 *     Options: range ('bytes=0-'), maxBytes (byte ceiling), bulk (whole file, lean transport),
 *     mediaUrls (files of the parsed item, e.g. a subtitle, tried in order with the session).
 *   await ctx.services.video.fetchText(subtitleUrl, video, signal)   // small files, e.g. WebVTT
 *
 * Lookups are cached per platform and video id for CACHE_TTL_MS with their session, so a download
 * right after a fetch costs no second page fetch; concurrent lookups of one id share one fetch.
 * After every real fetch (not a cache hit) each ctx.videoObservers function gets the FetchedVideo.
 * A link no platform recognises fails with 400 `link.unsupported` before any request leaves.
 */
import type { Readable } from 'node:stream';
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import { AppError, fail } from '../errors.js';
import type { VideoInfo } from '../../shared/contracts/index.js';
import { DEFAULT_QUALITY } from '../../shared/constants.js';
import type {
  FetchedVideo,
  MediaOpenOptions,
  MediaOption,
  Platform,
  VideoModel,
  VideoRef,
} from '../platforms/platform.js';
import { defaultOption, optionFile, previewOption, slideshowFrame } from '../platforms/video-model.js';
import { DEFAULT_PLATFORM, type PlatformRegistry } from '../platforms/registry.js';
import { unsupportedLink } from '../platforms/errors.js';
import { downloadUrl } from '../../shared/api-paths.js';
import { VIDEO_LINKS } from '../platforms/default.js';

export const CACHE_TTL_MS = 5 * 60 * 1000;
const MAX_ENTRIES = 2000;
/** A slide is a JPEG of a few hundred KB; anything past this is not one. */
export const MAX_SLIDE_BYTES = 20 * 1024 * 1024;

export interface OpenedVideoMedia {
  stream: Readable;
  status: number; // 200, or 206 for a range
  contentType: string;
  contentLength: number | null;
  contentRange: string | null;
  video: FetchedVideo;
  option: MediaOption | null;
  /** Call with each chunk of `stream` once its bytes were written out, so its buffer can be reused. */
  release(chunk: Buffer): void;
}

/** `alternate`: the option's n-th other file of that size (1 = its first alternate). */
export type MediaRequest =
  | { kind: 'video'; quality?: string; alternate?: number }
  | { kind: 'music' }
  | { kind: 'sound'; source: number }; // the post's original sound, its n-th source (0: the best)

/** A post's pictures as downloads (issue 28). */
export const PICTURE_KINDS = ['cover', 'animated-cover', 'avatar'] as const;
export type PictureKind = (typeof PICTURE_KINDS)[number];
export function pictureUrls(v: VideoModel, kind: PictureKind): string[] {
  const p = v.pictures;
  if (!p) return [];
  return kind === 'cover' ? p.cover : kind === 'animated-cover' ? p.animatedCover : p.avatar;
}
/** `mediaUrls`: a file of the parsed item (a subtitle, a gear, a sound track), tried in order with the page's cookies. */
type MediaTarget = MediaRequest & { mediaUrl?: string; mediaUrls?: string[] };

/** What a download of `quality` is: a video file, or one of a photo post's two renderings. */
export const PHOTO_QUALITIES = ['images', 'slideshow'] as const;
export type PhotoQuality = (typeof PHOTO_QUALITIES)[number];

export function toVideoInfo(v: FetchedVideo): VideoInfo {
  const p = v.video;
  const url = v.ref.url;
  const platform = v.ref.platform;
  const link = (quality: string) => downloadUrl(url, quality);
  const size = (w: number | null, h: number | null) => (w && h ? `${w}x${h}` : 'Unknown');
  const info: VideoInfo = {
    url,
    videoId: p.id,
    title: p.title,
    author: p.author,
    platform: v.ref.platform,
    thumbnail: p.thumbnailUrl ? VIDEO_LINKS.thumbnail(p.id, platform) : null,
    videoUrl: VIDEO_LINKS.stream(p.id, platform),
    duration: p.duration,
    views: p.views,
    likes: p.likes,
    downloadOptions: p.options.map((o) => ({
      quality: o.quality,
      codec: o.codec,
      resolution: size(o.width, o.height),
      size: o.size,
      url: link(o.quality),
      ...(o.silent ? { silent: true } : {}),
    })),
    mediaType: p.isPhotoPost ? 'photo' : 'video',
  };
  const pictures = PICTURE_KINDS.filter((k) => pictureUrls(p, k).length);
  if (pictures.length)
    info.pictures = pictures.map((kind) => ({ kind, url: VIDEO_LINKS.picture(p.id, kind, platform) }));
  // The post's own sound, copied (issue 28): beside the video files, or a photo post's two files.
  const sound = p.originalSound?.sources[0];
  const soundOption = sound && {
    quality: 'sound',
    resolution: 'Audio',
    size: null,
    url: link('sound'),
    format: sound.ext,
    bitrate: sound.bitrate,
  };
  if (!p.isPhotoPost) {
    if (soundOption) info.downloadOptions.push(soundOption);
    return info;
  }
  info.images = p.images.map((s, i) => ({
    url: VIDEO_LINKS.slide(p.id, i + 1, platform),
    width: s.width,
    height: s.height,
  }));
  if (p.images.length) {
    const frame = slideshowFrame(p.images);
    info.downloadOptions = [
      { quality: 'images', resolution: size(p.images[0].width, p.images[0].height), size: null, url: link('images') },
      {
        quality: 'slideshow',
        codec: 'h264',
        resolution: size(frame.width, frame.height),
        size: null,
        url: link('slideshow'),
      },
    ];
  }
  if (soundOption && p.images.length) info.downloadOptions.push(soundOption);
  return info;
}

export function createVideoService(deps: {
  platforms: PlatformRegistry;
  observers: () => Array<(video: FetchedVideo) => void>;
  logger: Logger;
  ttlMs?: number;
  now?: () => number;
}) {
  const ttl = deps.ttlMs ?? CACHE_TTL_MS;
  const now = deps.now ?? Date.now;
  // Bounded TTL caches (least recently used dropped first), on the service's clock.
  const cacheOptions = { max: MAX_ENTRIES, ttl, ttlResolution: 0, perf: { now } };
  const byId = new LRUCache<string, Promise<FetchedVideo>>(cacheOptions);
  const shortLinks = new LRUCache<string, VideoRef>(cacheOptions);

  const names = deps.platforms.all.map((p) => p.name);
  const cacheKey = (ref: Pick<VideoRef, 'platform' | 'id'>) => `${ref.platform}:${ref.id}`;
  const platformOf = (video: FetchedVideo): Platform => deps.platforms.get(video.ref.platform);
  /** No video file to send: a photo post has none, else the platform gave no usable one. */
  const noVideoFile = (video: FetchedVideo) => {
    const platform = platformOf(video).name;
    return video.video.isPhotoPost
      ? fail('link.unsupported', { variant: 'photo_post', platform })
      : fail('upstream.unavailable', { platform });
  };

  async function resolve(url: string, signal?: AbortSignal): Promise<VideoRef> {
    const found = deps.platforms.match(url);
    if (!found) throw unsupportedLink(names);
    const { platform, link } = found;
    if (link.kind === 'video') return { platform: platform.id, id: link.id, url: link.url };
    const hit = shortLinks.get(link.url);
    if (hit) return hit;
    const ref = await platform.resolveShortLink(link.url, signal);
    shortLinks.set(link.url, ref);
    return ref;
  }

  function notify(video: FetchedVideo) {
    for (const observer of deps.observers()) {
      try {
        observer(video);
      } catch (err) {
        deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'video observer failed');
      }
    }
  }

  /** The fetched video for a ref, from the cache or one shared page fetch. */
  function load(ref: VideoRef, opts: { fresh?: boolean } = {}): Promise<FetchedVideo> {
    const key = cacheKey(ref);
    const hit = opts.fresh ? undefined : byId.get(key);
    if (hit) return hit;
    // Not tied to one caller's signal: other callers may share this fetch.
    const value = deps.platforms
      .get(ref.platform)
      .fetchVideo(ref)
      .then((v) => {
        notify(v);
        return v;
      });
    byId.set(key, value);
    value.catch(() => {
      if (byId.peek(key) === value) byId.delete(key);
    });
    return value;
  }

  async function lookup(url: string, signal?: AbortSignal): Promise<FetchedVideo> {
    const ref = await resolve(url, signal);
    return load(ref);
  }

  function pickOption(video: FetchedVideo, quality: string | undefined): MediaOption {
    const options = video.video.options;
    if (!options.length) throw noVideoFile(video);
    const q = (quality ?? DEFAULT_QUALITY).toLowerCase();
    // The default label names no file on every platform: it means the platform's default file.
    const found = q === DEFAULT_QUALITY ? defaultOption(options, q) : options.find((o) => o.quality === q);
    if (!found) throw fail('video.quality_unavailable', { quality: q });
    return found;
  }

  async function openOnce(video: FetchedVideo, req: MediaTarget, o: MediaOpenOptions) {
    let option: MediaOption | null = null;
    let urls: string[];
    if (req.mediaUrls) urls = req.mediaUrls;
    else if (req.mediaUrl) urls = [req.mediaUrl];
    else if (req.kind === 'music') {
      if (!video.video.musicUrl) throw fail('video.no_music');
      urls = [video.video.musicUrl];
    } else if (req.kind === 'sound') {
      const source = video.video.originalSound?.sources[req.source];
      if (!source) throw fail('video.no_music');
      urls = source.urls;
    } else {
      option = pickOption(video, req.quality);
      if (req.alternate) option = optionFile(video.video.options, option.quality, req.alternate) ?? option;
      urls = option.urls;
    }
    const res = await platformOf(video).openMedia(urls, video, o);
    // Only a video, sound or picture goes on (never a page or an SVG from the site: issue 42).
    const contentType = res.mediaType(req.kind === 'video' ? 'video/mp4' : 'audio/mpeg');
    const length = Number(res.header('content-length'));
    return {
      stream: res.body,
      status: res.status,
      contentType,
      contentLength: Number.isFinite(length) && res.header('content-length') !== undefined ? length : null,
      contentRange: res.header('content-range') ?? null,
      video,
      option,
      release: res.release,
    };
  }

  async function openMedia(
    url: string,
    req: MediaTarget,
    signal?: AbortSignal,
    o: MediaOpenOptions = {},
  ): Promise<OpenedVideoMedia> {
    const ref = await resolve(url, signal);
    const video = await load(ref);
    try {
      return await openOnce(video, req, { ...o, signal });
    } catch (err) {
      // Cached cookies or signed URLs may have gone stale: one fresh page fetch, then give up.
      if (signal?.aborted || !(err instanceof AppError) || err.code !== 'upstream.unavailable') throw err;
      const fresh = await load(ref, { fresh: true });
      const stale = req.mediaUrls ?? (req.mediaUrl ? [req.mediaUrl] : null);
      if (!stale) return openOnce(fresh, req, { ...o, signal });
      // A file named by its links: the same file's fresh links when the platform can tell, else the
      // same links with the fresh session (its cookies may be what was stale).
      const renewed = platformOf(fresh).renewUrls?.(stale, fresh) ?? [];
      const mediaUrls = renewed.length ? renewed : stale;
      return openOnce(fresh, { ...req, mediaUrl: undefined, mediaUrls }, { ...o, signal });
    }
  }

  return {
    resolve,
    /** True when a registered platform recognises the link (no request is made). */
    recognises: (url: string) => deps.platforms.match(url) !== null,
    /** The platform and cleaned link of a pasted link, without any request (null: not a video link). */
    match: (url: string) => deps.platforms.match(url),
    platformNames: () => names,
    /** A platform's name for messages, by its registry id. */
    platformName: (id: string) => deps.platforms.get(id).name,
    lookup,
    pickOption,
    async getInfo(url: string, signal?: AbortSignal): Promise<{ info: VideoInfo; video: FetchedVideo }> {
      const video = await lookup(url, signal);
      return { info: toVideoInfo(video), video };
    },
    /** True when a lookup of this id is cached (a by-id read then costs no page fetch). */
    isCached(id: string, platform = DEFAULT_PLATFORM): boolean {
      return byId.has(cacheKey({ platform, id }));
    },
    /** A video by id (preview, thumbnail, slide): from the cache, else through its canonical page. */
    byId(id: string, _signal?: AbortSignal, platformId = DEFAULT_PLATFORM): Promise<FetchedVideo> {
      const platform = deps.platforms.get(platformId);
      if (!platform.idPattern.test(id)) throw unsupportedLink([platform.name]);
      return load({ platform: platform.id, id, url: platform.canonicalUrl(id) });
    },
    openMedia,
    /** A small text file (captions) with the page's cookies, at most 2 MB. */
    async fetchText(mediaUrl: string, video: FetchedVideo, signal?: AbortSignal): Promise<string> {
      const res = await platformOf(video).openMedia([mediaUrl], video, { signal });
      return res.text(2 * 1024 * 1024);
    },
    /** The preview's file of a video (video-model.ts `previewOption`): a split one is joined by the caller. */
    async previewFile(id: string, signal?: AbortSignal, platform = DEFAULT_PLATFORM) {
      const video = await this.byId(id, signal, platform);
      const option = previewOption(video.video.options);
      if (!option) throw noVideoFile(video);
      return { video, option };
    },
    /** Inline preview: the lightest whole option of a video by id (it has its own sound), Range passed through. */
    async openPreview(
      id: string,
      range: string | undefined,
      signal?: AbortSignal,
      platform = DEFAULT_PLATFORM,
    ): Promise<OpenedVideoMedia> {
      const { video, option } = await this.previewFile(id, signal, platform);
      return openMedia(video.ref.url, { kind: 'video', quality: option.quality }, signal, { range });
    },
    /** Slide `n` (from 1) of a photo post, byte for byte, with the page's cookies. */
    async openSlide(id: string, n: number, signal?: AbortSignal, platform = DEFAULT_PLATFORM) {
      const video = await this.byId(id, signal, platform);
      const slide = video.video.images[n - 1];
      if (!slide)
        throw video.video.isPhotoPost
          ? fail('video.no_slide', { slides: video.video.images.length })
          : fail('video.no_slide', { variant: 'not_photo' });
      const res = await platformOf(video).openMedia(slide.urls, video, { signal, maxBytes: MAX_SLIDE_BYTES });
      const contentType = res.mediaType('image/jpeg');
      const length = Number(res.header('content-length'));
      return {
        stream: res.body,
        contentType,
        contentLength: res.header('content-length') !== undefined && Number.isFinite(length) ? length : null,
        video,
      };
    },
    /** A post's cover, animated cover or author's picture (issue 28), byte for byte, at most 10 MB. */
    async openPicture(id: string, kind: PictureKind, signal?: AbortSignal, platform = DEFAULT_PLATFORM) {
      const video = await this.byId(id, signal, platform);
      const urls = pictureUrls(video.video, kind);
      if (!urls.length) throw fail('video.no_thumbnail');
      const res = await platformOf(video).openMedia(urls, video, { signal, maxBytes: 10 * 1024 * 1024 });
      const contentType = res.mediaType('image/jpeg');
      const length = Number(res.header('content-length'));
      return {
        stream: res.body,
        contentType,
        contentLength: res.header('content-length') !== undefined && Number.isFinite(length) ? length : null,
        video,
      };
    },
    /** The cover image stream of a video. */
    async openThumbnail(id: string, signal?: AbortSignal, platform = DEFAULT_PLATFORM) {
      const video = await this.byId(id, signal, platform);
      if (!video.video.thumbnailUrl) throw fail('video.no_thumbnail');
      const res = await platformOf(video).openMedia([video.video.thumbnailUrl], video, {
        signal,
        maxBytes: 5 * 1024 * 1024,
      });
      return { stream: res.body, contentType: res.mediaType('image/jpeg') };
    },
  };
}

export type VideoService = ReturnType<typeof createVideoService>;
