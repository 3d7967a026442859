// Uploaded videos as a MediaSource (issue 29): `upload:<id>` is looked up and opened from the media
// store, so the existing transcription service and its media job listen to an upload exactly as to
// a link, on any node. Everything else goes to the platforms' source. It is not a link: `recognises`
// never accepts it, so no tool takes it from a request; only the studio reaches it, with an
// `OwnedUpload` it checked as the caller's (issue 34, decision 0047).
import { fail } from '../../errors.js';
import type { CaptionProjectsRepository } from '../../db/repositories/caption-projects.repository.js';
import type { MediaResultsService } from '../media-results.service.js';
import type { MediaSource, MediaVideoInfo } from '../media-source.js';

const UPLOAD = /^upload:([0-9a-f]{32})$/;

export function withUploads(
  base: MediaSource,
  deps: { repo: () => CaptionProjectsRepository; results: () => MediaResultsService },
): MediaSource {
  const stored = async (id: string) => {
    const row = await deps.repo().findUpload(id);
    const result = row?.resultKey ? await deps.results().find(row.resultKey) : undefined;
    if (!row || !result) throw fail('upload.not_found');
    return { row, result };
  };
  return {
    recognises: (url) => base.recognises(url),
    platformNames: () => base.platformNames(),
    async lookup(url, signal) {
      const id = UPLOAD.exec(url)?.[1];
      if (!id) return base.lookup(url, signal);
      const { row, result } = await stored(id);
      const meta = (result.meta ?? {}) as { duration?: number };
      const info: MediaVideoInfo = {
        platform: 'upload',
        videoId: id,
        title: row.fileName,
        author: '',
        duration: meta.duration ?? 0,
        isPhotoPost: false,
        subtitles: [],
      };
      return info;
    },
    async openAudioSource(url, info, signal) {
      if (info.platform !== 'upload') return base.openAudioSource(url, info, signal);
      const { result } = await stored(info.videoId);
      const opened = await deps.results().openRow(result);
      if (!opened) throw fail('upload.not_found');
      return { stream: opened.stream, length: opened.size };
    },
    async openVideoSource(url, info, signal) {
      // An upload is one stored file with its sound; a link's source is the platforms' to say.
      if (info.platform !== 'upload' && base.openVideoSource) return base.openVideoSource(url, info, signal);
      return { video: await this.openAudioSource(url, info, signal), codec: 'h264' };
    },
    fetchText: (url, info, signal) => base.fetchText(url, info, signal),
  };
}
