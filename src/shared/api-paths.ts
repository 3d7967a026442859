// The API's paths that links are made for, and the one builder of each link: routes register these
// paths, services answer with these builders and the client calls the same paths, so a link always
// points at a route that exists. The database keeps ids (a download's platform and video id),
// never these links: a link is made when it is answered.

export const API_PATHS = {
  videoInfo: '/api/video/info',
  videoLink: '/api/video/link',
  videoDownload: '/api/video/download',
  videoStream: '/api/video/stream/:id',
  videoImage: '/api/video/image/:id/:n',
  videoPicture: '/api/video/picture/:id/:kind',
  videoThumbnail: '/api/video/thumbnail/:id',
  images: '/api/images',
  mediaResult: '/api/media/:kind/:file',
  batchZip: '/api/batch/:id/zip',
  // Repost kits (issue 47)
  repostKits: '/api/repost-kits',
  repostKitPreview: '/api/repost-kits/preview',
  profilePosts: '/api/profile/posts',
  repliesExport: '/api/replies/export',
} as const;

const part = (s: string) => encodeURIComponent(s);

/** A download option's link: the same download as the POST, for a browser link or curl. */
export const downloadUrl = (url: string, quality: string) =>
  `${API_PATHS.videoDownload}?url=${part(url)}&quality=${part(quality)}`;

/**
 * The by-id links of a video (`/api/video/<what>/<id>`). They carry `?platform=` for every platform
 * but `legacyPlatform`, the one whose links were made before there were several: those keep working.
 */
export function videoLinks(legacyPlatform: string) {
  const platformQuery = (platform: string) => (platform === legacyPlatform ? '' : `?platform=${part(platform)}`);
  return {
    stream: (videoId: string, platform: string) => `/api/video/stream/${part(videoId)}${platformQuery(platform)}`,
    /** A photo post's slide `n` (1-based). */
    slide: (videoId: string, n: number, platform: string) =>
      `/api/video/image/${part(videoId)}/${n}${platformQuery(platform)}`,
    picture: (videoId: string, kind: string, platform: string) =>
      `/api/video/picture/${part(videoId)}/${part(kind)}${platformQuery(platform)}`,
    thumbnail: (videoId: string, platform: string) => `/api/video/thumbnail/${part(videoId)}${platformQuery(platform)}`,
  };
}

/** A relay link to a picture of another site, signed by the server's image relay. */
export const imageRelayUrl = (url: string, signature: string) =>
  `${API_PATHS.images}?u=${part(url)}&s=${part(signature)}`;

/** A stored result's expiring link, signed by the server. */
export const mediaResultUrl = (key: string, exp: number, sig: string) =>
  `/api/media/${key.split('/').map(part).join('/')}?exp=${exp}&sig=${sig}`;

/** A batch's ZIP: a signed, expiring link, usable in a plain <a download>. */
export const batchZipUrl = (batchId: string, exp: number, sig: string) =>
  `/api/batch/${part(batchId)}/zip?exp=${exp}&sig=${sig}`;
