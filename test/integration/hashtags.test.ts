// POST /api/ai/hashtags and POST /api/content/optimize on the real app, both databases,
// built-in engine (no language model configured).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { trendingVideos, users, videoObservations } from '../../src/server/db/schema.js';

const VALID = /^#[\p{L}\p{M}\p{N}_]+$/u;

describe.each(DB_KINDS)('hashtag generator (%s)', (db) => {
  let t: TestApp;
  let pro: Awaited<ReturnType<TestApp['signUp']>>;
  beforeAll(async () => {
    t = await createTestApp({ db });
    pro = await t.signUp({ pro: true });
    // First-party data: hashtags seen on fetched videos and on the curated list.
    const now = Date.now();
    const ago = (days: number) => new Date(now - days * 86_400_000);
    await t.ctx.db.insert(videoObservations).values([
      { videoId: '7500000000000000001', hashtags: ['pastatok', 'foodtok', 'fyp'], observedAt: ago(1) },
      { videoId: '7500000000000000001', hashtags: ['pastatok', 'foodtok', 'fyp'], observedAt: ago(0.5) }, // same video twice
      { videoId: '7500000000000000002', hashtags: ['#PastaTok', 'dinnerideas'], observedAt: ago(2) },
      { videoId: '7500000000000000003', hashtags: ['starbucks'], observedAt: ago(1) },
      { videoId: '7500000000000000004', hashtags: ['pastatok'], observedAt: ago(90) }, // outside the window
    ]);
    const [curator] = await t.ctx.db.select().from(users);
    await t.ctx.db.insert(trendingVideos).values({
      title: 'Feta pasta',
      videoUrl: 'https://www.tiktok.com/@chef/video/7500000000000000009',
      platform: 'tiktok',
      tags: ['pastatok', 'easyrecipes'],
      curatedBy: curator.id,
    });
    t.ctx.services.hashtags.refreshObserved();
  });
  afterAll(() => t.close());

  it('is for signed-in Pro users only', async () => {
    const anon = await t.client().post('/api/ai/hashtags', { videoTitle: 'Pasta', platform: 'social media' });
    expect(anon.status).toBe(401);
    const free = await t.signUp();
    const res = await free.post('/api/ai/hashtags', { videoTitle: 'Pasta', platform: 'social media' });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      code: 'billing.pro_required',
      message: 'This is a Pro feature. Upgrade to use it.',
    });
  });

  it('answers trending from observed data with real counts, niche from the title, and a 5-tag mix', async () => {
    const res = await pro.post('/api/ai/hashtags', {
      videoTitle: '  Creamy garlic pasta recipe for dinner  ',
      videoDescription: '',
      niche: '   ',
      platform: 'social media',
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toBe('builtin');
    // pastatok: videos 1, 2 and the curated one (the 90-day-old sighting is outside the window);
    // 4 videos in the window: 3 observed plus the curated one.
    // pastatok leads (3 videos); the 1-video tags follow by recency.
    expect(body.trending[0]).toBe('#pastatok');
    expect(body.trending.slice(1, 5).sort()).toEqual(['#dinnerideas', '#easyrecipes', '#foodtok', '#fyp']);
    expect(body.trending).not.toContain('#starbucks');
    expect(body.tips.find((tip: string) => tip.startsWith('Trending:'))).toMatch(
      /in the last 30 days \(4 videos looked at; #pastatok on 3\)\.$/,
    );
    expect(body.niche.slice(0, 3).every((tag: string) => /garlic|pasta|recipe|dinner|creamy/.test(tag))).toBe(true);
    expect(body.mixed).toHaveLength(5);
    for (const list of [body.trending, body.niche, body.mixed]) {
      expect(list.every((tag: string) => VALID.test(tag))).toBe(true);
      expect(new Set(list).size).toBe(list.length);
    }
    expect(body.tips.some((tip: string) => tip.includes('TikTok and Instagram now allow 5 hashtags per post'))).toBe(
      true,
    );
  });

  it('refuses a missing or blank title and over-long fields with clear 400s', async () => {
    for (const payload of [{}, { videoTitle: '' }, { videoTitle: '   \n ' }]) {
      const res = await pro.post('/api/ai/hashtags', payload);
      expect(res.status).toBe(400);
      const message = 'Video title required - Please enter a video title to generate hashtags';
      expect(await res.json()).toEqual({ code: 'request.invalid', message, params: { issue: message } });
    }
    const long = await pro.post('/api/ai/hashtags', { videoTitle: 'x'.repeat(301) });
    expect(long.status).toBe(400);
    expect((await long.json()).message).toBe('Video title is too long (max 300 characters)');
    const desc = await pro.post('/api/ai/hashtags', { videoTitle: 'ok', videoDescription: 'y'.repeat(5001) });
    expect(desc.status).toBe(400);
    expect((await desc.json()).message).toBe('Description is too long (max 5,000 characters)');
  });

  it('answers emoji-only, markup and non-English titles sensibly', async () => {
    const emoji = await (await pro.post('/api/ai/hashtags', { videoTitle: '🍝🔥😍' })).json();
    expect(emoji.mixed).toHaveLength(5);
    expect(emoji.tips.some((tip: string) => /could not find words/.test(tip))).toBe(true);
    const html = await pro.post('/api/ai/hashtags', {
      videoTitle: '<img src=x onerror=alert(1)><script>alert(2)</script>Cat zoomies at 3am',
    });
    expect(html.status).toBe(200);
    const htmlBody = JSON.stringify(await html.json());
    expect(htmlBody).not.toMatch(/<|>|onerror|alert/);
    const japanese = await (
      await pro.post('/api/ai/hashtags', { videoTitle: '簡単 パスタ レシピ', niche: '料理' })
    ).json();
    expect(japanese.niche).toContain('#料理');
    expect(japanese.niche.some((tag: string) => tag.includes('パスタ'))).toBe(true);
  });
});

describe.each(DB_KINDS)('content optimiser (%s)', (db) => {
  let t: TestApp;
  let user: Awaited<ReturnType<TestApp['signUp']>>;
  beforeAll(async () => {
    t = await createTestApp({ db });
    user = await t.signUp();
  });
  afterAll(() => t.close());

  it('needs a signed-in user (free is fine)', async () => {
    expect((await t.client().post('/api/content/optimize', { content: 'Hi', platforms: ['tiktok'] })).status).toBe(401);
    const res = await user.post('/api/content/optimize', {
      content: 'New pasta recipe tonight. Come cook with me!',
      platforms: ['tiktok'],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.source).toBe('builtin');
    expect(body.platforms).toHaveLength(1);
    const [p] = body.platforms;
    expect(p).toMatchObject({ platform: 'tiktok', characterLimit: 2200 });
    expect(p.optimizedCaption.startsWith('New pasta recipe tonight.\n\nCome cook with me!')).toBe(true);
    expect(p.hashtags.length).toBeGreaterThan(0);
    expect(p.hashtags.length).toBeLessThanOrEqual(5);
    expect(p.bestPostingTimes).toContain('Wednesday 9–11 am, 12 pm and 2–6 pm');
    expect(p.tips.some((tip: string) => /general guidance/.test(tip))).toBe(true);
  });

  it('uses the shared default platforms when none are sent', async () => {
    const body = await (
      await user.post('/api/content/optimize', { content: 'My morning routine in 60 seconds.' })
    ).json();
    expect(body.platforms.map((p: { platform: string }) => p.platform)).toEqual(['instagram', 'youtube', 'linkedin']);
    expect(body.platforms.map((p: { characterLimit: number }) => p.characterLimit)).toEqual([2200, 5000, 3000]);
  });

  it('refuses empty content, unknown or missing platforms, and over-long content', async () => {
    const cases: Array<[unknown, string]> = [
      [{ content: '', platforms: ['tiktok'] }, 'Content required - Please enter some content to optimize'],
      [{ content: ' \n\t ', platforms: ['tiktok'] }, 'Content required - Please enter some content to optimize'],
      [{ platforms: ['tiktok'] }, 'Content required - Please enter some content to optimize'],
      [{ content: 'Hi', platforms: [] }, 'Platform required - Please select at least one platform'],
      [
        { content: 'Hi', platforms: ['myspace'] },
        'Please choose a valid platform: tiktok, instagram, youtube, linkedin',
      ],
      [{ content: 'Hi', platforms: 'tiktok' }, 'Invalid input: expected array, received string'],
      [{ content: 'x'.repeat(10_001), platforms: ['tiktok'] }, 'Content is too long (max 10,000 characters)'],
    ];
    for (const [payload, message] of cases) {
      const res = await user.post('/api/content/optimize', payload);
      expect(res.status, JSON.stringify(payload).slice(0, 60)).toBe(400);
      expect(await res.json()).toEqual({ code: 'request.invalid', message, params: { issue: message } });
    }
  });

  it('fits 10,000 characters into every platform limit', async () => {
    const content = 'Budget travel in Lisbon is easier than you think. '.repeat(200);
    expect(content.length).toBe(10_000);
    const res = await user.post('/api/content/optimize', {
      content,
      platforms: ['tiktok', 'instagram', 'youtube', 'linkedin'],
    });
    expect(res.status).toBe(200);
    for (const p of (await res.json()).platforms) {
      expect(p.optimizedCaption.length).toBeLessThanOrEqual(p.characterLimit);
      expect(p.tips.some((tip: string) => /so the end was cut/.test(tip))).toBe(true);
    }
  });

  it('never echoes markup and keeps non-English text', async () => {
    const res = await user.post('/api/content/optimize', {
      content: '<b>Rezept</b> für schnelle Nudeln.<script>document.cookie</script> Fertig in zehn Minuten!',
      platforms: ['tiktok', 'tiktok'],
    });
    const body = await res.json();
    expect(body.platforms).toHaveLength(1);
    expect(body.platforms[0].optimizedCaption).not.toMatch(/<|>|document\.cookie/);
    expect(body.platforms[0].optimizedCaption).toContain('Rezept für schnelle Nudeln.');
    expect(body.platforms[0].optimizedCaption).toContain('Fertig in zehn Minuten!');
  });
});
