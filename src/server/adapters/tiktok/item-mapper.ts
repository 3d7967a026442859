// Maps TikTok's web `itemStruct` (research/tiktok.md §5-6) to what the product needs. Pure.
// Only watermark-free sources are read (`playAddr`, `bitrateInfo` gears); never `downloadAddr`,
// never the `www.tiktok.com/aweme/v1/play/` fallback. Only muxed H.264 MP4 files (a phone plays
// them with sound) become video options; HEVC DASH gears are video-only and are left out.

export interface MediaOption {
  quality: string; // 'hd' = best, then 'sd', 'low', 'q4'...
  width: number | null;
  height: number | null;
  size: number | null; // bytes, from DataSize
  bitrate: number | null;
  urls: string[]; // CDN URLs to try in order (v16, then the v19 mirror)
}

export interface ParsedVideo {
  id: string;
  title: string;
  description: string;
  author: string; // handle (uniqueId)
  authorName: string | null; // display name
  thumbnailUrl: string | null; // CDN cover URL (signed, expires)
  duration: number; // seconds
  views: number;
  likes: number;
  options: MediaOption[];
  /** Original sound (`music.playUrl`, often audio/mpeg), for the audio tools. */
  musicUrl: string | null;
  musicTitle: string | null;
  /** `video.subtitleInfos` as TikTok gives them (Url, LanguageCodeName, Format, Source). */
  subtitles: Array<{ url: string; language: string; format: string; source: string }>;
  isPhotoPost: boolean;
}

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
    return !(url.hostname === 'www.tiktok.com' || url.hostname === 'tiktok.com' || url.pathname.startsWith('/aweme/v1/play'));
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
    urls.forEach((u: string) => seen.add(u));
    found.push({
      quality: '',
      width: looseNumber(gear.PlayAddr?.Width) ?? looseNumber(video.width),
      height: looseNumber(gear.PlayAddr?.Height) ?? looseNumber(video.height),
      size: looseNumber(gear.PlayAddr?.DataSize),
      bitrate: looseNumber(gear.Bitrate),
      urls,
    });
  }
  // `playAddr` is the same clean file as the best h264 gear; it is the only source on older pages.
  const play = typeof video.playAddr === 'string' ? video.playAddr : Array.isArray(video.playAddr) ? video.playAddr[0]?.src : undefined;
  if (usableMediaUrl(play) && !seen.has(play)) {
    const struct: Json = video.PlayAddrStruct ?? {};
    const structUrls = (struct.UrlList ?? []).filter(usableMediaUrl);
    found.push({
      quality: '',
      width: looseNumber(struct.Width) ?? looseNumber(video.width),
      height: looseNumber(struct.Height) ?? looseNumber(video.height),
      size: looseNumber(struct.DataSize),
      bitrate: looseNumber(video.bitrate),
      urls: [play, ...structUrls.filter((u: string) => u !== play)],
    });
  }
  found.sort((a, b) => (b.width ?? 0) * (b.height ?? 0) - (a.width ?? 0) * (a.height ?? 0) || (b.bitrate ?? 0) - (a.bitrate ?? 0));
  return found.map((o, i) => ({ ...o, quality: LABELS[i] ?? `q${i + 1}` }));
}

export function mapItemStruct(item: Json, fallbackId: string): ParsedVideo {
  const id = String(item.id ?? fallbackId);
  const video: Json = item.video ?? {};
  const author: Json = typeof item.author === 'object' && item.author ? item.author : {};
  const stats: Json = item.stats ?? {};
  const statsV2: Json = item.statsV2 ?? {};
  const description = typeof item.desc === 'string' ? item.desc.trim() : '';
  const cover = [video.cover, video.originCover, video.dynamicCover, item.imagePost?.cover?.imageURL?.urlList?.[0]].find(
    (u) => typeof u === 'string' && u.startsWith('https://'),
  );
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
    options: videoOptions(item),
    musicUrl: typeof item.music?.playUrl === 'string' && item.music.playUrl.startsWith('https://') ? item.music.playUrl : null,
    musicTitle: typeof item.music?.title === 'string' ? item.music.title : null,
    subtitles: (Array.isArray(video.subtitleInfos) ? video.subtitleInfos : [])
      .filter((s: Json) => typeof s?.Url === 'string')
      .map((s: Json) => ({ url: s.Url, language: String(s.LanguageCodeName ?? ''), format: String(s.Format ?? ''), source: String(s.Source ?? '') })),
    isPhotoPost: !!item.imagePost,
  };
}
