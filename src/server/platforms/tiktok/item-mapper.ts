// Maps TikTok's web `itemStruct` (research/tiktok.md §5-6) to what the product needs. Pure.
// Only watermark-free sources are read (`playAddr`, `bitrateInfo` gears); never `downloadAddr`,
// never the `www.tiktok.com/aweme/v1/play/` fallback. Muxed H.264 MP4 files (a phone plays them
// with sound) are options 'hd', 'sd', 'low'; HEVC DASH gears sharper than the best of them are
// video-only, so they become options ('1080p', '720p') only paired with a `bitrateAudioInfo`
// track, remuxed by the server (decision 0014): never a silent file.

import type { MediaOption, PhotoSlide, VideoModel } from '../video-model.js';

// biome-ignore lint/suspicious/noExplicitAny: TikTok's page JSON, unversioned; every read below is checked
type Json = Record<string, any>;

/** TikTok sends numbers as numbers or strings depending on the field and the year. */
export function looseNumber(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim())) return Number(v);
  return null;
}

/** Usable media URL: https, not the www.tiktok.com/aweme/v1/play/ 31 KB fallback. */
export function usableMediaUrl(u: unknown): u is string {
  if (typeof u !== 'string' || !u.startsWith('https://')) return false;
  try {
    const url = new URL(u);
    return !(
      url.hostname === 'www.tiktok.com' ||
      url.hostname === 'tiktok.com' ||
      url.pathname.startsWith('/aweme/v1/play')
    );
  } catch {
    return false;
  }
}

function isMuxedH264(gear: Json): boolean {
  const codec = String(gear.CodecType ?? '').toLowerCase();
  const format = String(gear.Format ?? 'mp4').toLowerCase();
  const key = String(gear.PlayAddr?.UrlKey ?? '');
  const urls: string[] = gear.PlayAddr?.UrlList ?? [];
  if (format !== 'mp4') return false; // DASH gears carry no audio
  if (codec && !codec.includes('h264')) return false; // h265 / bytevc1 / bytevc2
  if (/_bytevc[12]_/.test(key)) return false;
  return !urls.some((u) => typeof u === 'string' && u.includes('/media-video-hvc1/'));
}

const LABELS = ['hd', 'sd', 'low'];

/** A video-only HEVC gear (`h265_hvc1`, `bytevc1`, or a `/media-video-hvc1/` path); never bytevc2. */
function isHevcVideoOnly(gear: Json): boolean {
  const codec = String(gear.CodecType ?? '').toLowerCase();
  const key = String(gear.PlayAddr?.UrlKey ?? '');
  const urls: string[] = gear.PlayAddr?.UrlList ?? [];
  if (codec.includes('bytevc2') || /_bytevc2_/.test(key)) return false;
  return (
    codec.includes('h265') ||
    codec.includes('bytevc1') ||
    /_bytevc1_/.test(key) ||
    urls.some((u) => typeof u === 'string' && u.includes('/media-video-hvc1/'))
  );
}

/** `video.bitrateAudioInfo` tracks, highest bitrate first, each with its usable URLs in order. */
export function audioTracks(video: Json): string[][] {
  const tracks = (Array.isArray(video.bitrateAudioInfo) ? video.bitrateAudioInfo : [])
    .map((a: Json) => ({
      bitrate: looseNumber(a?.Bitrate) ?? 0,
      urls: [a?.UrlList?.MainUrl, a?.UrlList?.BackupUrl, a?.UrlList?.FallbackUrl].filter(usableMediaUrl),
    }))
    .filter((t: { urls: string[] }) => t.urls.length);
  return tracks
    .sort((a: { bitrate: number }, b: { bitrate: number }) => b.bitrate - a.bitrate)
    .map((t: { urls: string[] }) => t.urls);
}

/** HEVC gears sharper than `bestMuxed`, one per size (highest bitrate), with the sound to pair. */
function hevcOptions(video: Json, bestMuxed: MediaOption | undefined): MediaOption[] {
  const audio = audioTracks(video);
  if (!audio.length) return []; // nothing to pair with: never offer a silent file
  const floor = bestMuxed ? Math.min(bestMuxed.width ?? 0, bestMuxed.height ?? 0) : 0;
  const bySize = new Map<string, MediaOption>();
  for (const gear of Array.isArray(video.bitrateInfo) ? video.bitrateInfo : []) {
    if (!gear || !isHevcVideoOnly(gear)) continue;
    const urls = (gear.PlayAddr?.UrlList ?? []).filter(usableMediaUrl);
    const width = looseNumber(gear.PlayAddr?.Width);
    const height = looseNumber(gear.PlayAddr?.Height);
    if (!urls.length || !width || !height || Math.min(width, height) <= floor) continue;
    const option: MediaOption = {
      quality: `${Math.min(width, height)}p`,
      codec: 'hevc',
      width,
      height,
      size: looseNumber(gear.PlayAddr?.DataSize),
      bitrate: looseNumber(gear.Bitrate),
      urls,
      audio,
    };
    const same = bySize.get(option.quality);
    if (!same || (option.bitrate ?? 0) > (same.bitrate ?? 0)) bySize.set(option.quality, option);
  }
  return [...bySize.values()].sort((a, b) => (b.width ?? 0) * (b.height ?? 0) - (a.width ?? 0) * (a.height ?? 0));
}

