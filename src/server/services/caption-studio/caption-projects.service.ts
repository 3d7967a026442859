// Caption projects (issue 29): opened from a link or an upload with the transcript's timed words,
// saved by the editor with a revision (a stale save is a 409, never a silent overwrite), exported
// as SRT / VTT / ASS / TXT, previewed from the stored source video and burned in by a media job
// (caption-render.job.ts). Every read goes through the owner: someone else's project is a 404.
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { buildAss, DEFAULT_CAPTION_STYLE } from '../../../shared/caption-ass.js';
import { projectToSrt, projectToText, projectToWebVtt } from '../../../shared/caption-exports.js';
import { spreadWords, transcriptFileName } from '../../../shared/captions.js';
import { flowWords } from '../../../shared/subtitle-lines.js';
import {
  STUDIO_LIMITS,
  type CaptionLine,
  type CaptionProject,
  type CaptionRenderResult,
  type CaptionSource,
  type SaveCaptionProjectRequest,
} from '../../../shared/contracts/caption-studio.js';
import type { TranscriptionResult } from '../../../shared/contracts/transcription.js';
import type { MediaStore } from '../../adapters/storage/media-store.js';
import type { JobOwner } from '../../jobs/catalogue.js';
import type {
  CaptionProjectRow,
  CaptionProjectsRepository,
} from '../../db/repositories/caption-projects.repository.js';
import type { MediaResult } from '../../db/repositories/media-results.repository.js';
import { fail } from '../../errors.js';
import type { PendingJob } from '../media-jobs.service.js';
import type { CaptionRenderJob } from './caption-render.job.js';
import { parseRange, type MediaResultsService } from '../media-results.service.js';
import type { TranscriptionService } from '../transcription.service.js';
import type { StudioSource } from './studio-source.js';
import type { StudioUploads } from './studio-uploads.service.js';

export interface CaptionProjectsDeps {
  repo: CaptionProjectsRepository;
  transcription: TranscriptionService;
  sources: StudioSource;
  uploads: StudioUploads;
  results: MediaResultsService;
  store: MediaStore;
  render: CaptionRenderJob;
}

type User = { id: string };
type Async = { respondAsync?: boolean };

/**
 * The transcript as editor lines shaped like subtitles (src/shared/subtitle-lines.ts): a segment's
 * timed words cut at pauses, sentence ends, two rows and seven seconds; at most STUDIO_LIMITS lines.
 */
export function linesFromTranscript(t: Pick<TranscriptionResult, 'segments'>): CaptionLine[] {
  const lines: CaptionLine[] = [];
  for (const seg of t.segments) {
    const words = seg.words?.length ? seg.words : spreadWords(seg);
    for (const run of flowWords(words)) {
      for (let i = 0; i < run.length; i += STUDIO_LIMITS.wordsPerLine) {
        if (lines.length >= STUDIO_LIMITS.lines) return lines;
        lines.push({ id: `l${lines.length + 1}`, words: run.slice(i, i + STUDIO_LIMITS.wordsPerLine) });
      }
    }
  }
  return lines;
}

export function projectView(row: CaptionProjectRow): CaptionProject {
  return {
    id: row.id,
    source: row.source as CaptionSource,
    title: row.title,
    width: row.width,
    height: row.height,
    duration: row.duration / 1000,
    language: row.language,
    engine: row.engine as CaptionProject['engine'],
    lines: row.lines as CaptionLine[],
    style: row.style as CaptionProject['style'],
    revision: row.revision,
    updatedAt: row.updatedAt.toISOString(),
  };
}

const EXPORTS = {
  srt: { type: 'application/x-subrip; charset=utf-8', make: (p: CaptionProject) => projectToSrt(p.lines) },
  vtt: { type: 'text/vtt; charset=utf-8', make: (p: CaptionProject) => projectToWebVtt(p.lines) },
  ass: { type: 'text/x-ssa; charset=utf-8', make: (p: CaptionProject) => buildAss(p) },
  txt: { type: 'text/plain; charset=utf-8', make: (p: CaptionProject) => projectToText(p.lines) },
} as const;

/** The media result key of a render: the same captions on the same video render once. */
export const renderKey = (projectId: string, ass: string) =>
  `caption-render:${projectId}:${crypto.createHash('sha256').update(ass).digest('hex').slice(0, 24)}`;

