// Repost kits (issue 47): POST /api/repost-kits/preview (the cards as they will look, nothing made or
// spent) and POST /api/repost-kits (the media job that makes the kit). Targets come from
// shared/platform-limits.ts, the one table of their limits.
import { z } from 'zod';
import { REPOST_TARGETS } from '../platform-limits.js';

export const repostTarget = z.enum(REPOST_TARGETS, {
  error: `Please choose targets among: ${REPOST_TARGETS.join(', ')}`,
});

/** The longest text a target allows (5,000) with room for the creator's edits before they are held to it. */
export const REPOST_TEXT_MAX = 10_000;

const source = {
  url: z.string().trim().min(1).max(2000).optional(),
  projectId: z.string().uuid('Unknown caption project').optional(),
};
const oneSource = (v: { url?: string; projectId?: string }) => Boolean(v.url) !== Boolean(v.projectId);
const ONE_SOURCE = 'Give either a link or a caption project, not both';

export const repostPreviewRequest = z
  .object({ ...source, targets: z.array(repostTarget).min(1, 'Tick at least one target').max(REPOST_TARGETS.length) })
  .refine(oneSource, ONE_SOURCE);
export type RepostPreviewRequest = z.input<typeof repostPreviewRequest>;

export const repostCard = z.object({
  target: repostTarget,
  text: z.string(),
  /** The separate title field, for a target that has one. */
  title: z.string().nullable(),
  hashtags: z.array(z.string()),
  /** What the kit will do to the video, or why this target cannot take it. */
  video: z.enum(['keep', 'remux', 'encode', 'refuse', 'unknown']),
  note: z.string().optional(),
});
export type RepostCard = z.infer<typeof repostCard>;

export const repostPreview = z.object({
  title: z.string(),
  author: z.string(),
  duration: z.number(),
  /** The credit line, null when the source is the creator's own upload. */
  credit: z.string().nullable(),
  /** True when this person may leave the credit out (their own uploaded project). */
  creditOptional: z.boolean(),
  /** A picture-free frame source for the cover scrubber (a signed link to the video), when one is kept. */
  videoUrl: z.string().nullable(),
  cards: z.array(repostCard),
});
export type RepostPreview = z.infer<typeof repostPreview>;

export const repostKitRequest = z
  .object({
    ...source,
    targets: z
      .array(repostTarget)
      .min(1, 'Tick at least one target')
      .max(REPOST_TARGETS.length)
      .transform((t) => [...new Set(t)]),
    burnCaptions: z.boolean().default(false),
    /** The cover's frame, in seconds from the start. */
    coverAt: z.number().min(0).max(36_000).default(0),
    /** Only the owner of an uploaded project may switch it off. */
    credit: z.boolean().default(true),
    /** The creator's edited texts per target (held to the target's rules by the server). */
    texts: z.partialRecord(repostTarget, z.string().max(REPOST_TEXT_MAX)).optional(),
  })
  .refine(oneSource, ONE_SOURCE);
export type RepostKitRequest = z.input<typeof repostKitRequest>;
export type RepostKitInput = z.output<typeof repostKitRequest>;

/** The kit job's payload (jobs/catalogue.ts): everything a node needs, as plain JSON. */
export interface RepostKitJob {
  kitId: string;
  userId: string;
  url?: string;
  projectId?: string;
  targets: Array<z.infer<typeof repostTarget>>;
  burnCaptions: boolean;
  coverAt: number;
  /** The texts as made or edited, already within each target's rules. */
  texts: Record<string, { text: string; title: string | null }>;
  /** The free quota's reserved slot, settled when the kit is made or fails. */
  reservation?: number;
}

export const repostKitResult = z.object({
  /** The signed link of the whole kit's ZIP. */
  url: z.string(),
  size: z.string(),
  expiresAt: z.string(),
});
