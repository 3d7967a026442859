// Maps TikTok's web `itemStruct` (docs/sources.md 'TikTok item fields' and on, VARIANTS.md) to what we need.
// Pure. Only watermark-free sources are read (`playAddr`, `bitrateInfo` gears); never `downloadAddr`,
// never the `www.tiktok.com/aweme/v1/play/` fallback. Whole H.264 MP4 files (a phone plays them with
// sound) are options 'hd', 'sd', 'low'. Gears sharper than the best of them become options by
// resolution ('1080p', '720p'): a whole MP4 with its own sound is served as it is; a video-only DASH
// gear only paired with a `bitrateAudioInfo` track, remuxed by the server (decision 0014): never a
// silent file.

import type { MediaOption, OriginalSound, PhotoSlide, PostPictures, VideoModel } from '../video-model.js';
import { byQuality, type Gear, looseNumber, mirrorUrls, readGears, resolutionOf, usableMediaUrl } from './gears.js';

export { looseNumber, usableMediaUrl } from './gears.js';

// biome-ignore lint/suspicious/noExplicitAny: TikTok's page JSON, unversioned; every read below is checked
type Json = Record<string, any>;

const LABELS = ['hd', 'sd', 'low'];
/**
 * TikTok allows 35 slides; anything past 50 is not a real post. The same bound serves the sound
 * tracks and a slide's mirrors, so a page listing millions costs no more than a real one (issue 42).
 */
const MAX_SLIDES = 50;

/** `video.bitrateAudioInfo` tracks, highest bitrate first, each with its usable URLs in order. */
function rankedAudio(video: Json): Array<{ bitrate: number; urls: string[] }> {
  return (Array.isArray(video.bitrateAudioInfo) ? video.bitrateAudioInfo.slice(0, MAX_SLIDES) : [])
    .filter((a: Json) => a && String(a.MediaType ?? 'audio').toLowerCase() === 'audio')
    .map((a: Json) => {
      const list = a.UrlList ?? {};
      // An object {MainUrl, BackupUrl, FallbackUrl} (2026), or a plain list of mirrors.
      const urls = Array.isArray(list)
        ? mirrorUrls(list)
        : mirrorUrls([list.MainUrl, list.BackupUrl, list.FallbackUrl]);
      return { bitrate: looseNumber(a.Bitrate) ?? 0, urls };
    })
    .filter((t: { urls: string[] }) => t.urls.length)
    .sort((a: { bitrate: number }, b: { bitrate: number }) => b.bitrate - a.bitrate);
}

export function audioTracks(video: Json): string[][] {
  return rankedAudio(video).map((t) => t.urls);
}

const toOption = (g: Gear, quality: string, audio: string[][]): MediaOption => ({
  quality,
  codec: g.codec,
  width: g.width,
  height: g.height,
  size: g.size,
  bitrate: g.bitrate,
  urls: g.urls,
  form: g.form,
  ...(g.form === 'split' ? { audio } : {}),
});

/**
 * Gears sharper than `floor` (the best whole H.264 file's short side), one option per resolution:
 * its best gear, the others as alternates. A split gear needs a sound track, else it is skipped.
 */
function sharperOptions(gears: Gear[], audio: string[][], floor: number): MediaOption[] {
  const byRes = new Map<number, Gear[]>();
  for (const g of gears) {
    const res = resolutionOf(g);
    if (res <= floor || (g.form === 'split' && !audio.length)) continue;
    if (g.form === 'whole' && g.codec === 'h264') continue; // labelled among the H.264 files
    // Pushed, not copied: a page of thousands of gears at one resolution costs its length (issue 42).
    const list = byRes.get(res);
    if (list) list.push(g);
    else byRes.set(res, [g]);
  }
  return [...byRes.entries()]
    .sort((a, b) => b[0] - a[0])
    .map(([res, list]) => {
      const [best, ...rest] = list.sort(byQuality).map((g) => toOption(g, `${res}p`, audio));
      return rest.length ? { ...best, alternates: rest } : best;
    });
}

/** `video.playAddr` as a string, a list of strings or of `{src}` (yt-dlp), or `{UrlList}` (older JSON). */
function playAddrUrls(video: Json): string[] {
  const play = video.playAddr;
  if (play && typeof play === 'object' && !Array.isArray(play))
    return mirrorUrls(play.UrlList ?? play.urlList ?? play.url_list ?? play.src);
  return mirrorUrls(play);
}

