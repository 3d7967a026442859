// Repost kits (issue 47): from a link or a caption project to a post ready for each ticked target.
// The preview makes each target's texts (the content optimiser's reading of the post, hashtags from
// the generator, the credit line) and says what the video will need, spending nothing; the kit is a
// media job (repost-kit.job.ts) that costs a free account one download, like the file alone would.
import crypto from 'node:crypto';
import { REPOST_TARGET_LIMITS, type RepostTarget } from '../../../shared/platform-limits.js';
import type { RepostCard, RepostKitInput, RepostKitJob, RepostPreview } from '../../../shared/contracts/repost-kits.js';
import type { MediaJobView } from '../../../shared/contracts/media-jobs.js';
import { CONTENT_MAX } from '../../../shared/contracts/content.js';
import { HASHTAG_DESCRIPTION_MAX, HASHTAG_TITLE_MAX } from '../../../shared/contracts/hashtags.js';
import { composeRepostText, creditLine, fitEditedText, titleFor } from '../../../shared/repost-texts.js';
import type { User } from '../../db/repositories/users.repository.js';
import { fail } from '../../errors.js';
import type { ContentService } from '../content.service.js';
import { mediaJobOwner } from '../entitlements.service.js';
import type { HashtagService } from '../hashtag.service.js';
import { cleanHashtags } from '../hashtag-text.js';
import type { MediaJobs } from '../media-jobs.service.js';
import type { QuotaService } from '../quota.service.js';
import type { KitSource, KitSources } from './kit-source.js';
import type { RepostKitJobRunner } from './repost-kit.job.js';
import { VIDEO_LINKS } from '../../platforms/default.js';

export interface RepostKitDeps {
  sources: KitSources;
  job: RepostKitJobRunner;
  jobs: MediaJobs;
  quota: QuotaService;
  content: Pick<ContentService, 'prepare'>;
  hashtags: Pick<HashtagService, 'generate'>;
}

type Texts = Record<string, { text: string; title: string | null }>;

export function createRepostKitService(deps: RepostKitDeps) {
  /** Each target's text and title from the post: the optimiser's hook and body, the generator's hashtags, the credit. */
  async function textsFor(user: User, source: KitSource, targets: RepostTarget[], credit: boolean) {
    const owner = user.id;
    const description = source.description.slice(0, CONTENT_MAX).trim() || source.title || 'video';
    const [prepared, generated] = await Promise.all([
      deps.content.prepare(description, owner),
      deps.hashtags.generate(
        {
          videoTitle: (source.title || firstLine(description)).slice(0, HASHTAG_TITLE_MAX) || 'video',
          videoDescription: description.slice(0, HASHTAG_DESCRIPTION_MAX) || undefined,
        },
        owner,
      ),
    ]);
    const hashtags = cleanHashtags([...prepared.userTags, ...generated.mixed, ...generated.niche]);
    const line = credit && source.credit ? creditLine(source.credit.author, source.credit.link) : undefined;
    const out: Texts = {};
    for (const target of targets) {
      const text = composeRepostText(target, { hook: prepared.hook, body: prepared.body, hashtags, credit: line });
      out[target] = { text, title: titleFor(target, text) };
    }
    return { texts: out, hashtags, credit: line ?? null };
  }

  /** Only the owner of an uploaded project may leave the credit out. */
  function checkCredit(source: KitSource, credit: boolean) {
    if (!credit && source.credit) throw fail('repost.credit_required');
  }

  return {
    /** The cards as they will look: nothing is downloaded, made or spent. */
    async preview(
      user: User,
      input: { url?: string; projectId?: string; targets: RepostTarget[] },
      signal?: AbortSignal,
    ) {
      const source = await deps.sources.resolve(user, input, signal);
      const targets = [...new Set(input.targets)];
      const { texts, hashtags, credit } = await textsFor(user, source, targets, true);
      const cards: RepostCard[] = targets.map((target) => {
        const rules = REPOST_TARGET_LIMITS[target];
        const tooLong = source.duration > rules.video.maxSeconds + 0.05;
        return {
          target,
          text: texts[target].text,
          title: texts[target].title,
          hashtags: hashtags.slice(0, rules.caption.hashtagLimit),
          video: tooLong ? 'refuse' : 'unknown',
          ...(tooLong
            ? {
                note: fail('repost.target_refused', {
                  target: rules.label,
                  limit: rules.video.maxSeconds,
                  seconds: Math.round(source.duration),
                }).message,
              }
            : {}),
        };
      });
      const preview: RepostPreview = {
        title: source.title,
        author: source.author,
        duration: source.duration,
        credit,
        creditOptional: source.credit === null,
        // The cover scrubber plays the video the downloader's card plays (a free account: its short clip).
        videoUrl: source.project
          ? `/api/caption-projects/${encodeURIComponent(source.project.id)}/media`
          : VIDEO_LINKS.stream(source.id, source.platform),
        cards,
      };
      return preview;
    },

    /** Starts the kit's media job; a free account's kit reserves one download, settled by the job. */
    async start(
      user: User,
      input: RepostKitInput,
      signal?: AbortSignal,
      opts: { respondAsync?: boolean } = {},
    ): Promise<MediaJobView> {
      const source = await deps.sources.resolve(user, input, signal);
      checkCredit(source, input.credit);
      if (input.burnCaptions && !source.project) throw fail('repost.burn_needs_project');
      const made = await textsFor(user, source, input.targets, input.credit);
      const texts: Texts = {};
      for (const target of input.targets) {
        const edited = input.texts?.[target];
        const text = edited === undefined ? made.texts[target].text : fitEditedText(target, edited);
        texts[target] = { text, title: titleFor(target, text) };
      }
      const reservation = await deps.quota.reserve(user, {
        url: source.credit?.link ?? `studio:${source.id}`,
        platform: source.platform,
        videoId: source.id,
        title: source.title.slice(0, 500),
        author: source.author.slice(0, 200),
        hasThumbnail: false,
        duration: Math.round(source.duration),
        views: 0,
        likes: 0,
        quality: 'repost-kit',
      });
      const data: RepostKitJob = {
        kitId: crypto.randomUUID(),
        userId: user.id,
        ...(input.projectId ? { projectId: input.projectId } : { url: input.url }),
        targets: input.targets,
        burnCaptions: input.burnCaptions,
        coverAt: input.coverAt,
        texts,
        reservation: reservation.downloadId,
      };
      let out: Awaited<ReturnType<RepostKitJobRunner['run']>>;
      try {
        out = await deps.job.run({ data, source, owner: mediaJobOwner(user) }, signal, opts);
      } catch (err) {
        // A job that ran settled the slot already (settling twice changes nothing); one the queue refused did not.
        await reservation.release(0).catch(() => undefined);
        throw err;
      }
      if ('state' in out) return out;
      return { id: data.kitId, state: 'done', ...(await deps.jobs.describe(out)) };
    },
  };
}
export type RepostKitService = ReturnType<typeof createRepostKitService>;

/** A title's worth of the text's first line, when the post has no title of its own. */
const firstLine = (text: string) => text.split('\n')[0] ?? '';
