// Reddit, the third platform (issue 44), through the same routes as the others against its fake
// (test/fakes/reddit/: the public JSON as two Listings, app-only OAuth, share links and v.redd.it
// addresses that redirect, real DASH files with both the DASH_ and the CMAF_ naming): every link
// form finds the post; a video's every height is offered and the best is joined with its sound; a
// video without sound comes alone and says so; galleries and pictures come as ZIP and slideshow; a
// crosspost gives the original's media; MP3 and batch take Reddit links; every refusal names Reddit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { attachmentName } from '../helpers/attachment-name.js';
import { zipEntries } from '../helpers/zip.js';
import { FFPROBE, ffprobe } from '../fakes/media-samples.js';
import { startFakeReddit } from '../fakes/reddit/fake-reddit.js';
import { dashSet } from '../fakes/reddit/dash-media.js';
import { createRedditPlatform } from '../../src/server/platforms/reddit/index.js';

/** A saved file's video size, whether it has sound, and its length. */
function streamsOf(file: string) {
  const j = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
      encoding: 'utf8',
    }),
  );
  const v = j.streams.find((s: { codec_type: string }) => s.codec_type === 'video');
  return {
    video: v ? `${v.width}x${v.height}` : null,
    sound: j.streams.some((s: { codec_type: string }) => s.codec_type === 'audio'),
    duration: Number(j.format.duration),
  };
}

