// Where a repost kit's video comes from (issue 47): a link, looked up through the downloader's video
// service (every registered platform, never one by name), or a caption project of the person asking
// (its stored source video; its captions when they are burned in). What the credit line names is
// decided here: someone else's post is always credited; only an uploaded project is the person's own.
import type { CaptionSource } from '../../../shared/contracts/caption-studio.js';
import type {
  CaptionProjectRow,
  CaptionProjectsRepository,
} from '../../db/repositories/caption-projects.repository.js';
import { AppError, fail } from '../../errors.js';
import type { MediaProcessor } from '../../adapters/media/media-processor.js';
import type { FetchedVideo } from '../../platforms/platform.js';
import type { MediaResultsService } from '../media-results.service.js';
import type { VideoService } from '../video.service.js';

export interface KitSource {
  /** The registry id of the link's platform, or `studio` for an upload. */
  platform: string;
  id: string;
  title: string;
  /** The post's own text (the optimiser's input). */
  description: string;
  author: string;
  duration: number;
  /** The credit line's parts; null when the video is the person's own upload. */
  credit: { author: string; link: string } | null;
  fetched?: FetchedVideo;
  project?: CaptionProjectRow;
}

export interface KitSourceAsk {
  url?: string;
  projectId?: string;
}

export function createKitSources(deps: {
  video: VideoService;
  projects: CaptionProjectsRepository;
  results: MediaResultsService;
  media: MediaProcessor;
}) {
  async function ofLink(url: string, signal?: AbortSignal): Promise<KitSource> {
    const { video: fetched } = await deps.video.getInfo(url, signal);
    const v = fetched.video;
    if (v.isPhotoPost || !v.options.length) throw fail('repost.not_video');
    const author = v.authorName && v.authorName !== v.author ? `${v.authorName} (@${v.author})` : `@${v.author}`;
    return {
      platform: fetched.ref.platform,
      id: v.id,
      title: v.title,
      description: v.description || v.title,
      author: v.author,
      duration: v.duration,
      credit: { author, link: fetched.ref.url },
      fetched,
    };
  }

  async function ofProject(projectId: string, userId: string, signal?: AbortSignal): Promise<KitSource> {
    const row = await deps.projects.find(projectId, userId);
    if (!row) throw fail('studio.not_found');
    const src = row.source as CaptionSource;
    const spoken = (row.lines as Array<{ words: Array<{ text: string }> }>)
      .map((l) => l.words.map((w) => w.text).join(' '))
      .join(' ')
      .slice(0, 5000);
    const base = { title: row.title, description: [row.title, spoken].filter(Boolean).join('\n\n'), project: row };
    if (src.kind === 'upload')
      return { ...base, platform: 'studio', id: row.id, author: '', duration: row.duration / 1000, credit: null };
    // A project made from someone else's post credits that post, as the link itself would; a post
    // gone since the project was made is still credited, by its link (the kept video is the source).
    const linked = await ofLink(src.url, signal).catch((err: unknown) => {
      if (!(err instanceof AppError) || err.status >= 500 || err.code === 'link.unsupported') throw err;
      return null;
    });
    if (linked) return { ...linked, ...base, duration: row.duration / 1000 };
    const credit = { author: 'the original author', link: src.url };
    return { ...base, platform: 'studio', id: row.id, author: '', duration: row.duration / 1000, credit };
  }

  return {
    resolve(user: { id: string }, ask: KitSourceAsk, signal?: AbortSignal): Promise<KitSource> {
      if (ask.projectId) return ofProject(ask.projectId, user.id, signal);
      return ofLink(ask.url ?? '', signal);
    },
    /** The source's video into `file` (a project's kept copy, else the link's file as the downloader sends it). */
    async fetchVideo(source: KitSource, file: string, signal: AbortSignal): Promise<string> {
      if (source.project) {
        const kept = await deps.results.find(source.project.mediaKey);
        const opened = kept && (await deps.results.openRow(kept));
        if (!opened) throw fail('studio.source_gone');
        await deps.media.download(opened.stream, file, { expectedBytes: opened.size, signal });
        return file;
      }
      if (!source.fetched) throw fail('repost.not_video');
      const m = await deps.video.openMedia(source.fetched.ref.url, { kind: 'video' }, signal, { bulk: true });
      await deps.media.download(m.stream, file, { expectedBytes: m.status === 200 ? m.contentLength : null, signal });
      return file;
    },
  };
}
export type KitSources = ReturnType<typeof createKitSources>;
