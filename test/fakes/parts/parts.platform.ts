// A made-up platform whose every file is split (issue 44): "Parts" serves each rendition as a
// video-only MP4 plus a separate sound file, as Reddit's and other DASH sites' videos are. Its
// renditions are labelled 'big' and 'small': no label the services could know. Registered through
// the registry's override only (platform-seam.test.ts), like test/fakes/clips/.
import { fail } from '../../../src/server/errors.js';
import type { HttpClient } from '../../../src/server/adapters/http/index.js';
import type { FetchedVideo, Platform, VideoRef } from '../../../src/server/platforms/platform.js';

const HOSTS = ['parts.example', 'api.parts.example', 'cdn.parts.example'];

export interface PartsPostJson {
  id: string;
  caption: string;
  creator: string;
  seconds: number;
  cover: string;
  renditions: Array<{ name: string; width: number; height: number; bytes: number; video: string; sounds: string[] }>;
  captions: Array<{ lang: string; url: string }>;
}

export function createPartsPlatform(deps: { http: HttpClient }): Platform {
  const PARTS = { platform: 'Parts' } as const;
  const canonicalUrl = (id: string) => `https://parts.example/p/${id}`;
  return {
    id: 'parts',
    name: 'Parts',
    idPattern: /^[a-z0-9]{4,16}$/,
    linkPattern: /^https:\/\/parts\.example\/p\/[a-z0-9]{4,16}\/?$/,
    exampleUrl: 'https://parts.example/p/abcd1234',
    parseLink(input) {
      const m = /^https:\/\/parts\.example\/p\/([a-z0-9]{4,16})\/?$/.exec(input.trim());
      return m ? { kind: 'video', id: m[1], url: canonicalUrl(m[1]) } : null;
    },
    canonicalUrl,
    async resolveShortLink() {
      throw fail('video.not_found', PARTS);
    },
    async fetchVideo(ref: VideoRef, signal): Promise<FetchedVideo> {
      const res = await deps.http.request(`https://api.parts.example/v1/posts/${ref.id}`, {
        allow: HOSTS,
        signal,
        maxBytes: 1_000_000,
      });
      if (res.status !== 200) {
        res.body.destroy();
        throw res.status === 404 ? fail('video.not_found', PARTS) : fail('upstream.unavailable', PARTS);
      }
      const post = JSON.parse(await res.text()) as PartsPostJson;
      return {
        ref,
        raw: post as unknown as Record<string, unknown>,
        session: null,
        video: {
          id: post.id,
          title: post.caption,
          description: post.caption,
          author: post.creator,
          authorName: null,
          thumbnailUrl: post.cover,
          duration: post.seconds,
          views: 0,
          likes: 0,
          // Every file is the video alone, its sound apart: nothing here plays with sound as it is.
          options: post.renditions.map((r) => ({
            quality: r.name,
            codec: 'h264' as const,
            width: r.width,
            height: r.height,
            size: r.bytes,
            bitrate: null,
            urls: [r.video],
            form: 'split' as const,
            audio: r.sounds.map((u) => [u]),
          })),
          musicUrl: null,
          musicTitle: null,
          subtitles: post.captions.map((c) => ({ url: c.url, language: c.lang, format: 'webvtt', source: 'LC' })),
          isPhotoPost: false,
          images: [],
        },
      };
    },
    async openMedia(urls, _video, opts = {}) {
      const res = await deps.http.request(urls[0], {
        allow: HOSTS,
        signal: opts.signal,
        maxBytes: opts.maxBytes,
        bulk: opts.bulk,
        headers: opts.range ? { range: opts.range } : {},
      });
      if (res.status === 200 || res.status === 206) return res;
      res.body.destroy();
      throw res.status === 404 ? fail('video.not_found', PARTS) : fail('upstream.unavailable', PARTS);
    },
  };
}
