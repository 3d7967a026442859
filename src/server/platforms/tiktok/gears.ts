// TikTok's `video.bitrateInfo` gears (docs/sources.md 'TikTok video formats', VARIANTS.md): which are usable, in
// which form, and how they rank. A gear is either a whole MP4 with its own sound (`Format: "mp4"`:
// every H.264 gear, and the HEVC gears of older posts) or a video-only DASH file whose sound is a
// `bitrateAudioInfo` track (`Format: "dash"`, or a `/media-video-hvc1/` path). Forms and codecs we
// do not know (bytevc2, a new `Format`) are skipped, never offered. Pure.

// biome-ignore lint/suspicious/noExplicitAny: TikTok's JSON changes shape by year; every field is checked where read.
type Json = Record<string, any>;

export type GearCodec = 'h264' | 'hevc';
export type GearForm = 'whole' | 'split';

export interface Gear {
  codec: GearCodec;
  form: GearForm;
  width: number | null;
  height: number | null;
  size: number | null;
  bitrate: number | null;
  /** The gear's own quality score (MVMAF `ori.v1080`), comparable between gears of one post. */
  score: number | null;
  urls: string[];
}

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

/** A JSON object given as an object or as a JSON string (VideoExtra, MVMAF); {} when neither. */
function jsonField(v: unknown): Json {
  if (v && typeof v === 'object') return v as Json;
  if (typeof v !== 'string' || !v.trim().startsWith('{')) return {};
  try {
    const parsed = JSON.parse(v);
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

/** MVMAF `{"v2.0": {"ori": {"v1080": 91.0, …}}}`: the score against the original; -1 means none. */
function mvmafScore(gear: Json, extra: Json): number | null {
  const mvmaf = jsonField(gear.MVMAF ?? extra.mvmaf);
  const ori = mvmaf['v2.0']?.ori ?? Object.values(mvmaf)[0]?.ori;
  const score = looseNumber(ori?.v1080);
  return score !== null && score > 0 ? score : null;
}

function gearCodec(gear: Json): GearCodec | null {
  const codec = String(gear.CodecType ?? '').toLowerCase();
  const key = String(gear.PlayAddr?.UrlKey ?? '');
  if (codec.includes('bytevc2') || /_bytevc2_/.test(key)) return null; // ByteDance's own codec: unplayable
  if (codec.includes('h265') || codec.includes('hevc') || codec.includes('bytevc1') || /_bytevc1_/.test(key))
    return 'hevc';
  if (codec.includes('h264') || /_h264_/.test(key) || (!codec && !key.includes('_bytevc'))) return 'h264';
  return null;
}

function gearForm(gear: Json, extra: Json, urls: string[]): GearForm | null {
  if (urls.some((u) => u.includes('/media-video-'))) return 'split'; // a video-only DASH path
  const format = String(extra.format ?? gear.Format ?? 'mp4').toLowerCase();
  if (format === 'dash') return 'split';
  if (format === 'mp4') {
    // A whole MP4 says how loud its sound is; 0 means TikTok stored it silent.
    const sound = looseNumber(extra.audio_bit_rate);
    return sound === 0 ? null : 'whole';
  }
  return null;
}

/**
 * A post has a dozen gears and each a few mirrors; a page listing more is not TikTok's, and reading
 * all of them (a URL parse each) would hold the event loop for the whole of an 8 MB page (issue 42).
 */
const MAX_GEARS = 64;
const MAX_MIRRORS = 16;

/** The usable gears of a `video` object, in TikTok's order. */
export function readGears(video: Json): Gear[] {
  const gears: Gear[] = [];
  for (const gear of Array.isArray(video.bitrateInfo) ? video.bitrateInfo.slice(0, MAX_GEARS) : []) {
    if (!gear || typeof gear !== 'object') continue;
    const urls = mirrorUrls(gear.PlayAddr?.UrlList);
    const codec = gearCodec(gear);
    const extra = jsonField(gear.VideoExtra);
    const form = gearForm(gear, extra, urls);
    if (!urls.length || !codec || !form) continue;
    gears.push({
      codec,
      form,
      width: looseNumber(gear.PlayAddr?.Width),
      height: looseNumber(gear.PlayAddr?.Height),
      size: looseNumber(gear.PlayAddr?.DataSize),
      bitrate: looseNumber(gear.Bitrate),
      score: mvmafScore(gear, extra),
      urls,
    });
  }
  return gears;
}

/** A URL list (`UrlList`, `urlList`, `url_list`), one URL, or `[{src}]` (yt-dlp): usable ones, no repeats. */
export function mirrorUrls(list: unknown): string[] {
  const raw = Array.isArray(list) ? list.slice(0, MAX_MIRRORS) : list === undefined || list === null ? [] : [list];
  const urls = raw
    .map((u) => (u && typeof u === 'object' ? (u as Json).src : u))
    .map((u) => (typeof u === 'string' && u.startsWith('//') ? `https:${u}` : u)) // protocol-relative (yt-dlp)
    .filter(usableMediaUrl);
  return [...new Set(urls)];
}

/** Better first: a quality score where both gears have one, else the higher bitrate. */
export function byQuality(a: Gear, b: Gear): number {
  if (a.score !== null && b.score !== null && a.score !== b.score) return b.score - a.score;
  return (b.bitrate ?? 0) - (a.bitrate ?? 0);
}

/** The gear's resolution label: its short side (`1080p`, `720p`). */
export const resolutionOf = (g: { width: number | null; height: number | null }) =>
  g.width && g.height ? Math.min(g.width, g.height) : 0;
