// The language-model engines against a fake OpenAI-compatible server on 127.0.0.1: a good answer
// is validated and cleaned; broken JSON, a timeout, a refusal and a 500 fall back to the
// built-in engine. Runs on both databases (sign-up and observed hashtags are SQL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeOpenAiChat } from '../fakes/fake-openai-chat.js';
import { videoObservations } from '../../src/server/db/schema.js';

const VALID = /^#[\p{L}\p{M}\p{N}_]+$/u;

describe.each(DB_KINDS)('language model engines (%s)', (db) => {
  let t: TestApp;
  let llm: Awaited<ReturnType<typeof startFakeOpenAiChat>>;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  beforeAll(async () => {
    llm = await startFakeOpenAiChat({ apiKey: 'sk-test-key', delayMs: 3000 });
    t = await createTestApp({
      db,
      env: { LLM_BASE_URL: `${llm.url}/v1`, LLM_API_KEY: 'sk-test-key', LLM_MODEL: 'gpt-test', LLM_TIMEOUT_MS: '400' },
    });
    pro = await t.signUp({ pro: true });
    await t.ctx.db.insert(videoObservations).values([
      { videoId: '7600000000000000001', hashtags: ['sourdoughtok', 'bread'] },
      { videoId: '7600000000000000002', hashtags: ['sourdoughtok'] },
    ]);
    t.ctx.services.hashtags.refreshObserved();
  });
  afterAll(async () => {
    await t?.close();
    await llm?.close();
  });

  const ask = () =>
    pro.post('/api/ai/hashtags', { videoTitle: 'Sourdough bread for beginners', platform: 'social media' });
  const optimize = () =>
    pro.post('/api/content/optimize', {
      content: 'My first sourdough loaf. It took three days but it was worth it!',
      platforms: ['tiktok', 'youtube'],
    });

  it('uses a good model answer for hashtags, validated and cleaned', async () => {
    llm.mode = 'good';
    const before = llm.calls.length;
    const res = await ask();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toBe('llm');
    const call = llm.calls[before];
    expect(call.model).toBe('gpt-test');
    expect(call.responseFormat).toEqual({ type: 'json_object' });
    expect(JSON.parse(call.user)).toMatchObject({
      videoTitle: 'Sourdough bread for beginners',
      observedTrendingHashtags: ['#sourdoughtok', '#bread'],
    });
    // The model's duplicates, spaces and missing '#' are fixed; niche comes from the model.
    expect(body.niche.slice(0, 4)).toEqual(['#sourdough', '#bread', '#beginners', '#sourdoughlovers']);
    expect(body.niche).toContain('#sourdoughtips');
    for (const list of [body.trending, body.niche, body.mixed]) {
      expect(list.every((tag: string) => VALID.test(tag))).toBe(true);
      expect(new Set(list).size).toBe(list.length);
    }
    // Trending keeps only hashtags the product has seen: the invented one is dropped.
    expect(body.trending.slice(0, 2)).toEqual(['#sourdoughtok', '#bread']);
    expect(body.trending).not.toContain('#madeuptrend');
    expect(body.mixed).toEqual(['#fyp', '#sourdough', '#bread', '#beginners', '#viral']);
    // Model tips that claim numbers are dropped; ours stay first.
    expect(body.tips[0]).toMatch(/5 hashtags per post/);
    expect(body.tips).toContain('Reply to comments in the first hour.');
    expect(body.tips.join(' ')).not.toMatch(/2\.5M views/);
    expect(body.tips.at(-1)).toMatch(/suggestions from an AI model/);
  });

  it('uses a good model answer for captions, within every limit', async () => {
    llm.mode = 'good';
    const res = await optimize();
    const body = await res.json();
    expect(body.source).toBe('llm');
    const [tiktok, youtube] = body.platforms;
    expect(tiktok.platform).toBe('tiktok');
    expect(
      tiktok.optimizedCaption.startsWith('My first sourdough loaf.\n\nIt took three days but it was worth it!'),
    ).toBe(true);
    // The inline tag moved to the hashtag line; duplicates dropped; 5 at most on TikTok, 3 on YouTube.
    expect(tiktok.hashtags).toEqual(['#inlinetag', '#one', '#two', '#three', '#four']);
    expect(tiktok.optimizedCaption.endsWith('\n\n#inlinetag #one #two #three #four')).toBe(true);
    expect(youtube.hashtags).toEqual(['#inlinetag', '#one', '#two']);
    expect(tiktok.bestPostingTimes).toContain('Tuesday 4–6 pm');
    expect(tiktok.characterLimit).toBe(2200);
    expect(tiktok.tips).toContain('Hook your tiktok viewers in the first second.');
    expect(tiktok.tips.some((tip: string) => /AI suggestion/.test(tip))).toBe(true);
  });

  it('asks again without JSON mode when the server refuses response_format', async () => {
    llm.mode = 'no-json-mode';
    const before = llm.calls.length;
    const body = await (await ask()).json();
    expect(body.source).toBe('llm');
    expect(llm.calls.slice(before).map((c) => c.responseFormat)).toEqual([{ type: 'json_object' }, undefined]);
  });

  it.each([
    ['broken', 'broken JSON'],
    ['refusal', 'a refusal'],
    ['error', 'an HTTP 500'],
  ] as const)('falls back to the built-in engine on %s (%s)', async (mode, _label) => {
    llm.mode = mode;
    const before = llm.calls.length;
    const tags = await ask();
    expect(tags.status).toBe(200);
    const tagBody = await tags.json();
    expect(tagBody.source).toBe('builtin');
    expect(tagBody.mixed).toHaveLength(5);
    expect(tagBody.trending[0]).toBe('#sourdoughtok');
    const captions = await optimize();
    expect(captions.status).toBe(200);
    const capBody = await captions.json();
    expect(capBody.source).toBe('builtin');
    expect(capBody.platforms.map((p: { platform: string }) => p.platform)).toEqual(['tiktok', 'youtube']);
    expect(llm.calls.length).toBe(before + 2);
  });

  it('falls back when the model is late, within the configured timeout', async () => {
    llm.mode = 'timeout';
    const started = Date.now();
    const res = await ask();
    const elapsed = Date.now() - started;
    expect(res.status).toBe(200);
    expect((await res.json()).source).toBe('builtin');
    expect(elapsed).toBeGreaterThanOrEqual(350);
    expect(elapsed).toBeLessThan(2500);
  });
});

describe('language model configuration', () => {
  it('refuses to start with a partial LLM_* setup (naming the missing variable) or a bad URL', async () => {
    // A half-configured model used to be a warning and a silent fallback; config.ts refuses it once.
    await expect(
      createTestApp({ env: { LLM_BASE_URL: 'http://127.0.0.1:9/v1', LLM_MODEL: 'gpt-test' } }),
    ).rejects.toThrow(/LLM_API_KEY is required when LLM_BASE_URL, LLM_MODEL are set/);
    await expect(createTestApp({ env: { LLM_BASE_URL: 'not a url' } })).rejects.toThrow(/LLM_BASE_URL/);
  });
});