export function videoOptions(item: Json): MediaOption[] {
  const video: Json = item.video ?? {};
  const gears = readGears(video);
  const found: MediaOption[] = [];
  const seen = new Set<string>();
  for (const g of gears) {
    if (g.codec !== 'h264' || g.form !== 'whole' || g.urls.some((u) => seen.has(u))) continue;
    for (const u of g.urls) seen.add(u);
    found.push({
      ...toOption(g, '', []),
      width: g.width ?? looseNumber(video.width),
      height: g.height ?? looseNumber(video.height),
    });
  }
  // `playAddr` is the same clean file as the best h264 gear; it is the only source on older pages.
  const play = playAddrUrls(video);
  if (play.length && !play.some((u) => seen.has(u))) {
    const struct: Json = video.PlayAddrStruct ?? {};
    const structUrls = mirrorUrls(struct.UrlList);
    found.push({
      quality: '',
      codec: 'h264',
      width: looseNumber(struct.Width) ?? looseNumber(video.width),
      height: looseNumber(struct.Height) ?? looseNumber(video.height),
      size: looseNumber(struct.DataSize),
      bitrate: looseNumber(video.bitrate),
      urls: [...new Set([...play, ...structUrls])],
      form: 'whole',
    });
  }
  found.sort(
    (a, b) =>
      (b.width ?? 0) * (b.height ?? 0) - (a.width ?? 0) * (a.height ?? 0) || (b.bitrate ?? 0) - (a.bitrate ?? 0),
  );
  const muxed = found.map((o, i) => ({ ...o, quality: LABELS[i] ?? `q${i + 1}` }));
  const floor = muxed[0] ? resolutionOf(muxed[0]) : 0;
  return [...sharperOptions(gears, audioTracks(video), floor), ...muxed];
}

/** The sound as TikTok stores it: the best AAC track, else the music file (mp3 or m4a by its mime_type). */
export function originalSound(item: Json, options: MediaOption[]): OriginalSound | null {
  const video: Json = item.video ?? {};
  const sources: OriginalSound['sources'] = rankedAudio(video).map((t) => ({
    urls: t.urls,
    ext: 'm4a' as const,
    bitrate: t.bitrate || null,
    from: 'track' as const,
  }));
  const music = mirrorUrls(item.music?.playUrl);
  const ext = (u: string) => (/mime_type=audio_mp4|\.m4a(\?|$)/.test(u) ? 'm4a' : 'mp3');
  // A photo post's sound is its music; a video's music may be a longer clip than the video's sound.
  const videoSound = options.find((o) => o.codec === 'h264' && (o.form ?? 'whole') === 'whole');
  if (videoSound && !item.imagePost) sources.push({ urls: videoSound.urls, ext: 'm4a', bitrate: null, from: 'video' });
  if (music.length) sources.push({ urls: music, ext: ext(music[0]), bitrate: null, from: 'music' });
  return sources.length ? { sources } : null;
}

/** The cover, the animated cover and the author's largest picture. */
export function postPictures(item: Json): PostPictures {
  const video: Json = item.video ?? {};
  const author: Json = item.author && typeof item.author === 'object' ? item.author : {};
  return {
    cover: mirrorUrls([video.originCover, video.cover, item.imagePost?.cover?.imageURL?.urlList?.[0]]),
    animatedCover: mirrorUrls(video.dynamicCover),
    avatar: mirrorUrls([author.avatarLarger, author.avatarMedium, author.avatarThumb]),
  };
}

/** `imagePost.images[i].imageURL.urlList`, the `.jpeg?` links first (research §7). */
export function photoSlides(item: Json): PhotoSlide[] {
  const images = Array.isArray(item.imagePost?.images) ? item.imagePost.images : [];
  const slides: PhotoSlide[] = [];
  for (const image of images.slice(0, MAX_SLIDES)) {
    const list: unknown[] = Array.isArray(image?.imageURL?.urlList) ? image.imageURL.urlList.slice(0, MAX_SLIDES) : [];
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
  // A photo post's `video.playAddr`, when present, is its sound (research §7), never a video file.
  const options = item.imagePost ? [] : videoOptions(item);
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
    options,
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
    originalSound: originalSound(item, options),
    pictures: postPictures(item),
    isPhotoPost: !!item.imagePost,
    images: item.imagePost ? photoSlides(item) : [],
  };
}
