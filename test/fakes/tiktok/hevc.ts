/**
 * Real HEVC video-only gears and AAC sound tracks on the fake CDN (docs/sources.md 'TikTok video formats'): the
 * DASH form with separate sound, the older whole-MP4 form, whole alternates beside DASH gears, and
 * the orders and cuts the streamed remux must survive (issue 38).
 */
import fs from 'node:fs';
import type { Served } from './cdn.js';

/**
 * Keyed by gear ('1080p', '720p') and by track index (0 = best). A null entry answers 404.
 */
export interface HevcOptions {
  gears: Record<string, string | null>;
  sounds: Array<string | null>;
  cutGearsAfterBytes?: number;
  /** Every sound track breaks off after this many bytes (the connection drops mid-file). */
  cutSoundsAfterBytes?: number;
  /** The sound tracks' own pace (else the video's `bytesPerSecond`). */
  soundBytesPerSecond?: number;
  /**
   * The sound tracks answer only once a cut gear's connection was dropped: the server reads the
   * gear's head after the gear already broke (the order that hung the streamed remux, issue 38).
   */
  soundsAfterGearCut?: boolean;
  /**
   * 'mp4': the HEVC gears are whole MP4 files with their own sound, as on older posts
   * (`Format: "mp4"`, `VideoExtra.audio_bit_rate`), and the page has no `bitrateAudioInfo`.
   */
  form?: 'dash' | 'mp4';
  /** Extra whole-MP4 gears beside the DASH ones: `{ '1080p': file }` (same size, lower bitrate). */
  wholeAlternates?: Record<string, string | null>;
}

/** Serves real HEVC gears and sound tracks (sizes from the files); null entries are 404s. */
export function registerHevc(served: Map<string, Served>, item: any, hevc: HevcOptions, bytesPerSecond?: number) {
  if (hevc.form === 'mp4') {
    // An older post (research §6.1): whole HEVC MP4 gears, each with its own sound, no DASH tracks.
    for (const gear of item.video.bitrateInfo) {
      if (!String(gear.CodecType).includes('h265')) continue;
      gear.Format = 'mp4';
      const extra = JSON.parse(gear.VideoExtra);
      gear.VideoExtra = JSON.stringify({ ...extra, format: 'mp4', sub_info: '{}', audio_bit_rate: 64545 });
    }
    delete item.video.bitrateAudioInfo;
  }
  if (hevc.wholeAlternates) {
    const extra = item.video.bitrateInfo.filter((g: { CodecType: unknown }) => String(g.CodecType).includes('h265'));
    for (const g of extra) {
      const quality = `${Math.min(Number(g.PlayAddr.Width), Number(g.PlayAddr.Height))}p`;
      if (!(quality in hevc.wholeAlternates)) continue;
      const copy = structuredClone(g);
      copy.GearName = `${g.GearName}_whole`;
      copy.Format = 'mp4';
      copy.Bitrate = Math.round(Number(g.Bitrate) / 2);
      copy.MVMAF = '';
      copy.VideoExtra = JSON.stringify({ format: 'mp4', audio_bit_rate: 64545 });
      copy.PlayAddr.UrlList = g.PlayAddr.UrlList.map((u: string) => u.replace(`/${g.GearName}/`, `/${copy.GearName}/`));
      item.video.bitrateInfo.push(copy);
      const file = hevc.wholeAlternates[quality];
      for (const u of copy.PlayAddr.UrlList.filter((x: string) => !x.includes('/aweme/v1/play')))
        if (file)
          served.set(new URL(u).pathname, {
            media: { file },
            contentType: 'video/mp4',
            cookieRule: true,
            bytesPerSecond,
          });
      if (file) copy.PlayAddr.DataSize = String(fs.statSync(file).size);
    }
  }
  let gearCut: () => void = () => undefined;
  const afterGearCut = new Promise<void>((r) => (gearCut = r));
  const put = (
    urls: string[],
    file: string | null,
    contentType: string,
    cutAfterBytes?: number,
    pace = bytesPerSecond,
    order: Pick<Served, 'answerAfter' | 'onCut'> = {},
  ) => {
    for (const u of urls.filter((x) => !x.includes('/aweme/v1/play'))) {
      const p = new URL(u).pathname;
      if (file)
        served.set(p, {
          media: { file },
          contentType,
          cookieRule: true,
          bytesPerSecond: pace,
          cutAfterBytes,
          ...order,
        });
      else served.delete(p);
    }
  };
  for (const gear of item.video.bitrateInfo) {
    if (!String(gear.CodecType).includes('h265') || gear.GearName.endsWith('_whole')) continue;
    const quality = `${Math.min(Number(gear.PlayAddr.Width), Number(gear.PlayAddr.Height))}p`;
    if (!(quality in hevc.gears)) continue;
    const file = hevc.gears[quality];
    put(gear.PlayAddr.UrlList, file, 'video/mp4', hevc.cutGearsAfterBytes, bytesPerSecond, { onCut: gearCut });
    if (file) gear.PlayAddr.DataSize = String(fs.statSync(file).size);
  }
  // Tracks in the order the mapper ranks them (highest Bitrate first).
  const tracks = [...(item.video.bitrateAudioInfo ?? [])].sort(
    (a: any, b: any) => Number(b.Bitrate) - Number(a.Bitrate),
  );
  for (const [i, a] of tracks.entries())
    put(
      Object.values(a.UrlList ?? {}) as string[],
      hevc.sounds[i] ?? hevc.sounds.at(-1) ?? null,
      'audio/mp4',
      hevc.cutSoundsAfterBytes,
      hevc.soundBytesPerSecond ?? bytesPerSecond,
      hevc.soundsAfterGearCut ? { answerAfter: afterGearCut } : {},
    );
}
