// A post of the AppView (getPostThread, getAuthorFeed: app.bsky.feed.defs#postView) to the neutral
// VideoModel. What the post carries is read by embeds.ts, for every embed form of the Lexicons.
import type { PhotoSlide, VideoModel } from '../platform.js';
import { count, type Embed, https, type PostMedia, postMedia, str } from './embeds.js';

export interface PostView {
  uri?: unknown;
  author?: { did?: unknown; handle?: unknown; displayName?: unknown; avatar?: unknown; labels?: unknown };
  record?: { text?: unknown; createdAt?: unknown; embed?: Embed; reply?: unknown };
  embed?: Embed;
  likeCount?: unknown;
  repostCount?: unknown;
  replyCount?: unknown;
  quoteCount?: unknown;
  indexedAt?: unknown;
  labels?: unknown;
}

/** What the post carries: a video, pictures, or nothing we can save. */
export function mediaKind(post: PostView): 'video' | 'images' | 'none' {
  return postMedia(post).kind;
}

/** The video's frame and length from its own header (bluesky.adapter.ts reads it); null: unknown. */
export interface VideoFrame {
  width: number | null;
  height: number | null;
  duration: number;
}

/**
 * The record's aspectRatio is a pixel size only when it is as large as a video frame (clients
 * write the uploaded size, some a reduced ratio such as 9:16).
 */
export function pixelSize(media: PostMedia): { width: number; height: number } | null {
  if (media.kind !== 'video' || !media.aspectRatio) return null;
  const { width, height } = media.aspectRatio;
  return Math.min(width, height) >= 144 && Math.max(width, height) <= 8192 ? { width, height } : null;
}

/** `blobUrl(cid)`: the getBlob link of one of the video owner's blobs on their PDS (null: not resolved). */
export function mapPost(
  post: PostView,
  id: string,
  blobUrl: ((cid: string) => string) | null,
  frame: VideoFrame | null = null,
  media: PostMedia = postMedia(post),
): VideoModel {
  const text = str(post.record?.text) ?? '';
  const handle = str(post.author?.handle) ?? '';
  // A post is at most 300 characters: the whole text on one line is its title.
  const title = text.replace(/\s+/g, ' ').trim() || `Post by @${handle}`;
  const video = media.kind === 'video' && blobUrl ? media : null;
  const images: PhotoSlide[] =
    media.kind === 'images' ? media.slides.map((s) => ({ urls: [s.url], width: s.width, height: s.height })) : [];
  const thumbnail =
    media.kind === 'video'
      ? media.thumbnail
      : media.kind === 'images'
        ? (media.slides[0].thumb ?? media.slides[0].url)
        : null;
  const avatar = https(post.author?.avatar);
  const size = frame?.width && frame.height ? frame : pixelSize(media);
  return {
    id,
    title,
    description: text,
    author: handle,
    authorName: str(post.author?.displayName),
    thumbnailUrl: thumbnail,
    duration: frame?.duration ?? 0, // Bluesky does not say; the MP4's header does
    views: 0, // Bluesky counts no views
    likes: count(post.likeCount),
    options:
      video && blobUrl
        ? [
            {
              quality: 'hd',
              codec: 'h264',
              width: size?.width ?? null,
              height: size?.height ?? null,
              size: video.size,
              bitrate: null,
              urls: [blobUrl(video.cid)],
            },
          ]
        : [],
    musicUrl: null,
    musicTitle: null,
    // The author's own caption files (the record's `captions`), offered before any made by us.
    subtitles:
      video && blobUrl
        ? video.captions.map((c) => ({ url: blobUrl(c.cid), language: c.lang, format: 'webvtt', source: 'author' }))
        : [],
    originalSound: null,
    pictures: { cover: thumbnail ? [thumbnail] : [], animatedCover: [], avatar: avatar ? [avatar] : [] },
    isPhotoPost: media.kind === 'images',
    images,
  };
}
