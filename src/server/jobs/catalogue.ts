import type { RetryRule } from './retry-rule.js';
import type { RepostKitJob } from '../../shared/contracts/repost-kits.js';

/** The payload of each kind: what its handler needs on any node (plain JSON). */
export interface JobPayloads {
  /** MP3 of a video's sound. Its source is a link, or an upload's `upload:<id>` (the studio): a URL. */
  audio: { url: string };
  /** Listening to the sound (transcription engines that need the media); a link or an upload, as audio. */
  transcript: { url: string; language?: string; translate?: boolean };
  /** The HEVC file of one quality with its sound (no retries: the caller falls back to the next file). */
  remux: { platform: string; videoId: string; quality: string; alternate?: number };
  /** A photo post's slides as a ZIP. */
  images: { platform: string; videoId: string };
  /** A photo post as an MP4 slideshow. */
  slideshow: { platform: string; videoId: string };
  /** A free user's short preview clip (decision 0010). */
  preview: { platform: string; videoId: string };
  /** The caption studio's copy of a linked video (the preview's and the render's source). */
  'studio-source': { url: string };
  /** A caption project burned into its video (no retries: the person watching says try again). */
  'caption-render': { projectId: string; userId: string; revision: number };
  /** A repost kit (issue 47): one source made ready for each target, in one ZIP (no retries: the person is watching). */
  'repost-kit': RepostKitJob;
  /** One link of a batch (its own queue: items of one batch take turns with other batches). */
  'batch.item': { itemId: number };
  /** One turn of a scheduled task (queue `schedule.<task>`). */
  schedule: { task: string };
}
export type JobName = keyof JobPayloads;
export type JobOf<N extends JobName> = JobPayloads[N];

/** The kinds of the media queue: each stores one media result under its key. */
export type MediaJobName = Exclude<JobName, 'batch.item' | 'schedule'>;
/** What a handler gives back: a media kind its stored result; the others nothing. */

/** Time limits from configuration, in seconds. */
export interface JobLimits {
  media: number;
  batchItem: number;
}

/** Who asks for a media job: its owner (a user id; none: the anonymous owner) and their plan. */
export interface JobOwner {
  owner?: string;
  /** Higher first: 2 Pro (and Pro's batch items), 1 free, 0 no one signed in. */
  plan?: number;
}

/** What a job's place in line is made of. */
export interface JobOrder {
  /** The asker's plan (JobOwner.plan). */
  plan?: number;
  /** The asker's jobs already open on the queue (owners take turns). */
  ownerOpen?: number;
  /** The job's place in its batch (every batch's first items before anyone's tail). */
  place?: number;
}

export interface JobKind {
  /** The pg-boss queue its jobs go to (`schedule`: one queue `schedule.<task>` per task). */
  queue: 'media' | 'batch.item' | 'schedule';
  retry: RetryRule;
  /** A job running longer than this was lost with its worker: the queue hands it to another. */
  timeoutSeconds: (limits: JobLimits) => number;
  /** Higher runs first (pg-boss's job priority). */
  priority: (order: JobOrder) => number;
}

/** Media jobs: Pro before free, then the owner with fewer open jobs first. */
const mediaPriority = (o: JobOrder) => (o.plan ?? 0) * 1000 + Math.max(0, 999 - (o.ownerOpen ?? 0));

/** The media queue's kinds run a handler of MEDIA_TIMEOUT_SECONDS, plus a minute of slack. */
const media = (retries = 2): JobKind => ({
  queue: 'media',
  retry: { retries, backoffSeconds: 1 },
  timeoutSeconds: (l) => l.media + 60,
  priority: mediaPriority,
});

export const JOB_CATALOGUE: Record<JobName, JobKind> = {
  audio: media(),
  transcript: media(),
  remux: media(0), // a part that does not come is a fallback to the next file, at once
  images: media(),
  slideshow: media(),
  preview: media(0), // a person is watching the card: a failure is shown at once
  'studio-source': media(),
  'caption-render': media(0),
  'repost-kit': media(0),
  'batch.item': {
    queue: 'batch.item',
    retry: { retries: 2, backoffSeconds: 5 },
    timeoutSeconds: (l) => l.batchItem,
    priority: (o) => Math.max(0, 100 - (o.place ?? 0)),
  },
  schedule: {
    queue: 'schedule',
    retry: { retries: 0, backoffSeconds: 0 },
    timeoutSeconds: () => 3600,
    priority: () => 0,
  },
};

/** The kinds that run on a queue. */
export const kindsOn = (queue: JobKind['queue'], catalogue: Record<string, JobKind> = JOB_CATALOGUE) =>
  Object.keys(catalogue).filter((k) => catalogue[k].queue === queue);

/** Throws one clear line when a declared kind has no handler or a handler has no declared kind. */
export function checkHandlers(queue: string, declared: string[], handled: string[]) {
  const missing = declared.filter((k) => !handled.includes(k));
  const unknown = handled.filter((k) => !declared.includes(k));
  if (missing.length)
    throw new Error(`job catalogue: no handler for kind ${missing.join(', ')} on queue ${queue}; register one`);
  if (unknown.length)
    throw new Error(
      `job catalogue: handler for undeclared kind ${unknown.join(', ')} on queue ${queue}; ` +
        'declare it in src/server/jobs/catalogue.ts',
    );
}
