// Engine 1: the captions the platform itself lists for the video (WebVTT). Cheapest and usually best.
import { type RawCue, spreadWords, webVttCues } from '../../../shared/captions.js';
import { languageCode, type SubtitleTrack, type TranscriptionEngine } from './types.js';

/** How long reading a captions file holds the event loop before letting other work run. */
const SLICE_MS = 8;
/**
 * More than any real captions file holds (two hours of speech at a cue a second); the file is read
 * no further. Every cue and word costs again downstream (merging, checking, storing, answering), so
 * a 2 MB file of tiny cues from another server must not become 100,000 of them (issue 42).
 */
export const MAX_CAPTION_CUES = 10_000;
export const MAX_CAPTION_WORDS = 20_000;

// Creator captions beat automatic ones; machine translations come last.
const SOURCE_RANK: Record<string, number> = { LC: 0, ASR: 1, MT: 3 };

/** The best WebVTT track: original (not translated) first, then English, then the first listed. */
export function pickSubtitleTrack(tracks: SubtitleTrack[], preferred = 'en'): SubtitleTrack | null {
  const vtt = tracks.filter((t) => t.url && /^webvtt$/i.test(t.format));
  if (!vtt.length) return null;
  const score = (t: SubtitleTrack) =>
    (SOURCE_RANK[(t.source ?? '').toUpperCase()] ?? 2) * 10 + (languageCode(t.language) === preferred ? 0 : 1);
  return vtt.map((t, i) => ({ t, i, s: score(t) })).sort((a, b) => a.s - b.s || a.i - b.i)[0].t;
}

export function createCaptionsEngine(): TranscriptionEngine {
  return {
    id: 'captions',
    local: false,
    unavailableReason: () => null,
    async transcribe(input) {
      const track = pickSubtitleTrack(input.subtitles);
      if (!track) return null;
      const cues: RawCue[] = [];
      try {
        const file = await input.fetchText(track.url, input.signal);
        // A captions file comes from another server and may be up to 2 MB of cues: read in slices
        // of a few milliseconds so other requests (and /api/health) are answered in between.
        let slice = performance.now();
        let words = 0;
        for (const cue of webVttCues(file)) {
          words += cue.text.split(' ').length; // a cue's text comes with single spaces
          if (cues.length === MAX_CAPTION_CUES || words > MAX_CAPTION_WORDS) break;
          // A caption file times cues only: word times are spread inside each cue (issue 29).
          cues.push({ ...cue, words: spreadWords(cue) });
          if (performance.now() - slice > SLICE_MS) {
            await new Promise((r) => setImmediate(r));
            input.signal?.throwIfAborted();
            slice = performance.now();
          }
        }
      } catch (err) {
        if (input.signal?.aborted) throw err;
        return null; // a broken or expired caption link: fall through to the next engine
      }
      if (!cues.length) return null;
      return { language: languageCode(track.language), cues };
    },
  };
}