export function videoOptions(item: Json): MediaOption[] {
  const video: Json = item.video ?? {};
  const found: MediaOption[] = [];
  const seen = new Set<string>();
  for (const gear of Array.isArray(video.bitrateInfo) ? video.bitrateInfo : []) {
    if (!gear || !isMuxedH264(gear)) continue;
    const urls = (gear.PlayAddr?.UrlList ?? []).filter(usableMediaUrl);
    if (!urls.length) continue;
    const key = String(gear.PlayAddr?.UrlKey ?? gear.PlayAddr?.FileHash ?? urls[0]);
    if (seen.has(key)) continue;
    seen.add(key);
    for (const u of urls) seen.add(u);
    found.push({
      quality: '',
      codec: 'h264',
      width: looseNumber(gear.PlayAddr?.Width) ?? looseNumber(video.width),
      height: looseNumber(gear.PlayAddr?.Height) ?? looseNumber(video.height),
      size: looseNumber(gear.PlayAddr?.DataSize),
      bitrate: looseNumber(gear.Bitrate),
      urls,
    });
  }
  // `playAddr` is the same clean file as the best h264 gear; it is the only source on older pages.
  const play =
    typeof video.playAddr === 'string'
      ? video.playAddr
      : Array.isArray(video.playAddr)
        ? video.playAddr[0]?.src
        : undefined;
  if (usableMediaUrl(play) && !seen.has(play)) {
    const struct: Json = video.PlayAddrStruct ?? {};
    const structUrls = (struct.UrlList ?? []).filter(usableMediaUrl);
    found.push({
      quality: '',
      codec: 'h264',
      width: looseNumber(struct.Width) ?? looseNumber(video.width),
      height: looseNumber(struct.Height) ?? looseNumber(video.height),
      size: looseNumber(struct.DataSize),
      bitrate: looseNumber(video.bitrate),
      urls: [play, ...structUrls.filter((u: string) => u !== play)],
    });
  }
  found.sort(
    (a, b) =>
      (b.width ?? 0) * (b.height ?? 0) - (a.width ?? 0) * (a.height ?? 0) || (b.bitrate ?? 0) - (a.bitrate ?? 0),
  );
  const muxed = found.map((o, i) => ({ ...o, quality: LABELS[i] ?? `q${i + 1}` }));
  return [...hevcOptions(video, muxed[0]), ...muxed];
}

/** TikTok allows 35 slides; anything past 50 is not a real post. */
const MAX_SLIDES = 50;

/** `imagePost.images[i].imageURL.urlList`, the `.jpeg?` links first (research §7). */
export function photoSlides(item: Json): PhotoSlide[] {
  const images = Array.isArray(item.imagePost?.images) ? item.imagePost.images : [];
  const slides: PhotoSlide[] = [];
  for (const image of images.slice(0, MAX_SLIDES)) {
    const list: unknown[] = Array.isArray(image?.imageURL?.urlList) ? image.imageURL.urlList : [];
    const urls = list.filter(usableMediaUrl);
    if (!urls.length) continue;
    urls.sort((a, b) => Number(b.includes('.jpeg?')) - Number(a.includes('.jpeg?')));
    slides.push({ urls, width: looseNumber(image.imageWidth), height: looseNumber(image.imageHeight) });
  }
  return slides;
}

export function mapItemStruct(item: Json, fallbackId: string): VideoModel {
  const id = String(item.id ?? fallbackId);
  const video: Json = item.video ?? {};
  const author: Json = typeof item.author === 'object' && item.author ? item.author : {};
  const stats: Json = item.stats ?? {};
  const statsV2: Json = item.statsV2 ?? {};
  const description = typeof item.desc === 'string' ? item.desc.trim() : '';
  const cover = [
    video.cover,
    video.originCover,
    video.dynamicCover,
    item.imagePost?.cover?.imageURL?.urlList?.[0],
  ].find((u) => typeof u === 'string' && u.startsWith('https://'));
  const duration = looseNumber(video.duration) || looseNumber(item.music?.duration) || 0;
  return {
    id,
    title: description || `TikTok video #${id}`,
    description,
    author: String(author.uniqueId ?? (typeof item.author === 'string' ? item.author : '') ?? ''),
    authorName: typeof author.nickname === 'string' ? author.nickname : null,
    thumbnailUrl: cover ?? null,
    duration: Math.round(duration),
    views: looseNumber(stats.playCount) ?? looseNumber(statsV2.playCount) ?? 0,
    likes: looseNumber(stats.diggCount) ?? looseNumber(statsV2.diggCount) ?? 0,
    // A photo post's `video.playAddr`, when present, is its sound (research §7), never a video file.
    options: item.imagePost ? [] : videoOptions(item),
    musicUrl:
      typeof item.music?.playUrl === 'string' && item.music.playUrl.startsWith('https://') ? item.music.playUrl : null,
    musicTitle: typeof item.music?.title === 'string' ? item.music.title : null,
    subtitles: (Array.isArray(video.subtitleInfos) ? video.subtitleInfos : [])
      .filter((s: Json) => typeof s?.Url === 'string')
      .map((s: Json) => ({
        url: s.Url,
        language: String(s.LanguageCodeName ?? ''),
        format: String(s.Format ?? ''),
        source: String(s.Source ?? ''),
      })),
    isPhotoPost: !!item.imagePost,
    images: item.imagePost ? photoSlides(item) : [],
  };
}
