import { z } from 'zod';
import { linkField } from './common.js';

export const transcriptionRequest = z.object({ url: linkField });
export type TranscriptionRequest = z.infer<typeof transcriptionRequest>;

export const transcriptionSegmentSchema = z.object({
  id: z.number().int(),
  start: z.number(), // seconds
  end: z.number(),
  text: z.string(),
});

export const transcriptionEngineSchema = z.enum(['captions', 'api', 'offline']);

export const transcriptionResultSchema = z.object({
  title: z.string(),
  author: z.string(),
  fullText: z.string(),
  duration: z.number(),
  language: z.string(),
  segments: z.array(transcriptionSegmentSchema),
  /** Which engine made it: the video's own captions, a transcription API, or offline recognition. */
  engine: transcriptionEngineSchema,
});
export type TranscriptionResult = z.infer<typeof transcriptionResultSchema>;
export type TranscriptionSegment = z.infer<typeof transcriptionSegmentSchema>;
