import { describe, expect, it } from 'vitest';
import {
  mp3Args,
  NO_AUDIO_STDERR,
  parseProgressTime,
  parseSilences,
  speechSpans,
  speechWavArgs,
} from '../../src/server/adapters/media/ffmpeg-args.js';
import { controlEntries, controlFile, parseHypseg, wordsToCues } from '../../src/server/adapters/asr/pocketsphinx.js';
import { pickSubtitleTrack } from '../../src/server/adapters/asr/captions-engine.js';
import { languageCode } from '../../src/server/adapters/asr/types.js';
import { transcriptionEndpoint } from '../../src/server/adapters/asr/openai-engine.js';
import { createWorkerPool } from '../../src/server/adapters/media/worker-pool.js';
import { parseRange } from '../../src/server/services/media-results.service.js';
import { signMediaLink, verifyMediaLink } from '../../src/server/adapters/storage/signed-links.js';
import { assertSafeKey } from '../../src/server/adapters/storage/media-store.js';
import { whichSync } from '../../src/server/adapters/media/binaries.js';
import { AppError } from '../../src/server/errors.js';

describe('ffmpeg argument builders', () => {
  it('always passes -xerror and encodes MP3 at 192k from the first audio stream, file to file', () => {
    const a = mp3Args('/tmp/in.mp4', '/tmp/out.mp3');
    expect(a).toContain('-xerror');
    expect(a.slice(a.indexOf('-i'), a.indexOf('-i') + 2)).toEqual(['-i', '/tmp/in.mp4']);
    expect(a.slice(a.indexOf('-c:a'), a.indexOf('-c:a') + 4)).toEqual(['-c:a', 'libmp3lame', '-b:a', '192k']);
    expect(a.slice(a.indexOf('-map'), a.indexOf('-map') + 2)).toEqual(['-map', '0:a:0']);
    expect(a.at(-1)).toBe('/tmp/out.mp3');
    expect(a).not.toContain('pipe:0');
  });
  it('reads the output time from -progress and spots a missing audio stream', () => {
    expect(
      parseProgressTime(
        'out_time_us=1000\nout_time=00:00:01.000000\nprogress=continue\nout_time=00:01:00.034000\nprogress=end\n',
      ),
    ).toBeCloseTo(60.034);
    expect(parseProgressTime('out_time=-577014:32:22.775808\nprogress=end')).toBe(0);
    expect(parseProgressTime('')).toBe(0);
    expect(mp3Args('a', 'b')).toEqual(expect.arrayContaining(['-progress', 'pipe:1', '-nostats']));
    expect(NO_AUDIO_STDERR.test("Stream map '0:a:0' matches no streams.")).toBe(true);
  });
  it('makes 16 kHz mono PCM with silencedetect for speech', () => {
    const a = speechWavArgs('in', 'out.wav');
    expect(a).toEqual(
      expect.arrayContaining(['-xerror', '-ac', '1', '-ar', '16000', 'pcm_s16le', 'silencedetect=noise=-35dB:d=0.3']),
    );
  });
});

describe('silence and speech spans', () => {
  const stderr = [
    '[silencedetect @ 0x1] silence_start: -0.01',
    '[silencedetect @ 0x1] silence_end: 0.5 | silence_duration: 0.51',
    '[silencedetect @ 0x1] silence_start: 3.2',
    '[silencedetect @ 0x1] silence_end: 4.1 | silence_duration: 0.9',
    '[silencedetect @ 0x1] silence_start: 9.5',
  ].join('\n');
  it('parses spans, closing an open one at the end', () => {
    expect(parseSilences(stderr, 10)).toEqual([
      { start: 0, end: 0.5 },
      { start: 3.2, end: 4.1 },
      { start: 9.5, end: 10 },
    ]);
  });
  it('pads speech between silences and clips it to the file', () => {
    const spans = speechSpans(parseSilences(stderr, 10), 10);
    expect(spans.map((s) => [Number(s.start.toFixed(2)), Number(s.end.toFixed(2))])).toEqual([
      [0.4, 3.3],
      [4.0, 9.6],
    ]);
    expect(speechSpans([{ start: 0, end: 5 }], 5)).toEqual([]);
  });
});

