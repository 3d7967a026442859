import { z } from 'zod';
import { linkField } from './common.js';
import { captionWordSchema } from './caption-studio.js';

export const transcriptionRequest = z.object({ url: linkField });
export type TranscriptionRequest = z.infer<typeof transcriptionRequest>;

export const transcriptionSegmentSchema = z.object({
  id: z.number().int(),
  start: z.number(), // seconds
  end: z.number(),
  text: z.string(),
  /** Issue 29: the segment's words with their times (engines that know them; absent in older results). */
  words: z.array(captionWordSchema).optional(),
});

export const transcriptionEngineSchema = z.enum(['captions', 'api', 'whisper', 'offline']);

export const transcriptionResultSchema = z.object({
  title: z.string(),
  author: z.string(),
  fullText: z.string(),
  duration: z.number(),
  language: z.string(),
  segments: z.array(transcriptionSegmentSchema),
  /** Which engine made it: the video's own captions, a transcription API, whisper.cpp here, or pocketsphinx. */
  engine: transcriptionEngineSchema,
});
export type TranscriptionResult = z.infer<typeof transcriptionResultSchema>;
export type TranscriptionSegment = z.infer<typeof transcriptionSegmentSchema>;