export function createCaptionProjectsService(deps: CaptionProjectsDeps) {
  async function own(user: User, id: string): Promise<CaptionProjectRow> {
    const row = await deps.repo.find(id, user.id);
    if (!row) throw fail('studio.not_found');
    return row;
  }
  async function sourceOf(row: CaptionProjectRow): Promise<MediaResult> {
    const media = await deps.results.find(row.mediaKey);
    if (!media) throw fail('studio.source_gone');
    return media;
  }

  return {
    /** Transcribes the source (and keeps its video) first; `respondAsync`: a 202 while a job runs. */
    async create(
      user: User,
      source: CaptionSource,
      signal: AbortSignal | undefined,
      owner: JobOwner,
      opts: Async & { language?: string; listen?: boolean; translate?: boolean } = {},
    ): Promise<CaptionProject | PendingJob> {
      // An upload is a source only once checked as the caller's; a link goes through the one link rule
      // (`upload:<id>` is no link: the transcription refuses it like any unknown link).
      const upload = source.kind === 'upload' ? await deps.uploads.ready(user, source.uploadId) : null;
      const url = source.kind === 'link' ? source.url : '';
      // The transcript first: it answers a bad link's errors before any video is fetched.
      const transcript = await deps.transcription.generate(upload ? upload.source : url, signal, owner, opts);
      if ('state' in transcript) return transcript;
      const stored = upload
        ? await deps.results.find(upload.resultKey)
        : await deps.sources.ofLink(url, signal, owner, { respondAsync: opts.respondAsync });
      if (!stored) throw fail('studio.source_gone');
      if ('state' in stored) return stored;
      const title = upload?.title || transcript.title;
      const meta = (stored.meta ?? {}) as { width?: number; height?: number; duration?: number };
      const row = await deps.repo.insert({
        id: crypto.randomUUID(),
        userId: user.id,
        source,
        title: Array.from(title).slice(0, STUDIO_LIMITS.titleChars).join(''),
        width: meta.width ?? 1080,
        height: meta.height ?? 1920,
        duration: Math.round((meta.duration || transcript.duration) * 1000),
        language: transcript.language.slice(0, 16),
        engine: transcript.engine,
        lines: linesFromTranscript(transcript),
        style: DEFAULT_CAPTION_STYLE,
        mediaKey: stored.key,
      });
      return projectView(row);
    },

    async list(user: User) {
      return (await deps.repo.list(user.id)).map((r) => {
        const { id, title, duration, updatedAt } = projectView(r);
        return { id, title, duration, updatedAt };
      });
    },

    get: async (user: User, id: string) => projectView(await own(user, id)),

    /** Autosave: only onto the revision the editor last saw. */
    async save(user: User, id: string, body: SaveCaptionProjectRequest): Promise<CaptionProject> {
      // Word times within the video (a second's slack for engines' rounding), so exports stay sane.
      const { duration } = await own(user, id);
      const last = Math.max(0, ...body.lines.flatMap((l) => l.words.map((w) => Math.max(w.start, w.end))));
      if (duration > 0 && last > duration / 1000 + 1)
        throw fail('studio.time_out_of_range', { seconds: Math.ceil(duration / 1000) });
      const saved = await deps.repo.save(id, user.id, body.revision, { lines: body.lines, style: body.style });
      if (saved) return projectView(saved);
      await own(user, id); // not theirs (404) or a newer revision exists (409)
      throw fail('studio.stale_revision');
    },

    async exportFile(user: User, id: string, format: keyof typeof EXPORTS) {
      const project = projectView(await own(user, id));
      const e = EXPORTS[format];
      return { body: e.make(project), contentType: e.type, fileName: transcriptFileName(project.title, `.${format}`) };
    },

    /** The source video for the preview, with a single Range like the media links. */
    async openMedia(user: User, id: string, range?: string) {
      const media = await sourceOf(await own(user, id));
      const size = await deps.store.size(media.storageKey);
      if (size === null) throw fail('studio.source_gone');
      const r = parseRange(range, size);
      if (r === 'unsatisfiable') throw fail('media.range', undefined, {}, { 'content-range': `bytes */${size}` });
      const stream = (await deps.store.open(media.storageKey, r ?? undefined)) as Readable | null;
      if (!stream) throw fail('studio.source_gone');
      return { stream, size, range: r, contentType: media.contentType };
    },

    /** Burns the captions in (a media job); the same captions again come back at once. */
    async render(
      user: User,
      id: string,
      signal: AbortSignal | undefined,
      owner: JobOwner,
      opts: Async = {},
    ): Promise<CaptionRenderResult | PendingJob> {
      const row = await own(user, id);
      const source = await sourceOf(row);
      // The job carries the revision it renders (its key hashes that revision's captions).
      const data = { projectId: row.id, userId: user.id, revision: row.revision };
      const out = await deps.render.run({ data, source: { row, source }, owner }, signal, opts);
      if ('state' in out) return out;
      return { url: deps.results.link(out), size: String(out.size), expiresAt: out.expiresAt.toISOString() };
    },
  };
}
export type CaptionProjectsService = ReturnType<typeof createCaptionProjectsService>;
