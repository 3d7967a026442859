// POST /api/ai/hashtags (Pro): decision 0092 'Hashtags input' and 'Tool results'.
import { z } from 'zod';

/** Empty or whitespace-only optional text is treated as absent (the screen omits it too). */
const optionalText = (max: number, label: string) =>
  z
    .string()
    .max(max, `${label} is too long (max ${max.toLocaleString('en-US')} characters)`)
    .optional()
    .transform((v) => (v && v.trim() !== '' ? v.trim() : undefined));

// Decision 0092 'Hashtags input' wording (the screen shows the same text as a toast).
export const TITLE_REQUIRED = 'Video title required - Please enter a video title to generate hashtags';
export const HASHTAG_TITLE_MAX = 300;
export const HASHTAG_DESCRIPTION_MAX = 5000;
export const HASHTAG_NICHE_MAX = 100;

export const hashtagRequest = z.object({
  videoTitle: z
    .string({ error: TITLE_REQUIRED })
    .trim()
    .min(1, TITLE_REQUIRED)
    .max(HASHTAG_TITLE_MAX, `Video title is too long (max ${HASHTAG_TITLE_MAX} characters)`),
  videoDescription: optionalText(HASHTAG_DESCRIPTION_MAX, 'Description'),
  niche: optionalText(HASHTAG_NICHE_MAX, 'Niche'),
  // The screen always sends 'social media'; kept free-form so older clients keep working.
  platform: z.string().max(50).optional(),
});
export type HashtagRequest = z.input<typeof hashtagRequest>;
export type HashtagInput = z.output<typeof hashtagRequest>;

export const engineSource = z.enum(['builtin', 'llm']);
export type EngineSource = z.infer<typeof engineSource>;

export const hashtagResponse = z.object({
  trending: z.array(z.string()),
  niche: z.array(z.string()),
  mixed: z.array(z.string()),
  tips: z.array(z.string()),
  /** Which engine answered: the built-in one or the configured language model. */
  source: engineSource,
});
export type HashtagResult = z.infer<typeof hashtagResponse>;
