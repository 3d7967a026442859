// Reddit post JSON for the fake (issue 44), CONSTRUCTED from the documented shape, field for field
// as `GET /comments/<id>.json` answers it: an array of two Listings, `[0]` holding the post (kind
// t3), `[1]` its comments (kind t1). The fields follow Reddit's API (the `Link` object) and what
// yt-dlp's and cobalt's Reddit extractors read (`secure_media.reddit_video`, `gallery_data`,
// `media_metadata`, `crosspost_parent_list`, `removed_by_category`, `over_18`). Not captured: named
// as constructed. Without `raw_json=1` Reddit escapes `&` in strings; `escape` does the same.

export type PostData = Record<string, any>;

export interface VideoSpec {
  videoId: string; // v.redd.it id
  height: number;
  width: number;
  seconds: number;
  hasAudio: boolean;
  isGif?: boolean;
  fallbackName: string; // e.g. DASH_720.mp4 or CMAF_720.mp4
}

export function basePost(id: string, sub: string, title: string, extra: PostData = {}): PostData {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 40);
  return {
    approved_at_utc: null,
    subreddit: sub,
    selftext: '',
    author_fullname: 't2_abc123',
    saved: false,
    title,
    subreddit_name_prefixed: `r/${sub}`,
    hidden: false,
    name: `t3_${id}`,
    ups: 1234,
    downs: 0,
    score: 1234,
    upvote_ratio: 0.97,
    thumbnail: 'https://b.thumbs.redditmedia.com/thumb.jpg',
    is_self: false,
    created_utc: 1764400000,
    over_18: false,
    spoiler: false,
    locked: false,
    removed_by_category: null,
    subreddit_id: 't5_2qh1e',
    id,
    author: 'someone_posting',
    num_comments: 1,
    permalink: `/r/${sub}/comments/${id}/${slug}/`,
    url: `https://www.reddit.com/r/${sub}/comments/${id}/${slug}/`,
    stickied: false,
    subreddit_subscribers: 26000000,
    num_crossposts: 0,
    media: null,
    secure_media: null,
    is_video: false,
    view_count: null,
    ...extra,
  };
}

export function videoFields(v: VideoSpec): PostData {
  const redditVideo = {
    bitrate_kbps: 2400,
    fallback_url: `https://v.redd.it/${v.videoId}/${v.fallbackName}?source=fallback`,
    has_audio: v.hasAudio,
    height: v.height,
    width: v.width,
    scrubber_media_url: `https://v.redd.it/${v.videoId}/DASH_96.mp4`,
    dash_url: `https://v.redd.it/${v.videoId}/DASHPlaylist.mpd?a=1767000000%2CZmFrZQ%3D%3D&v=1&f=sd`,
    duration: v.seconds,
    hls_url: `https://v.redd.it/${v.videoId}/HLSPlaylist.m3u8?a=1767000000%2CZmFrZQ%3D%3D&v=1&f=sd`,
    is_gif: v.isGif ?? false,
    transcoding_status: 'completed',
  };
  const preview = `https://external-preview.redd.it/${v.videoId}.png?format=pjpg&auto=webp&s=0f`;
  return {
    domain: 'v.redd.it',
    url_overridden_by_dest: `https://v.redd.it/${v.videoId}`,
    url: `https://v.redd.it/${v.videoId}`,
    is_video: true,
    post_hint: 'hosted:video',
    media: { reddit_video: redditVideo },
    secure_media: { reddit_video: redditVideo },
    preview: {
      images: [{ source: { url: preview, width: v.width, height: v.height }, resolutions: [], variants: {}, id: 'p1' }],
      enabled: false,
    },
  };
}

/** A gallery of `ids` (media ids), each a JPEG of `width`x`height` on preview.redd.it. */
export function galleryFields(ids: string[], width = 1080, height = 1350): PostData {
  const meta: PostData = {};
  for (const id of ids)
    meta[id] = {
      status: 'valid',
      e: 'Image',
      m: 'image/jpg',
      p: [{ y: 135, x: 108, u: `https://preview.redd.it/${id}.jpg?width=108&crop=smart&auto=webp&s=aa` }],
      s: { y: height, x: width, u: `https://preview.redd.it/${id}.jpg?width=${width}&format=pjpg&auto=webp&s=bb` },
      id,
    };
  return {
    domain: 'reddit.com',
    is_gallery: true,
    url_overridden_by_dest: 'https://www.reddit.com/gallery/x',
    gallery_data: { items: ids.map((media_id, i) => ({ media_id, id: 100 + i })) },
    media_metadata: meta,
  };
}

export function imageFields(name: string, width = 1200, height = 900): PostData {
  return {
    domain: 'i.redd.it',
    url_overridden_by_dest: `https://i.redd.it/${name}.jpg`,
    url: `https://i.redd.it/${name}.jpg`,
    post_hint: 'image',
    preview: {
      images: [
        {
          source: { url: `https://preview.redd.it/${name}.jpg?auto=webp&s=cc`, width, height },
          resolutions: [],
          variants: {},
          id: name,
        },
      ],
      enabled: true,
    },
  };
}

/** `[0]` the post's Listing, `[1]` its comments' Listing: what `/comments/<id>.json` answers. */
export function listings(post: PostData): unknown[] {
  const listing = (children: unknown[], dist: number | null) => ({
    kind: 'Listing',
    data: { after: null, dist, modhash: '', geo_filter: '', children, before: null },
  });
  const comment = {
    kind: 't1',
    data: {
      id: 'c0mment',
      body: 'Nice one',
      author: 'commenter',
      parent_id: post.name,
      link_id: post.name,
      replies: '',
    },
  };
  return [listing([{ kind: 't3', data: post }], 1), listing([comment], null)];
}

/** Reddit's JSON without `raw_json=1`: `&`, `<` and `>` in every string HTML-escaped. */
export const htmlEscaped = (json: string) => json.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
