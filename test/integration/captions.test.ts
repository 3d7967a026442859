// Auto captions through the fake TikTok: the video's own WebVTT captions, an OpenAI-compatible API
// (fake server), and offline pocketsphinx on speech made with the flite voice (WER under 15%).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { startFakeTranscribeApi } from '../fakes/fake-openai-transcribe.js';
import { silentMp4, speechMp4, wordErrorRate } from '../fakes/media-samples.js';
import type { TranscriptionResult } from '../../src/shared/contracts/transcription.js';

const PASSAGES = [
  'Welcome to our cooking channel. Today we will make a simple tomato pasta with garlic, olive oil and fresh basil.',
  'The weather forecast for tomorrow shows heavy rain in the morning.',
  'Thank you for watching this video. Please like and subscribe.',
];

const VTT = `WEBVTT

00:00:00.200 --> 00:00:01.800
Hey everyone, welcome back

00:00:01.700 --> 00:00:02.900
to my <c>kitchen</c>
`;

function expectWellFormed(r: TranscriptionResult) {
  expect(r.segments.length).toBeGreaterThan(0);
  r.segments.forEach((s, i) => {
    expect(s.id).toBe(i + 1);
    expect(s.end).toBeGreaterThanOrEqual(s.start);
    expect(s.start).toBeGreaterThanOrEqual(0);
    expect(s.end).toBeLessThanOrEqual(r.duration + 0.001);
    if (i > 0) expect(s.start).toBeGreaterThanOrEqual(r.segments[i - 1].end);
  });
  expect(r.fullText).toBe(r.segments.map((s) => s.text).join(' '));
}

/** Issue 29: every segment carries its words, in order, inside the segment's times. */
function expectTimedWords(r: TranscriptionResult) {
  for (const s of r.segments) {
    const words = s.words ?? [];
    expect(words.length).toBeGreaterThan(0);
    words.forEach((w, i) => {
      expect(w.start).toBeGreaterThanOrEqual(s.start);
      expect(w.end).toBeLessThanOrEqual(s.end);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      if (i > 0) expect(w.start).toBeGreaterThanOrEqual(words[i - 1].start);
    });
  }
}

describe.each(DB_KINDS)('auto captions (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('is Pro only and validates the link', async () => {
    const free = await t.signUp();
    const gated = await free.post('/api/transcription/generate', { url: tt.addVideo().url });
    expect(gated.status).toBe(403);
    expect((await gated.json()).code).toBe('billing.pro_required');
    const empty = await pro.post('/api/transcription/generate', { url: '' });
    expect((await empty.json()).message).toBe('Please provide a valid TikTok or Bluesky or Reddit URL');
    const insta = await pro.post('/api/transcription/generate', { url: 'https://www.instagram.com/reel/Cabc123/' });
    expect(insta.status).toBe(400);
    expect(await insta.json()).toEqual({
      code: 'link.unsupported',
      message: 'Please provide a valid TikTok or Bluesky or Reddit URL',
      params: { variant: 'provide', platforms: 'TikTok or Bluesky or Reddit' },
    });
  });

  it("uses the video's own WebVTT captions when the page lists them, without downloading the video", async () => {
    const v = tt.addVideo({ desc: 'Kitchen vlog', subtitles: [{ lang: 'eng-US', vtt: VTT }], duration: 3 });
    const before = tt.transfers.filter((x) => x.path.includes('normal_540_0')).length;
    const res = await pro.post('/api/transcription/generate', { url: v.url });
    expect(res.status).toBe(200);
    const r = (await res.json()) as TranscriptionResult;
    expect(r).toMatchObject({
      engine: 'captions',
      language: 'en',
      title: 'Kitchen vlog',
      author: 'fakecreator',
      duration: 3,
    });
    expect(r.segments.map(({ words, ...s }) => s)).toEqual([
      { id: 1, start: 0.2, end: 1.7, text: 'Hey everyone, welcome back' },
      { id: 2, start: 1.7, end: 2.9, text: 'to my kitchen' },
    ]);
    expectWellFormed(r);
    // Cue times only in a caption file: the words are spread inside each cue, longer words longer.
    expectTimedWords(r);
    const second = r.segments[1].words ?? [];
    expect(second.map((w) => w.text)).toEqual(['to', 'my', 'kitchen']);
    const [to, , kitchen] = second;
    expect(kitchen.end - kitchen.start).toBeGreaterThan(to.end - to.start);
    expect(kitchen.end).toBe(2.9);
    expect(tt.transfers.filter((x) => x.path.includes('normal_540_0')).length).toBe(before);
  });

  it('transcribes spoken words offline with pocketsphinx (WER under 15%)', async () => {
    const v = tt.addVideo({ desc: 'Spoken clip', media: { file: speechMp4(PASSAGES) }, duration: 15 });
    const res = await pro.post('/api/transcription/generate', { url: v.url });
    expect(res.status).toBe(200);
    const r = (await res.json()) as TranscriptionResult;
    expect(r.engine).toBe('offline');
    expect(r.language).toBe('en');
    expectWellFormed(r);
    const wer = wordErrorRate(PASSAGES.join(' '), r.fullText);
    expect(wer).toBeLessThan(0.15);
    // The recogniser's own word times: one word per recognised word, spoken over real time.
    expectTimedWords(r);
    for (const s of r.segments) expect((s.words ?? []).map((w) => w.text).join(' ')).toBe(s.text);
    expect(r.segments.length).toBeGreaterThanOrEqual(3); // the pauses split the passages
  }, 120_000);

  it('answers no_speech for a silent video', async () => {
    const v = tt.addVideo({ media: { file: silentMp4(3) }, duration: 3 });
    const res = await pro.post('/api/transcription/generate', { url: v.url });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      code: 'transcription.no_speech',
      message: 'No speech was found in this video.',
    });
  });
});

