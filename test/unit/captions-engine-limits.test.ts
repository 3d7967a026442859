// The captions engine keeps at most MAX_CAPTION_CUES cues and MAX_CAPTION_WORDS words of a captions
// file from another server (issue 42): past them every cue and word would cost again downstream.
import { describe, expect, it } from 'vitest';
import {
  createCaptionsEngine,
  MAX_CAPTION_CUES,
  MAX_CAPTION_WORDS,
} from '../../src/server/adapters/asr/captions-engine.js';
import type { TranscriptionInput } from '../../src/server/adapters/asr/types.js';

const two = (n: number) => String(n).padStart(2, '0');
const clock = (s: number) => `${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}.000`;
const vtt = (cues: number, text: string) =>
  `WEBVTT\n\n${Array.from({ length: cues }, (_, i) => `${clock(i)} --> ${clock(i + 1)}\n${text}\n`).join('\n')}`;

function input(file: string): TranscriptionInput {
  return {
    subtitles: [{ url: 'https://pds.example/captions.vtt', language: 'en', format: 'webvtt' }],
    fetchText: async () => file,
    mediaFile: async () => {
      throw new Error('not used');
    },
    duration: 0,
    workDir: '',
  };
}

describe('the captions engine on a captions file from another server', () => {
  it('keeps every cue of a file within the limits, with its words', async () => {
    const out = await createCaptionsEngine().transcribe(input(vtt(3_000, 'one two')));
    expect(out?.cues.length).toBe(3_000);
    expect(out?.cues[2_999]).toMatchObject({ start: 2_999, end: 3_000, text: 'one two' });
    expect(out?.cues[2_999].words?.map((w) => w.text)).toEqual(['one', 'two']);
  });

  it(`stops at ${MAX_CAPTION_CUES} cues`, async () => {
    const out = await createCaptionsEngine().transcribe(input(vtt(MAX_CAPTION_CUES + 500, 'a')));
    expect(out?.cues.length).toBe(MAX_CAPTION_CUES);
  });

  it(`stops before the cue that would pass ${MAX_CAPTION_WORDS} words`, async () => {
    const out = await createCaptionsEngine().transcribe(input(vtt(MAX_CAPTION_WORDS, 'a b c')));
    expect(out?.cues.length).toBe(Math.floor(MAX_CAPTION_WORDS / 3));
    expect(out?.cues.flatMap((c) => c.words ?? []).length).toBeLessThanOrEqual(MAX_CAPTION_WORDS);
  });
});