describe.each(DB_KINDS)('Reddit posts (%s)', (db) => {
  let rd: Awaited<ReturnType<typeof startFakeReddit>>;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-reddit-'));
  const dash = dashSet({ heights: [720, 480, 240], seconds: 3, naming: 'DASH' });
  const cmaf = dashSet({ heights: [480, 240], seconds: 3, naming: 'CMAF' });
  const mute = dashSet({ heights: [480, 240], seconds: 3, naming: 'CMAF', silent: true });
  beforeAll(async () => {
    rd = await startFakeReddit();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: rd.hostMapJson } });
  });
  afterAll(async () => {
    await Promise.all([rd.close(), t.close()]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const save = async (res: Response, name: string) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    return file;
  };
  // Signed in, each test its own person: lookups are counted per person, and one test makes many.
  let asker: Awaited<ReturnType<TestApp['signUp']>> | null = null;
  const info = async (url: string) => {
    asker ??= await t.signUp();
    return asker.post('/api/video/info', { url });
  };
  beforeEach(() => {
    asker = null;
  });

  it('offers every height of a video and saves the best joined with its sound, named after the community', async () => {
    const url = rd.addVideo('1abc2de', 'videos', dash);
    const res = await info(url);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ platform: 'reddit', videoId: '1abc2de', author: 'videos', mediaType: 'video' });
    expect(body.title).toBe('Video 1abc2de');
    expect(body.downloadOptions.map((o: { quality: string; resolution: string }) => [o.quality, o.resolution])).toEqual(
      [
        ['720p', '1280x720'],
        ['480p', '854x480'],
        ['240p', '426x240'],
        ['sound', 'Audio'],
      ],
    );
    const c = await t.signUp();
    const saved = await c.post('/api/video/download', { url, quality: 'hd' });
    expect(saved.status).toBe(200);
    expect(attachmentName(saved)).toBe('reddit-videos-1abc2de.mp4');
    expect(streamsOf(await save(saved, 'best.mp4'))).toMatchObject({ video: '1280x720', sound: true });
    const smaller = await c.post('/api/video/download', { url, quality: '240p' });
    expect(attachmentName(smaller)).toBe('reddit-videos-1abc2de-240p.mp4');
    expect(streamsOf(await save(smaller, 'small.mp4'))).toMatchObject({ video: '426x240', sound: true });
    await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(2);
    // Every request to Reddit carried the descriptive User-Agent with a contact, as its API rules ask.
    const agents = new Set(rd.hits.map((h) => h.userAgent));
    expect([...agents]).toEqual([`web:social-media-toolkit:1.0 (self-hosted; +${t.ctx.config.publicUrl})`]);
  });

  it('finds the post from every link form: hosts, user posts, redd.it, share links and v.redd.it', async () => {
    rd.addVideo('2cmaf01', 'aww', cmaf);
    const forms = [
      'https://old.reddit.com/r/aww/comments/2cmaf01/video_2cmaf01/',
      'https://new.reddit.com/r/aww/comments/2cmaf01/',
      'https://np.reddit.com/r/aww/comments/2cmaf01/x/',
      'https://m.reddit.com/r/aww/comments/2cmaf01/video/?utm_source=share',
      'https://reddit.com/user/someone_posting/comments/2cmaf01/video/',
      'https://redd.it/2cmaf01',
      rd.addShare('Xyz12AbC', '2cmaf01'),
      rd.videoLink('2cmaf01'),
    ];
    for (const url of forms) {
      const res = await info(url);
      expect([url, res.status, (await res.json()).videoId]).toEqual([url, 200, '2cmaf01']);
    }
    // CMAF_ files, read from the manifest as the DASH_ ones are.
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: forms[5], quality: '480p' });
    expect(streamsOf(await save(res, 'cmaf.mp4'))).toMatchObject({ video: '854x480', sound: true });
  });

  it('offers a video without sound as the video alone, says so, and refuses an MP3 of it', async () => {
    const url = rd.addVideo('3mute01', 'gifs', mute);
    const body = await (await info(url)).json();
    expect(body.downloadOptions.map((o: { quality: string; silent?: boolean }) => [o.quality, o.silent])).toEqual([
      ['480p', true],
      ['240p', true],
    ]);
    const gif = await (await info(rd.addVideo('3gif001', 'gifs', mute, { isGif: true }))).json();
    expect(gif.downloadOptions[0]).toMatchObject({ quality: '480p', silent: true });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url, quality: 'hd' });
    expect(attachmentName(res)).toBe('reddit-gifs-3mute01.mp4');
    expect(streamsOf(await save(res, 'mute.mp4'))).toMatchObject({ video: '854x480', sound: false });
    const pro = await t.signUp({ pro: true });
    const mp3 = await pro.post('/api/audio/extract', { url });
    expect([mp3.status, (await mp3.json()).message]).toEqual([422, 'This post has no sound to extract.']);
  });

  it('gives galleries and pictures as a ZIP and a slideshow, and a crosspost the original media', async () => {
    const gallery = rd.addGallery('4gal001', 'pics', ['m1aaa', 'm2bbb', 'm3ccc']);
    const body = await (await info(gallery)).json();
    expect([body.mediaType, body.images.length]).toEqual(['photo', 3]);
    expect(body.downloadOptions.map((o: { quality: string }) => o.quality)).toEqual(['images', 'slideshow']);
    const c = await t.signUp();
    const zip = await c.post('/api/video/download', { url: gallery, quality: 'images' });
    expect(attachmentName(zip)).toBe('reddit-pics-4gal001-photos.zip');
    expect((await zipEntries(Buffer.from(await zip.arrayBuffer()))).length).toBe(3);
    const image = await (await info(rd.addImage('4img001', 'pics'))).json();
    expect([image.mediaType, image.images.length]).toEqual(['photo', 1]);
    const show = await c.post('/api/video/download', { url: rd.addImage('4img002', 'pics'), quality: 'slideshow' });
    expect(streamsOf(await save(show, 'show.mp4')).video).not.toBeNull();

    const cross = await (await info(rd.addCrosspost('4xp0001', 'funny', '1abc2de'))).json();
    expect([cross.videoId, cross.author, cross.downloadOptions[0].quality]).toEqual(['4xp0001', 'funny', '720p']);
  });

  it('takes Reddit links for the MP3 and in a batch', async () => {
    const pro = await t.signUp({ pro: true });
    const url = rd.addVideo('5mp3001', 'music', cmaf);
    const audio = await pro.post('/api/audio/extract', { url });
    expect(audio.status).toBe(200);
    const mp3 = await save(await fetch(t.baseUrl + (await audio.json()).audioUrl), 'r.mp3');
    expect(Math.abs(ffprobe(mp3).duration - 3)).toBeLessThan(0.2);
    const created = await (
      await pro.post('/api/batch', { urls: [url, rd.addGallery('5bat002', 'pics', ['m9zzz'])] })
    ).json();
    const view = async () => (await pro.get(`/api/batch/${created.id}`)).json();
    await expect.poll(async () => (await view()).status, { timeout: 60_000 }).toBe('done');
    const entries = await zipEntries(
      Buffer.from(await (await fetch(t.baseUrl + (await view()).downloadUrl)).arrayBuffer()),
    );
    expect(entries.map((e) => e.name).sort()).toEqual([
      'reddit-music-5mp3001.mp4',
      'reddit-pics-5bat002-slideshow.mp4',
    ]);
  }, 90_000);

  it('refuses honestly, naming Reddit', async () => {
    const cases: Array<[string, number, string]> = [
      [
        rd.refuse('6prv001', 'secret', 'private'),
        403,
        'This Reddit community is private, so its posts cannot be downloaded. Try a public post.',
      ],
      [
        rd.refuse('6qua001', 'edgy', 'quarantined'),
        403,
        'This Reddit community is quarantined: Reddit shows it only to accounts that opted in, so its posts cannot be downloaded here.',
      ],
      [
        rd.refuse('6ban001', 'gone', 'banned'),
        404,
        'This Reddit community was banned, so its posts are gone. Try a different post.',
      ],
      [
        rd.refuse('6mis001', 'videos', 'missing'),
        404,
        'This Reddit video was removed or does not exist. Check the link or try a different video.',
      ],
      [
        rd.addVideo('6rem001', 'videos', cmaf, { removed_by_category: 'moderator' }),
        404,
        'This Reddit post was removed or deleted, so its media is gone. Try a different post.',
      ],
      [
        rd.addVideo('6nsf001', 'videos', cmaf, { over_18: true }),
        403,
        'This Reddit post is marked over 18, and this server is set not to download such posts.',
      ],
      [
        rd.addText('6txt001', 'askreddit'),
        400,
        'This Reddit post is text only: it has no video or pictures to download. Try a post with a video.',
      ],
      [
        'https://www.reddit.com/r/videos/comments/1abc2de/a_video/c0mment/',
        400,
        'This Reddit link points to a comment, which has no video or pictures of its own. Paste the link of the post itself.',
      ],
    ];
    for (const [url, status, message] of cases) {
      const res = await info(url);
      expect([url, res.status, (await res.json()).message]).toEqual([url, status, message]);
    }
    // Reddit limiting us is our pace, not the person's: 503 with Reddit's own wait.
    const limited = await info(rd.refuse('6lim001', 'videos', 'ratelimited'));
    expect([limited.status, limited.headers.get('retry-after'), (await limited.json()).code]).toEqual([
      503,
      '420',
      'upstream.busy',
    ]);
  });

  it('uses application-only OAuth on oauth.reddit.com when given an app, and downloads over-18 posts only when allowed', async () => {
    const platform = createRedditPlatform({
      http: t.ctx.adapters.http,
      settings: {
        clientId: rd.client.id,
        clientSecret: rd.client.secret,
        over18: 'allow',
        userAgent: 'test:smt:1 (by /u/tester)',
      },
    });
    const url = rd.addVideo('7oau001', 'videos', cmaf, { over_18: true });
    const ref = { platform: 'reddit', id: '7oau001', url };
    const before = rd.tokensIssued();
    const fetched = await platform.fetchVideo(ref);
    await platform.fetchVideo(ref);
    expect(fetched.video.options.map((o) => o.quality)).toEqual(['480p', '240p']);
    expect(rd.tokensIssued() - before).toBe(1); // one token, kept
    const api = rd.hits.filter((h) => h.path === '/comments/7oau001');
    expect(api.map((h) => [h.host, h.authorization, h.userAgent])).toEqual([
      ['oauth.reddit.com', `Bearer ${rd.client.token}`, 'test:smt:1 (by /u/tester)'],
      ['oauth.reddit.com', `Bearer ${rd.client.token}`, 'test:smt:1 (by /u/tester)'],
    ]);
  });
});