describe('auto captions with an OpenAI-compatible API', () => {
  let tt: FakeTikTok;
  let t: TestApp;
  let api: Awaited<ReturnType<typeof startFakeTranscribeApi>>;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    api = await startFakeTranscribeApi({
      apiKey: 'sk-test',
      sentences: ['Hello and welcome.', 'This is the second sentence.', 'Goodbye.'],
    });
    t = await createTestApp({
      env: {
        UPSTREAM_HOST_MAP: tt.hostMapJson,
        TRANSCRIBE_API_URL: api.url,
        TRANSCRIBE_API_KEY: 'sk-test',
        TRANSCRIBE_MODEL: 'whisper-large-v3',
      },
    });
    pro = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
    await api.close();
  });

  it('uploads the sound and maps verbose_json segments', async () => {
    const v = tt.addVideo({ media: { file: speechMp4(PASSAGES.slice(0, 1)) }, duration: 7 });
    const res = await pro.post('/api/transcription/generate', { url: v.url });
    expect(res.status).toBe(200);
    const r = (await res.json()) as TranscriptionResult;
    expect(r.engine).toBe('api');
    expect(r.language).toBe('en');
    expect(r.segments.map((s) => s.text)).toEqual(['Hello and welcome.', 'This is the second sentence.', 'Goodbye.']);
    expectWellFormed(r);
    const call = api.calls.at(-1)!;
    expect(call).toMatchObject({
      model: 'whisper-large-v3',
      responseFormat: 'verbose_json',
      granularities: ['segment', 'word'],
    });
    // Words from the answer's `words[]`, each in the segment it was spoken in.
    expectTimedWords(r);
    expect(r.segments.map((s) => (s.words ?? []).map((w) => w.text).join(' '))).toEqual([
      'Hello and welcome',
      'This is the second sentence',
      'Goodbye',
    ]);
    expect(Math.abs(call.audioDuration - r.duration)).toBeLessThan(0.2);

    // A second request for the same video reuses the stored transcript: no new upload.
    const calls = api.calls.length;
    const again = await pro.post('/api/transcription/generate', { url: v.url });
    expect(await again.json()).toEqual(r);
    expect(api.calls.length).toBe(calls);
  });

  it('still prefers the video captions over the API', async () => {
    const v = tt.addVideo({ subtitles: [{ lang: 'eng-US', vtt: VTT }], duration: 3 });
    const calls = api.calls.length;
    const r = await (await pro.post('/api/transcription/generate', { url: v.url })).json();
    expect(r.engine).toBe('captions');
    expect(api.calls.length).toBe(calls);
  });

  it('falls back to offline recognition when the API fails', async () => {
    api.failNext(500);
    const v = tt.addVideo({ media: { file: speechMp4(PASSAGES.slice(2)) }, duration: 5 });
    const res = await pro.post('/api/transcription/generate', { url: v.url });
    expect(res.status).toBe(200);
    const r = await res.json();
    expect(r.engine).toBe('offline');
    expect(wordErrorRate(PASSAGES[2], r.fullText)).toBeLessThan(0.15);
  }, 60_000);
});

describe('auto captions with no engine available', () => {
  it('tells the creator captions are unavailable here; setup goes to the log and the admin status', async () => {
    const tt = await startFakeTikTok();
    const warnings: string[] = [];
    const t = await createTestApp({
      env: {
        UPSTREAM_HOST_MAP: tt.hostMapJson,
        POCKETSPHINX_MODEL_DIR: '/nonexistent/model',
        ADMIN_EMAILS: 'boss@example.com',
      },
    });
    const log = t.ctx.logger as unknown as { warn: (...a: unknown[]) => void };
    const original = log.warn.bind(log);
    log.warn = (...a: unknown[]) => {
      warnings.push(a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' '));
      original(...a);
    };
    try {
      const pro = await t.signUp({ pro: true });
      const res = await pro.post('/api/transcription/generate', { url: tt.addVideo().url });
      expect(res.status).toBe(503);
      const body = await res.json();
      expect(body.code).toBe('transcription.unavailable');
      expect(body.message).toBe(
        "Captions are unavailable on this server for this video: it has no captions of its own, and speech recognition isn't set up here.",
      );
      expect(body.message).not.toMatch(/apt-get|TRANSCRIBE_API_URL/);
      expect(warnings.join('\n')).toContain('apt-get install -y pocketsphinx pocketsphinx-en-us');
      expect(warnings.join('\n')).toContain('TRANSCRIBE_API_URL');

      // The admin-only status carries the same hints; anyone else is refused.
      expect((await pro.get('/api/admin/status')).status).toBe(403);
      const admin = await t.signUp({ email: 'boss@example.com' });
      await t.ctx.services.admin.run({ command: 'user:grant-admin', email: 'boss@example.com' }); // decision 0008
      const status = await (await admin.get('/api/admin/status')).json();
      const offline = status.transcription.find((e: { id: string }) => e.id === 'offline');
      expect(offline).toEqual({ id: 'offline', available: false, hint: expect.stringContaining('apt-get install') });
    } finally {
      await t.close();
      await tt.close();
    }
  });
});
