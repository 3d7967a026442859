// A post of app.bsky.feed.getPostThread (docs/sources.md 'Bluesky posts') to the neutral VideoModel.
// Embeds, stored (`record.embed`) and hydrated (`post.embed`, `#view`):
//   app.bsky.embed.video            the uploaded MP4 is the blob `video.ref.$link`: one option, the
//                                   original from the author's PDS (getBlob); captions are blobs too
//   app.bsky.embed.images           up to 4 pictures: a picture post, each `fullsize` from the view
//   app.bsky.embed.recordWithMedia  a quote post: its own media under `media` (video or images)
//   app.bsky.embed.external, none   no media of its own
import type { PhotoSlide, VideoModel } from '../platform.js';

interface Blob {
  ref?: { $link?: unknown };
  mimeType?: unknown;
  size?: unknown;
}
interface AspectRatio {
  width?: unknown;
  height?: unknown;
}
interface Embed {
  $type?: unknown;
  video?: Blob;
  captions?: Array<{ lang?: unknown; file?: Blob }>;
  images?: Array<{ fullsize?: unknown; thumb?: unknown; aspectRatio?: AspectRatio; image?: Blob }>;
  media?: Embed;
  cid?: unknown;
  thumbnail?: unknown;
  aspectRatio?: AspectRatio;
}
export interface PostView {
  uri?: unknown;
  author?: { did?: unknown; handle?: unknown; displayName?: unknown; avatar?: unknown };
  record?: { text?: unknown; createdAt?: unknown; embed?: Embed };
  embed?: Embed;
  likeCount?: unknown;
  repostCount?: unknown;
  replyCount?: unknown;
  quoteCount?: unknown;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
const https = (v: unknown): string | null => {
  const s = str(v);
  return s?.startsWith('https://') ? s : null;
};
const typeOf = (e: Embed | undefined) => (typeof e?.$type === 'string' ? e.$type.replace(/#view$/, '') : null);

/** The post's own media: the embed itself, or a quote post's `media`. */
export function ownMedia(post: PostView): { record: Embed | undefined; view: Embed | undefined } {
  const record = post.record?.embed;
  const view = post.embed;
  if (typeOf(record) === 'app.bsky.embed.recordWithMedia') return { record: record?.media, view: view?.media };
  return { record, view };
}

/** What the post carries: a video, pictures, or nothing we can save. */
export function mediaKind(post: PostView): 'video' | 'images' | 'none' {
  const { record, view } = ownMedia(post);
  const type = typeOf(record) ?? typeOf(view);
  if (type === 'app.bsky.embed.video' && str(record?.video?.ref?.$link)) return 'video';
  if (type === 'app.bsky.embed.images' && view?.images?.some((i) => https(i.fullsize))) return 'images';
  return 'none';
}

/** `blobUrl(cid)`: the getBlob link of one of the author's blobs on their PDS (null: not resolved). */
export function mapPost(post: PostView, id: string, blobUrl: ((cid: string) => string) | null): VideoModel {
  const { record, view } = ownMedia(post);
  const kind = mediaKind(post);
  const text = str(post.record?.text) ?? '';
  const handle = str(post.author?.handle) ?? '';
  // A post is at most 300 characters: the whole text on one line is its title.
  const title = text.replace(/\s+/g, ' ').trim() || `Post by @${handle}`;
  const videoCid = kind === 'video' ? str(record?.video?.ref?.$link) : null;
  const images: PhotoSlide[] =
    kind === 'images'
      ? (view?.images ?? []).flatMap((i) => {
          const url = https(i.fullsize);
          const w = count(i.aspectRatio?.width);
          const h = count(i.aspectRatio?.height);
          // aspectRatio is a ratio, not pixels: enough for the slideshow's frame.
          return url ? [{ urls: [url], width: w || null, height: h || null }] : [];
        })
      : [];
  const thumbnail = https(view?.thumbnail) ?? https(view?.images?.[0]?.thumb) ?? null;
  const avatar = https(post.author?.avatar);
  const size = typeof record?.video?.size === 'number' ? record.video.size : null;
  return {
    id,
    title,
    description: text,
    author: handle,
    authorName: str(post.author?.displayName),
    thumbnailUrl: thumbnail,
    duration: 0, // Bluesky does not say; tools that need it probe the file
    views: 0, // Bluesky counts no views
    likes: count(post.likeCount),
    options:
      videoCid && blobUrl
        ? [{ quality: 'hd', codec: 'h264', width: null, height: null, size, bitrate: null, urls: [blobUrl(videoCid)] }]
        : [],
    musicUrl: null,
    musicTitle: null,
    subtitles:
      videoCid && blobUrl
        ? (record?.captions ?? []).flatMap((c) => {
            const cid = str(c.file?.ref?.$link);
            return cid
              ? [{ url: blobUrl(cid), language: str(c.lang) ?? 'und', format: 'webvtt', source: 'author' }]
              : [];
          })
        : [],
    originalSound: null,
    pictures: { cover: thumbnail ? [thumbnail] : [], animatedCover: [], avatar: avatar ? [avatar] : [] },
    isPhotoPost: kind === 'images',
    images,
  };
}
