// A second platform, made up for the platform seam test (issue 19): "Clips", with its own link
// shapes (https://clips.example/v/<id>, short links https://clips.example/s/<code>), a JSON API,
// and media that needs the session token the API hands out. It lives only in this folder and is
// registered through the registry's override: no file outside it changes for a new platform, and
// downloads, errors and every link field (GET /api/platforms) name it (platform-seam.test.ts).
import { fail } from '../../../src/server/errors.js';
import type { HttpClient } from '../../../src/server/adapters/http/index.js';
import type { FetchedVideo, Platform, VideoRef } from '../../../src/server/platforms/platform.js';

const HOSTS = ['clips.example', 'api.clips.example', 'cdn.clips.example'];

interface ClipJson {
  id: string;
  caption: string;
  creator: string;
  seconds: number;
  cover: string;
  files: Array<{ label: string; width: number; height: number; bytes: number; url: string }>;
  sound: string | null;
  captions: Array<{ lang: string; url: string }>;
}

export function createClipsPlatform(deps: { http: HttpClient }): Platform {
  const canonicalUrl = (id: string) => `https://clips.example/v/${id}`;
  // Its failures are the catalogue's neutral codes, naming it (as a real platform's errors.ts does).
  const CLIPS = { platform: 'Clips' } as const;
  const notFound = () => fail('video.not_found', CLIPS);
  return {
    id: 'clips',
    name: 'Clips',
    idPattern: /^[a-z0-9]{4,16}$/,
    linkPattern: /^https:\/\/clips\.example\/(?:v\/[a-z0-9]{4,16}|s\/\w{3,12})\/?$/,
    exampleUrl: 'https://clips.example/v/abcd1234',
    parseLink(input) {
      let url: URL;
      try {
        url = new URL(input.trim());
      } catch {
        return null;
      }
      if (url.protocol !== 'https:' || url.hostname !== 'clips.example') return null;
      const video = /^\/v\/([a-z0-9]{4,16})\/?$/.exec(url.pathname);
      if (video) return { kind: 'video', id: video[1], url: canonicalUrl(video[1]) };
      const short = /^\/s\/(\w{3,12})\/?$/.exec(url.pathname);
      return short ? { kind: 'short', url: `https://clips.example/s/${short[1]}` } : null;
    },
    canonicalUrl,
    async resolveShortLink(url, signal) {
      const res = await deps.http.request(url, { allow: HOSTS, maxRedirects: 0, signal });
      res.body.destroy();
      const id = /\/v\/([a-z0-9]{4,16})$/.exec(res.header('location') ?? '')?.[1];
      if (!id) throw notFound();
      return { platform: 'clips', id, url: canonicalUrl(id) };
    },
    async fetchVideo(ref: VideoRef, signal): Promise<FetchedVideo> {
      const res = await deps.http.request(`https://api.clips.example/v1/clips/${ref.id}`, {
        allow: HOSTS,
        signal,
        maxBytes: 1_000_000,
      });
      if (res.status === 404) {
        res.body.destroy();
        throw notFound();
      }
      if (res.status !== 200) {
        res.body.destroy();
        throw fail('upstream.unavailable', CLIPS);
      }
      const clip = JSON.parse(await res.text()) as ClipJson;
      return {
        ref,
        raw: clip as unknown as Record<string, unknown>,
        session: { token: res.header('x-media-token') },
        video: {
          id: clip.id,
          title: clip.caption,
          description: clip.caption,
          author: clip.creator,
          authorName: null,
          thumbnailUrl: clip.cover,
          duration: clip.seconds,
          views: 0,
          likes: 0,
          options: clip.files.map((f) => ({
            quality: f.label,
            codec: 'h264' as const,
            width: f.width,
            height: f.height,
            size: f.bytes,
            bitrate: null,
            urls: [f.url],
          })),
          musicUrl: clip.sound,
          musicTitle: null,
          subtitles: clip.captions.map((c) => ({ url: c.url, language: c.lang, format: 'webvtt', source: 'LC' })),
          isPhotoPost: false,
          images: [],
        },
      };
    },
    async openMedia(urls, video, opts = {}) {
      const { token } = video.session as { token: string };
      const res = await deps.http.request(urls[0], {
        allow: HOSTS,
        signal: opts.signal,
        maxBytes: opts.maxBytes,
        bulk: opts.bulk,
        headers: { authorization: `Token ${token}`, ...(opts.range ? { range: opts.range } : {}) },
      });
      if (res.status === 200 || res.status === 206) return res;
      res.body.destroy();
      throw res.status === 404 ? notFound() : fail('upstream.unavailable', { variant: 'refused', ...CLIPS });
    },
  };
}
