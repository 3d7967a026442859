// Photo posts (issue 20): every slide as one ZIP, or a slideshow MP4 over the post's sound. Both are
// made by a media job (any worker node; MEDIA_CONCURRENCY, queue limit, time limit) from files fetched
// into the job's temp dir with the page's cookies, then kept in the media store under `images:<id>` /
// `slideshow:<id>` for the result TTL: a second download costs no CDN traffic and no ffmpeg run,
// and concurrent requests share one job, which lives while anyone waits for it.
import type { Readable } from 'node:stream';
import path from 'node:path';
import { fail } from '../errors.js';
import type { MediaProcessor } from '../adapters/media/media-processor.js';
import type { JobOwner } from '../jobs/catalogue.js';
import { renderSlideshow, SECONDS_PER_SILENT_SLIDE } from '../adapters/media/slideshow.js';
import { writeZip } from '../adapters/media/zip-archive.js';
import { slideshowFrame } from '../platforms/video-model.js';
import { mediaKeyId, type FetchedVideo } from '../platforms/platform.js';
import type { MediaResult } from '../db/repositories/media-results.repository.js';
import { defineMediaJob } from './media-job.js';
import type { MediaJobs } from './media-jobs.service.js';
import type { MediaResultsService } from './media-results.service.js';
import { isGone } from './remux.service.js';
import { MAX_SLIDE_BYTES, type PhotoQuality, type VideoService } from './video.service.js';

/** Slides fetched at once: enough to fill the link, few enough not to look like a scraper. */
const PARALLEL_SLIDES = 4;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
};
/** `01.jpg`, `02.jpg`…: the order of the post, sortable by name. */
export const slideName = (index: number, contentType: string) =>
  `${String(index + 1).padStart(2, '0')}.${EXTENSIONS[contentType.split(';')[0].trim().toLowerCase()] ?? 'jpg'}`;

export const slideMissing = (n: number, platform: string) =>
  fail('upstream.unavailable', { variant: 'slide', n, platform });

export function createPhotoPostService(deps: {
  video: VideoService;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
}) {
  /** Every slide into `dir`, in order; a slide the platform will not give fails the whole post. */
  async function fetchSlides(
    video: FetchedVideo,
    dir: string,
    signal: AbortSignal,
  ): Promise<Array<{ file: string; name: string }>> {
    const slides = video.video.images;
    const out: Array<{ file: string; name: string }> = new Array(slides.length);
    // The first failure stops the other fetches, and all settle before the temp dir goes.
    const stop = new AbortController();
    const partSignal = AbortSignal.any([signal, stop.signal]);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < slides.length; i = next++) {
        const opened = await deps.video
          .openMedia(video.ref.url, { kind: 'video', mediaUrls: slides[i].urls }, partSignal, {
            maxBytes: MAX_SLIDE_BYTES,
          })
          .catch((err) =>
            Promise.reject(isGone(err) ? slideMissing(i + 1, deps.video.platformName(video.ref.platform)) : err),
          );
        const name = slideName(i, opened.contentType);
        const file = path.join(dir, `slide-${name}`);
        await deps.media.download(opened.stream, file, { expectedBytes: opened.contentLength, signal: partSignal });
        out[i] = { file, name };
      }
    };
    let first: { err: unknown } | null = null; // the cause, not the aborts it led to
    const workers = Array.from({ length: Math.min(PARALLEL_SLIDES, slides.length) }, () =>
      worker().catch((err) => {
        first ??= { err };
        stop.abort();
      }),
    );
    await Promise.all(workers);
    if (first) throw (first as { err: unknown }).err;
    return out;
  }

  /** The post's sound into `dir` (null when the post has none); its length from ffprobe. */
  async function fetchSound(
    video: FetchedVideo,
    dir: string,
    signal: AbortSignal,
  ): Promise<{ file: string; seconds: number } | null> {
    if (!video.video.musicUrl) return null;
    const opened = await deps.video.openMedia(video.ref.url, { kind: 'music' }, signal, { bulk: true }).catch((err) => {
      if (!isGone(err)) throw err;
      throw fail('video.sound_unavailable', { variant: 'post', platform: deps.video.platformName(video.ref.platform) });
    });
    const file = path.join(dir, 'sound');
    await deps.media.download(opened.stream, file, { expectedBytes: opened.contentLength, signal });
    const probed = await deps.media.probe(file, signal);
    if (!probed.audio || !(probed.duration > 0)) throw fail('media.unreadable', { variant: 'post_sound' });
    return { file, seconds: probed.duration };
  }

  // The jobs, on whichever node runs them: the request's lookup when it waits on this node (one
  // lookup per job), else their own by id; then the ZIP or the render.
  const define = (quality: PhotoQuality) =>
    defineMediaJob(deps, {
      kind: quality,
      key: ({ platform, videoId }) => `${quality}:${mediaKeyId({ platform, id: videoId })}`,
      load: ({ platform, videoId }, signal): Promise<FetchedVideo> => deps.video.byId(videoId, signal, platform),
      async produce({ source: video, dir, signal, save }) {
        const store = (file: string, ext: string, contentType: string, size: number) =>
          save({
            platform: video.ref.platform,
            videoId: video.video.id,
            file,
            ext,
            contentType,
            size,
            meta: { slides: video.video.images.length },
          });
        if (quality === 'images') {
          const slides = await fetchSlides(video, dir, signal);
          const output = path.join(dir, 'slides.zip');
          return store(output, 'zip', 'application/zip', await writeZip(slides, output, signal));
        }
        // Slides and sound at once; the first failure stops the other, and both settle before the dir goes.
        const parts = new AbortController();
        const partSignal = AbortSignal.any([signal, parts.signal]);
        const both = [fetchSlides(video, dir, partSignal), fetchSound(video, dir, partSignal)] as const;
        const [slides, sound] = await Promise.all(both).catch(async (err) => {
          parts.abort();
          await Promise.allSettled(both);
          throw err;
        });
        const seconds = sound?.seconds ?? SECONDS_PER_SILENT_SLIDE * slides.length;
        const output = path.join(dir, 'slideshow.mp4');
        const size = await renderSlideshow(
          deps.media,
          {
            slides: slides.map((s) => s.file),
            sound: sound?.file ?? null,
            seconds,
            ...slideshowFrame(video.video.images),
          },
          output,
          signal,
        );
        return store(output, 'mp4', 'video/mp4', size);
      },
    });
  const jobs = { images: define('images'), slideshow: define('slideshow') };

  return {
    /** The stored ZIP or slideshow of a photo post, made now if it is not kept yet. */
    async ensure(
      video: FetchedVideo,
      quality: PhotoQuality,
      signal?: AbortSignal,
      owner?: JobOwner,
    ): Promise<MediaResult> {
      if (!video.video.images.length)
        throw fail('video.no_slide', { variant: 'none', platform: deps.video.platformName(video.ref.platform) });
      const data = { platform: video.ref.platform, videoId: video.ref.id };
      return jobs[quality].run({ data, source: video, owner }, signal);
    },
    /** The ZIP or slideshow of a photo post as a stream, from the store or made now. */
    async open(
      video: FetchedVideo,
      quality: PhotoQuality,
      signal?: AbortSignal,
      owner?: JobOwner,
    ): Promise<{ stream: Readable; size: number; contentType: string }> {
      const row = await this.ensure(video, quality, signal, owner);
      const opened = await deps.results.openRow(row);
      if (!opened) throw fail('media.store_unavailable');
      return { ...opened, contentType: row.contentType };
    },
  };
}
export type PhotoPostService = ReturnType<typeof createPhotoPostService>;