describe('pocketsphinx batch', () => {
  it('cuts long spans and writes one control line each', () => {
    const e = controlEntries([
      { start: 1, end: 2.5 },
      { start: 3, end: 60 },
    ]);
    expect(e[0]).toEqual({ id: 'u0', startFrame: 100, endFrame: 250 });
    expect(e.length).toBe(4);
    expect(e.every((x) => x.endFrame - x.startFrame <= 2500)).toBe(true);
    expect(controlFile('speech', e.slice(0, 1))).toBe('speech 100 250 u0\n');
  });
  it('reads hypseg words with absolute times, dropping fillers and alternate-pronunciation marks', () => {
    const line =
      'u1 S 0 T -1 A -1 L -1 0 -1 0 <s> 19 -9 -5 welcome 62 -3 -3 to(3) 77 -5 -2 our(2) 105 -4 -1 ' +
      '<sil> 130 -1 -1 cooking 160 -1 -1 </s> 200';
    const words = parseHypseg(line, [{ id: 'u1', startFrame: 1000, endFrame: 1200 }]);
    expect(words).toEqual([
      { word: 'welcome', start: 10.19, end: 10.62 },
      { word: 'to', start: 10.62, end: 10.77 },
      { word: 'our', start: 10.77, end: 11.05 },
      { word: 'cooking', start: 11.3, end: 11.6 },
    ]);
    const cues = wordsToCues(words);
    expect(cues).toEqual([
      {
        start: 10.19,
        end: 11.05,
        text: 'welcome to our',
        words: [
          { text: 'welcome', start: 10.19, end: 10.62 },
          { text: 'to', start: 10.62, end: 10.77 },
          { text: 'our', start: 10.77, end: 11.05 },
        ],
      },
      { start: 11.3, end: 11.6, text: 'cooking', words: [{ text: 'cooking', start: 11.3, end: 11.6 }] },
    ]);
  });
  it('splits a long run of words at the maximum cue length', () => {
    const words = Array.from({ length: 40 }, (_, i) => ({ word: `w${i}`, start: i * 0.5, end: i * 0.5 + 0.45 }));
    const cues = wordsToCues(words, { maxLen: 8 });
    expect(cues.length).toBeGreaterThan(2);
    expect(cues.every((c) => c.end - c.start <= 8)).toBe(true);
  });
});

describe('caption track choice and languages', () => {
  const t = (language: string, source: string, format = 'webvtt') => ({
    url: `https://x/${language}-${source}`,
    language,
    source,
    format,
  });
  it('prefers original captions, then English, and skips non-WebVTT', () => {
    expect(pickSubtitleTrack([t('eng-US', 'MT'), t('spa-ES', 'ASR')])?.language).toBe('spa-ES');
    expect(pickSubtitleTrack([t('fra-FR', 'ASR'), t('eng-US', 'ASR')])?.language).toBe('eng-US');
    expect(pickSubtitleTrack([t('eng-US', 'ASR'), t('eng-US', 'LC')])?.source).toBe('LC');
    expect(pickSubtitleTrack([t('eng-US', 'LC', 'creator_caption')])).toBeNull();
  });
  it('maps language labels to short codes', () => {
    expect(languageCode('eng-US')).toBe('en');
    expect(languageCode('English')).toBe('en');
    expect(languageCode('pt-BR')).toBe('pt');
    expect(languageCode(undefined)).toBe('und');
  });
  it('finds the transcription endpoint from a base, a /v1 base or the full path', () => {
    expect(transcriptionEndpoint('https://api.openai.com')).toBe('https://api.openai.com/v1/audio/transcriptions');
    expect(transcriptionEndpoint('https://api.groq.com/openai/v1/')).toBe(
      'https://api.groq.com/openai/v1/audio/transcriptions',
    );
    expect(transcriptionEndpoint('http://h:8080/v1/audio/transcriptions')).toBe(
      'http://h:8080/v1/audio/transcriptions',
    );
  });
});

