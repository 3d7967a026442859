// The source video of a caption project, kept in the media store so the preview and the render read
// it on any node: a link's video is downloaded once by a media job (`studio-source:<video>`), an
// upload is already stored (studio-uploads.service.ts). The frame size comes from ffprobe.
import path from 'node:path';
import { fail } from '../../errors.js';
import { probeArgs } from '../../adapters/media/ffmpeg-args.js';
import { runProcess } from '../../adapters/media/media-runner.js';
import { processFailure, type MediaProcessor } from '../../adapters/media/media-processor.js';
import { videoProbeFrom, type VideoProbe } from '../../adapters/media/caption-burn.js';
import type { MediaJobs, PendingJob } from '../media-jobs.service.js';
import type { MediaResultsService } from '../media-results.service.js';
import type { MediaSource, MediaVideoInfo, OpenedMedia } from '../media-source.js';
import { remuxFiles } from '../../adapters/media/remux.js';
import { defineMediaJob } from '../media-job.js';
import type { JobOwner } from '../../jobs/catalogue.js';
import type { MediaResult } from '../../db/repositories/media-results.repository.js';
import { mediaKeyId } from '../../platforms/platform.js';

/** ffprobe of a local file as the studio needs it; not a video at all is null. */
export async function probeVideo(
  media: MediaProcessor,
  file: string,
  signal?: AbortSignal,
): Promise<VideoProbe | null> {
  try {
    const { stdout } = await runProcess(media.config.ffprobe, probeArgs(file), {
      timeoutMs: media.config.timeoutMs,
      signal,
    });
    return videoProbeFrom(JSON.parse(stdout));
  } catch (err) {
    if (err instanceof SyntaxError) return null;
    const e = processFailure(err);
    if (e instanceof Error && 'code' in e && e.code === 'media.unreadable') return null;
    throw e;
  }
}

export interface StudioSourceDeps {
  source: MediaSource;
  media: MediaProcessor;
  results: MediaResultsService;
  jobs: MediaJobs;
}

export function createStudioSource(deps: StudioSourceDeps) {
  // On whichever node runs it: the request's lookup when it waits on this node, else its own.
  const job = defineMediaJob(deps, {
    kind: 'studio-source',
    key: (_data, info: MediaVideoInfo) => `studio-source:${mediaKeyId(info)}`,
    load: async ({ url }, signal) => {
      const info = await deps.source.lookup(url, signal);
      if (info.isPhotoPost) throw fail('studio.photo_post');
      return info;
    },
    async produce({ data, source: info, dir, signal, save }) {
      const opened = deps.source.openVideoSource
        ? await deps.source.openVideoSource(data.url, info, signal)
        : { video: await deps.source.openAudioSource(data.url, info, signal), codec: 'h264' as const };
      const fetch = async (part: OpenedMedia, name: string) => {
        const file = path.join(dir, name);
        return { file, size: await deps.media.download(part.stream, file, { expectedBytes: part.length, signal }) };
      };
      let { file: input, size } = await fetch(opened.video, 'source.mp4');
      // A split file (video alone + its sound, issue 44) is joined once, by stream copy.
      if (opened.sound) {
        const sound = await fetch(opened.sound, 'sound.m4a');
        const joined = path.join(dir, 'joined.mp4');
        size = await remuxFiles(deps.media, { video: input, audio: sound.file }, joined, opened.codec, signal);
        input = joined;
      }
      const probed = await probeVideo(deps.media, input, signal);
      if (!probed) throw fail('media.unreadable');
      return save({
        platform: info.platform,
        videoId: info.videoId,
        file: input,
        ext: 'mp4',
        contentType: 'video/mp4',
        size,
        meta: {
          width: probed.width,
          height: probed.height,
          duration: probed.duration,
          // With the frame size and length: the render needs no second probe (knownProbe).
          audioCodec: probed.audioCodec,
          title: info.title,
        },
      });
    },
  });

  return {
    /** The stored video of a link (a media job the first time); `respondAsync` as the other tools. */
    async ofLink(
      url: string,
      signal: AbortSignal | undefined,
      owner: JobOwner,
      opts: { respondAsync?: boolean },
    ): Promise<MediaResult | PendingJob> {
      const info = await deps.source.lookup(url, signal);
      if (info.isPhotoPost) throw fail('studio.photo_post');
      return job.run({ data: { url }, source: info, owner }, signal, opts);
    },
  };
}
export type StudioSource = ReturnType<typeof createStudioSource>;
