// Bluesky post objects of the shapes the real capture (test/fixtures/bluesky/atat-posts.json) lacks,
// CONSTRUCTED from the published Lexicons (bluesky-social/atproto lexicons/app/bsky/feed/defs.json
// #postView, #notFoundPost, #blockedPost; embed/video.json, embed/images.json, embed/gallery.json,
// embed/external.json, embed/record.json, embed/recordWithMedia.json, at commit d6296a1 of 2026-08), field
// for field as the AppView's getPostThread answers them. Not captured: named as constructed.
import crypto from 'node:crypto';

const B32 = 'abcdefghijklmnopqrstuvwxyz234567';
const SORTABLE = '234567abcdefghijklmnopqrstuvwxyz';
const base32 = (bytes: Buffer, alphabet = B32) => {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
};
const digest = (seed: string) => crypto.createHash('sha256').update(seed).digest();

/** A did:plc of the right shape (24 base32 characters). */
export const plcDid = (seed: string) => `did:plc:${base32(digest(`did ${seed}`)).slice(0, 24)}`;
/** A raw-leaf CIDv1 string of the right shape (as blob refs look: bafkrei...). */
export const blobCid = (seed: string) => `bafkrei${base32(digest(`cid ${seed}`)).slice(0, 52)}`;
/** A record key of the TID shape (13 base32-sortable characters, the first of 2-7a-j). */
export function tid(n: number): string {
  let s = '';
  let v = BigInt(1_700_000_000_000_000) * 1024n + BigInt(n);
  for (let i = 0; i < 13; i++) {
    s = SORTABLE[Number(v & 31n)] + s;
    v >>= 5n;
  }
  return s;
}

export interface Author {
  did: string;
  handle: string;
  displayName?: string;
}
const blob = (cid: string, mimeType: string, size: number) => ({ $type: 'blob', ref: { $link: cid }, mimeType, size });
const cdn = (kind: string, did: string, cid: string) => `https://cdn.bsky.app/img/${kind}/plain/${did}/${cid}@jpeg`;
const videoHost = (did: string, cid: string, file: string) =>
  `https://video.bsky.app/watch/${encodeURIComponent(did)}/${cid}/${file}`;

export function postView(
  author: Author,
  rkey: string,
  text: string,
  recordEmbed: unknown,
  viewEmbed: unknown,
  createdAt = new Date(Date.UTC(2026, 10, 1)).toISOString(),
) {
  return {
    uri: `at://${author.did}/app.bsky.feed.post/${rkey}`,
    cid: blobCid(`post ${author.did} ${rkey}`),
    author: {
      did: author.did,
      handle: author.handle,
      displayName: author.displayName ?? '',
      avatar: cdn('avatar', author.did, blobCid(`avatar ${author.did}`)),
      labels: [],
      createdAt,
    },
    record: {
      $type: 'app.bsky.feed.post',
      createdAt,
      langs: ['en'],
      text,
      ...(recordEmbed ? { embed: recordEmbed } : {}),
    },
    ...(viewEmbed ? { embed: viewEmbed } : {}),
    replyCount: 3,
    repostCount: 5,
    likeCount: 42,
    quoteCount: 1,
    indexedAt: createdAt,
    labels: [],
  };
}

/** app.bsky.embed.video (record) and #view. */
export function videoEmbeds(
  did: string,
  video: { cid: string; size: number; captions?: Array<{ lang: string; cid: string; size: number }> },
) {
  const record = {
    $type: 'app.bsky.embed.video',
    video: blob(video.cid, 'video/mp4', video.size),
    aspectRatio: { width: 9, height: 16 },
    ...(video.captions
      ? { captions: video.captions.map((c) => ({ lang: c.lang, file: blob(c.cid, 'text/vtt', c.size) })) }
      : {}),
  };
  const view = {
    $type: 'app.bsky.embed.video#view',
    cid: video.cid,
    playlist: videoHost(did, video.cid, 'playlist.m3u8'),
    thumbnail: videoHost(did, video.cid, 'thumbnail.jpg'),
    aspectRatio: { width: 9, height: 16 },
  };
  return { record, view };
}

/** app.bsky.embed.images (record) and #view: `fullsize` and `thumb` on the CDN. */
export function imagesEmbeds(did: string, images: Array<{ cid: string; size: number; width: number; height: number }>) {
  return {
    record: {
      $type: 'app.bsky.embed.images',
      images: images.map((i) => ({
        alt: '',
        aspectRatio: { width: i.width, height: i.height },
        image: blob(i.cid, 'image/jpeg', i.size),
      })),
    },
    view: {
      $type: 'app.bsky.embed.images#view',
      images: images.map((i) => ({
        thumb: cdn('feed_thumbnail', did, i.cid),
        fullsize: cdn('feed_fullsize', did, i.cid),
        alt: '',
        aspectRatio: { width: i.width, height: i.height },
      })),
    },
  };
}

