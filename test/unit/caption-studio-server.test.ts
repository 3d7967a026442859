// Pure parts of the caption studio's server half (issue 29): word times spread over a cue, API
// words placed in their segments, transcript -> editor lines, the burn-in's ffmpeg arguments and
// progress, and the first-bytes check of an upload.
import { describe, expect, it } from 'vitest';
import { normalizeSegments, spreadWords } from '../../src/shared/captions.js';
import { apiWords, wordsIntoSegments } from '../../src/server/adapters/asr/openai-engine.js';
import { linesFromTranscript } from '../../src/server/services/caption-studio/caption-projects.service.js';
import { burnArgs, progressPercent, videoProbeFrom } from '../../src/server/adapters/media/caption-burn.js';
import { looksLikeVideo } from '../../src/server/adapters/media/upload-check.js';
import { STUDIO_LIMITS } from '../../src/shared/contracts/caption-studio.js';

describe('word times', () => {
  it('spreads a cue over its words by length, ending where the cue ends', () => {
    const words = spreadWords({ start: 1, end: 3, text: 'a kitchen' });
    expect(words.map((w) => w.text)).toEqual(['a', 'kitchen']);
    expect(words[0].start).toBe(1);
    expect(words[1].end).toBe(3);
    expect(words[1].end - words[1].start).toBeGreaterThan(words[0].end - words[0].start);
  });
  it('keeps words inside their segment when segments are cut, and bounds a huge word', () => {
    const segs = normalizeSegments(
      [
        {
          start: 0,
          end: 2,
          text: 'one two',
          words: [
            { text: 'one', start: 0, end: 1 },
            { text: 'two', start: 1, end: 2 },
          ],
        },
        { start: 1.5, end: 3, text: 'x'.repeat(10_000), words: [{ text: 'x'.repeat(10_000), start: 1.5, end: 3 }] },
      ],
      0,
    );
    expect(segs[0].end).toBe(1.5);
    expect(segs[0].words?.[1]).toEqual({ text: 'two', start: 1, end: 1.5 });
    expect(segs[1].words?.[0].text.length).toBe(STUDIO_LIMITS.wordChars);
  });
  it('places API words in the segment they were spoken in, with the probability as confidence', () => {
    const words = apiWords({
      words: [
        { word: ' Hello', start: 0, end: 0.4, probability: 0.9 },
        { word: 'bad', start: Number.NaN, end: 1 },
        { word: 'again', start: 2.1, end: 2.5 },
      ],
    });
    expect(words).toEqual([
      { text: 'Hello', start: 0, end: 0.4, confidence: 0.9 },
      { text: 'again', start: 2.1, end: 2.5 },
    ]);
    const segs = wordsIntoSegments(
      [
        { start: 0, end: 2, text: 'Hello' },
        { start: 2, end: 3, text: 'again' },
      ],
      words,
    );
    expect(segs.map((s) => s.words?.map((w) => w.text))).toEqual([['Hello'], ['again']]);
  });
  it('cuts a transcript into subtitle-shaped editor lines, spreading words where a segment has none', () => {
    const many = Array.from({ length: 100 }, (_, i) => ({ text: `w${i}`, start: i / 10, end: (i + 1) / 10 }));
    const lines = linesFromTranscript({
      segments: [
        { id: 1, start: 0, end: 10, text: many.map((w) => w.text).join(' '), words: many },
        { id: 2, start: 10, end: 12, text: 'no word times' },
      ],
    });
    // 100 words in 10 s: two rows of at most 42 characters each line (was 40, 40, 20 words before issue 36).
    expect(lines.map((l) => l.words.length)).toEqual([23, 20, 20, 20, 17, 3]);
    expect(lines[5].words[2]).toMatchObject({ text: 'times', end: 12 });
    expect(new Set(lines.map((l) => l.id)).size).toBe(6);
  });
});

describe('burn-in arguments', () => {
  const base = { input: '/t/in.mp4', ass: '/t/c.ass', fontsDir: '/t/fonts', output: '/t/out.mp4' };
  it('burns with libass at the source size, copying the sound and reporting progress', () => {
    const args = burnArgs({ ...base, width: 1080, height: 1920, audioCodec: 'aac' }).join(' ');
    expect(args).toContain('-vf ass=filename=/t/c.ass:fontsdir=/t/fonts -c:v libx264');
    expect(args).toContain('-c:a copy');
    expect(args).toContain('-progress pipe:1');
    expect(args).not.toContain('pad=');
  });
  it('pads an odd side by one pixel, encodes Vorbis to AAC, and maps no sound when there is none', () => {
    expect(burnArgs({ ...base, width: 721, height: 1280, audioCodec: 'vorbis' }).join(' ')).toMatch(
      /pad=ceil\(iw\/2\)\*2:ceil\(ih\/2\)\*2.*-c:a aac/,
    );
    expect(burnArgs({ ...base, width: 720, height: 1280, audioCodec: null })).not.toContain('0:a:0');
  });
  it('refuses a path that could break out of the filter argument', () => {
    expect(() => burnArgs({ ...base, ass: "/t/x':y.ass", width: 2, height: 2, audioCodec: null })).toThrow();
  });
  it('reads the percent from the latest out_time_us, capped at 100', () => {
    expect(progressPercent('frame=1\nout_time_us=1500000\nprogress=continue\n', 3)).toBe(50);
    expect(progressPercent('out_time_us=9000000\n', 3)).toBe(100);
    expect(progressPercent('frame=1\n', 3)).toBeNull();
  });
  it('probes the frame size and the sound codec; no video stream is not a video', () => {
    const streams = [
      { codec_type: 'video', codec_name: 'h264', width: 1080, height: 1920 },
      { codec_type: 'audio', codec_name: 'aac' },
    ];
    expect(videoProbeFrom({ format: { duration: '12.5', format_name: 'mov,mp4' }, streams })).toMatchObject({
      width: 1080,
      height: 1920,
      duration: 12.5,
      audioCodec: 'aac',
    });
    expect(videoProbeFrom({ streams: [{ codec_type: 'audio', codec_name: 'mp3' }] })).toBeNull();
  });
});

describe('upload first bytes', () => {
  it('knows MP4, MOV and WebM openings and nothing else', () => {
    expect(looksLikeVideo(Buffer.from('\0\0\0\x20ftypisom', 'latin1'))).toBe(true);
    expect(looksLikeVideo(Buffer.from('\0\0\0\x08wide\0\0', 'latin1'))).toBe(true);
    expect(looksLikeVideo(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 1, 0, 0, 0]))).toBe(true);
    expect(looksLikeVideo(Buffer.from('%PDF-1.7 hello'))).toBe(false);
    expect(looksLikeVideo(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'))).toBe(false);
    expect(looksLikeVideo(Buffer.alloc(0))).toBe(false);
  });
});
