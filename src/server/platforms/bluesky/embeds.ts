// What a post carries, for every embed form of the current Lexicons (lexicons/app/bsky/embed/ in
// bluesky-social/atproto), stored (`record.embed`) and hydrated (`post.embed`, `#view`):
//   app.bsky.embed.video            the uploaded MP4, the blob `video.ref.$link` (the view's `cid`);
//                                   captions are blobs too; up to 300 MB since 2026
//   app.bsky.embed.images           up to 4 pictures, each the view's `fullsize`
//   app.bsky.embed.gallery          up to 20 items (today pictures: `#viewImage`, `fullsize`)
//   app.bsky.embed.external         a link card: its picture (`external.thumb`) when it has one
//   app.bsky.embed.recordWithMedia  a quote post: its own media under `media` (any of the above)
//   app.bsky.embed.record           a quote post alone: the quoted post's media (`#viewRecord`)
// A form not listed here is read by its shape (a `playlist` and `cid`, `fullsize` pictures), so a
// new form that carries media is never reported as having none.

export interface Blob {
  ref?: { $link?: unknown };
  mimeType?: unknown;
  size?: unknown;
}
export interface AspectRatio {
  width?: unknown;
  height?: unknown;
}
export interface Embed {
  $type?: unknown;
  video?: Blob;
  captions?: Array<{ lang?: unknown; file?: Blob }>;
  images?: Picture[];
  items?: Picture[];
  media?: Embed;
  record?: Embed;
  /** A quoted post's view (`#viewRecord`): its author, stored record and hydrated embeds. */
  author?: { did?: unknown };
  value?: { embed?: Embed };
  embeds?: Embed[];
  external?: { thumb?: unknown };
  cid?: unknown;
  playlist?: unknown;
  thumbnail?: unknown;
  aspectRatio?: AspectRatio;
}
interface Picture {
  fullsize?: unknown;
  thumb?: unknown;
  thumbnail?: unknown;
  aspectRatio?: AspectRatio;
}

export interface Slide {
  url: string;
  thumb: string | null;
  width: number | null;
  height: number | null;
}
export type PostMedia =
  | {
      kind: 'video';
      /** Whose PDS holds the blob: the post's author, or a quoted post's. */
      did: string;
      cid: string;
      size: number | null;
      captions: Array<{ lang: string; cid: string }>;
      thumbnail: string | null;
      aspectRatio: { width: number; height: number } | null;
      form: string;
    }
  | { kind: 'images'; slides: Slide[]; form: string }
  | { kind: 'none' };

export const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
export const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
export const https = (v: unknown): string | null => {
  const s = str(v);
  return s?.startsWith('https://') ? s : null;
};
const obj = (v: unknown): Embed | undefined => (v && typeof v === 'object' ? (v as Embed) : undefined);
/** An embed's form without its `#view`: 'app.bsky.embed.gallery'. */
export const formOf = (e: Embed | undefined) =>
  typeof e?.$type === 'string' ? e.$type.replace(/#.*$/, '').slice(0, 100) : null;
const ratio = (a: AspectRatio | undefined) => {
  const width = count(a?.width);
  const height = count(a?.height);
  return width && height ? { width, height } : null;
};

function slidesOf(pictures: unknown): Slide[] {
  if (!Array.isArray(pictures)) return [];
  return pictures.slice(0, 20).flatMap((p: Picture) => {
    const url = https(p?.fullsize) ?? https(p?.thumbnail) ?? https(p?.thumb);
    const r = ratio(p?.aspectRatio);
    // aspectRatio is a ratio, not pixels: enough for the slideshow's frame.
    return url
      ? [{ url, thumb: https(p.thumb) ?? https(p.thumbnail), width: r?.width ?? null, height: r?.height ?? null }]
      : [];
  });
}

/** One level of embed (stored and hydrated side by side); `depth` bounds quotes inside quotes. */
function mediaOf(record: Embed | undefined, view: Embed | undefined, did: string, depth: number): PostMedia {
  if (depth > 3) return { kind: 'none' };
  const form = formOf(record) ?? formOf(view) ?? 'app.bsky.embed';
  // A quote post with media of its own (recordWithMedia, or any form with a `media` part).
  if (obj(record?.media) || obj(view?.media)) {
    const own = mediaOf(obj(record?.media), obj(view?.media), did, depth + 1);
    if (own.kind !== 'none') return own;
  }
  const cid = str(record?.video?.ref?.$link) ?? (str(view?.playlist) ? str(view?.cid) : null);
  if (cid) {
    const captions = (Array.isArray(record?.captions) ? record.captions : []).slice(0, 20).flatMap((c) => {
      const file = str(c?.file?.ref?.$link);
      return file ? [{ lang: str(c.lang)?.slice(0, 35) ?? 'und', cid: file }] : [];
    });
    return {
      kind: 'video',
      did,
      cid,
      size: count(record?.video?.size) || null,
      captions,
      thumbnail: https(view?.thumbnail),
      aspectRatio: ratio(record?.aspectRatio) ?? ratio(view?.aspectRatio),
      form,
    };
  }
  const slides = slidesOf(view?.images).length ? slidesOf(view?.images) : slidesOf(view?.items);
  if (slides.length) return { kind: 'images', slides, form };
  // A link card's picture: the one picture such a post shows.
  const card = https(view?.external?.thumb);
  if (card) return { kind: 'images', slides: [{ url: card, thumb: card, width: null, height: null }], form };
  // A quote alone: the quoted post's media, from its hydrated view and stored record.
  const inner = obj(view?.record);
  const quoted = inner?.author ? inner : obj(inner?.record); // record#view, or recordWithMedia's
  const quotedDid = str(quoted?.author?.did);
  if (quoted && quotedDid) {
    const embeds = Array.isArray(quoted.embeds) ? quoted.embeds : [];
    return mediaOf(obj(quoted.value?.embed), obj(embeds[0]), quotedDid, depth + 1);
  }
  return { kind: 'none' };
}

/** The media a post carries (see the top of this file). */
export function postMedia(post: {
  author?: { did?: unknown };
  record?: { embed?: unknown };
  embed?: unknown;
}): PostMedia {
  return mediaOf(obj(post.record?.embed), obj(post.embed), str(post.author?.did) ?? '', 0);
}