/** app.bsky.embed.gallery (record: `items` of #image) and #view (`items` of #viewImage, `thumbnail`). */
export function galleryEmbeds(
  did: string,
  images: Array<{ cid: string; size: number; width: number; height: number }>,
) {
  return {
    record: {
      $type: 'app.bsky.embed.gallery',
      items: images.map((i) => ({
        $type: 'app.bsky.embed.gallery#image',
        alt: '',
        aspectRatio: { width: i.width, height: i.height },
        image: blob(i.cid, 'image/jpeg', i.size),
      })),
    },
    view: {
      $type: 'app.bsky.embed.gallery#view',
      items: images.map((i) => ({
        $type: 'app.bsky.embed.gallery#viewImage',
        thumbnail: cdn('feed_thumbnail', did, i.cid),
        fullsize: cdn('feed_fullsize', did, i.cid),
        alt: '',
        aspectRatio: { width: i.width, height: i.height },
      })),
    },
  };
}

/** app.bsky.embed.external: a link card, with its picture (`thumb`) or without. */
export function externalEmbeds(did: string, thumb: { cid: string; size: number } | null) {
  const external = { uri: 'https://example.com/article', title: 'An article', description: 'About things' };
  return {
    record: {
      $type: 'app.bsky.embed.external',
      external: { ...external, ...(thumb ? { thumb: blob(thumb.cid, 'image/jpeg', thumb.size) } : {}) },
    },
    view: {
      $type: 'app.bsky.embed.external#view',
      external: { ...external, ...(thumb ? { thumb: cdn('feed_thumbnail', did, thumb.cid) } : {}) },
    },
  };
}

/** app.bsky.embed.record alone: a quote of `quoted` (a postView), hydrated as #viewRecord with its embeds. */
export function quoteOnlyEmbeds(quoted: {
  uri: string;
  cid: string;
  author: unknown;
  record: unknown;
  embed?: unknown;
  indexedAt: string;
}) {
  return {
    record: { $type: 'app.bsky.embed.record', record: { uri: quoted.uri, cid: quoted.cid } },
    view: {
      $type: 'app.bsky.embed.record#view',
      record: {
        $type: 'app.bsky.embed.record#viewRecord',
        uri: quoted.uri,
        cid: quoted.cid,
        author: quoted.author,
        value: quoted.record,
        labels: [],
        likeCount: 0,
        replyCount: 0,
        repostCount: 0,
        quoteCount: 1,
        embeds: quoted.embed ? [quoted.embed] : [],
        indexedAt: quoted.indexedAt,
      },
    },
  };
}

/** A post with this media (or none), or a quote post (app.bsky.embed.recordWithMedia) carrying it. */
export function constructedPost(
  author: Author,
  rkey: string,
  text: string,
  media: { record: unknown; view: unknown } | null,
  quote?: { uri: string; cid: string },
) {
  if (!media || !quote) return postView(author, rkey, text, media?.record, media?.view);
  return postView(
    author,
    rkey,
    text,
    {
      $type: 'app.bsky.embed.recordWithMedia',
      media: media.record,
      record: { $type: 'app.bsky.embed.record', record: quote },
    },
    {
      $type: 'app.bsky.embed.recordWithMedia#view',
      media: media.view,
      record: { record: { $type: 'app.bsky.embed.record#viewNotFound', uri: quote.uri, notFound: true } },
    },
  );
}

export const notFoundThread = (uri: string) => ({ $type: 'app.bsky.feed.defs#notFoundPost', uri, notFound: true });
export const blockedThread = (uri: string, did: string) => ({
  $type: 'app.bsky.feed.defs#blockedPost',
  uri,
  blocked: true,
  author: { did, viewer: { blockedBy: true } },
});

/** A DID document as plc.directory serves it (did-core JSON with the #atproto_pds service). */
export const didDocument = (did: string, handle: string, pds: string) => ({
  '@context': ['https://www.w3.org/ns/did/v1', 'https://w3id.org/security/multikey/v1'],
  id: did,
  alsoKnownAs: [`at://${handle}`],
  verificationMethod: [],
  service: [{ id: '#atproto_pds', type: 'AtprotoPersonalDataServer', serviceEndpoint: pds }],
});
