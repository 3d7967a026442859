// The links of the video routes (video.routes.ts registers these paths; services build answers
// with these builders, so a link always points at a route that exists). The database keeps ids
// (a download's platform and video id), never these paths: the link is made when it is answered.
import { DEFAULT_PLATFORM } from '../platforms/default.js';

export const VIDEO_PATHS = {
  info: '/api/video/info',
  link: '/api/video/link',
  download: '/api/video/download',
  stream: '/api/video/stream/:id',
  image: '/api/video/image/:id/:n',
  picture: '/api/video/picture/:id/:kind',
  thumbnail: '/api/video/thumbnail/:id',
} as const;

/** `?platform=` on our own by-id links, for any platform but the default (old links keep working). */
const platformQuery = (platform: string) =>
  platform === DEFAULT_PLATFORM ? '' : `?platform=${encodeURIComponent(platform)}`;
const id = (videoId: string) => encodeURIComponent(videoId);

/** A download option's link: the same download as the POST, for a browser link or curl. */
export const downloadUrl = (url: string, quality: string) =>
  `/api/video/download?url=${encodeURIComponent(url)}&quality=${encodeURIComponent(quality)}`;
export const streamUrl = (videoId: string, platform: string) =>
  `/api/video/stream/${id(videoId)}${platformQuery(platform)}`;
/** A photo post's slide `n` (1-based). */
export const slideUrl = (videoId: string, n: number, platform: string) =>
  `/api/video/image/${id(videoId)}/${n}${platformQuery(platform)}`;
export const pictureUrl = (videoId: string, kind: string, platform: string) =>
  `/api/video/picture/${id(videoId)}/${encodeURIComponent(kind)}${platformQuery(platform)}`;
export const thumbnailUrl = (videoId: string, platform: string) =>
  `/api/video/thumbnail/${id(videoId)}${platformQuery(platform)}`;