describe('worker pool', () => {
  it('runs at most `concurrency` jobs, queues up to the limit, then answers 503 media.busy with Retry-After', async () => {
    const pool = createWorkerPool({ concurrency: 2, maxQueue: 1, retryAfterSeconds: 7 });
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const job = () =>
      new Promise<number>((resolve) => {
        running++;
        peak = Math.max(peak, running);
        releases.push(() => {
          running--;
          resolve(1);
        });
      });
    const a = pool.run(job);
    const b = pool.run(job);
    const c = pool.run(job);
    const d = pool.run(job).catch((e) => e);
    const err = await d;
    expect(err).toBeInstanceOf(AppError);
    expect(err.status).toBe(503);
    expect(err.code).toBe('media.busy');
    expect(err.headers['retry-after']).toBe('7');
    expect(pool.stats()).toMatchObject({ running: 2, queued: 1 });
    releases.shift()!();
    await a;
    await new Promise((r) => setImmediate(r));
    expect(pool.stats()).toMatchObject({ running: 2, queued: 0 });
    for (const r of releases.splice(0)) r();
    await b;
    await new Promise((r) => setImmediate(r));
    for (const r of releases.splice(0)) r();
    expect(await c).toBe(1);
    expect(peak).toBe(2);
  });
  it('drops a queued job whose client went away', async () => {
    const pool = createWorkerPool({ concurrency: 1, maxQueue: 5 });
    let release!: () => void;
    const first = pool.run(() => new Promise<void>((r) => (release = r)));
    const ac = new AbortController();
    let started = false;
    const second = pool
      .run(async () => {
        started = true;
      }, ac.signal)
      .catch((e) => e);
    ac.abort();
    expect((await second).code).toBe('request.aborted');
    release();
    await first;
    expect(started).toBe(false);
    expect(pool.stats().queued).toBe(0);
  });
});

describe('signed links, ranges and keys', () => {
  it('verifies a link only with the right key, expiry and secret', () => {
    const link = signMediaLink('s3cret', 'audio/abc.mp3', 2000);
    const sig = new URL(link, 'http://x').searchParams.get('sig')!;
    expect(link.startsWith('/api/media/audio/abc.mp3?exp=2000&sig=')).toBe(true);
    expect(verifyMediaLink('s3cret', 'audio/abc.mp3', 2000, sig, 1000)).toBe('ok');
    expect(verifyMediaLink('s3cret', 'audio/abc.mp3', 2000, sig, 2001)).toBe('expired');
    expect(verifyMediaLink('s3cret', 'audio/abd.mp3', 2000, sig, 1000)).toBe('invalid');
    expect(verifyMediaLink('s3cret', 'audio/abc.mp3', 3000, sig, 1000)).toBe('invalid');
    expect(verifyMediaLink('other', 'audio/abc.mp3', 2000, sig, 1000)).toBe('invalid');
  });
  it('parses single byte ranges', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
  });
  it('refuses storage keys that could leave the store', () => {
    expect(() => assertSafeKey('../etc/passwd')).toThrow();
    expect(() => assertSafeKey('audio/../../x')).toThrow();
    expect(() => assertSafeKey('/abs')).toThrow();
    expect(() => assertSafeKey('audio/0a1b.mp3')).not.toThrow();
  });
  it('finds executables on PATH', () => {
    expect(whichSync('ffmpeg', '/nonexistent:/usr/bin')).toBe('/usr/bin/ffmpeg');
    expect(whichSync('ffmpeg', '/nonexistent')).toBeNull();
  });
});
