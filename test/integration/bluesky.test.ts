// Bluesky, the second real platform (issue 37), through the same routes as TikTok against its fakes
// (test/fakes/bluesky/: AppView, PLC directory, a did:web host, a PDS, the CDNs): the real captured
// video post and the Lexicon-built shapes are looked up by DID and handle links, downloaded as the
// uploaded original from the author's PDS (size up front, one quota slot, named after the platform),
// turned into MP3 and captions, opened in the caption studio; picture posts give their pictures one
// by one and as a ZIP; every failure names Bluesky and gives the quota slot back.
import { attachmentName } from '../helpers/attachment-name.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { ffprobe, toneMp4 } from '../fakes/media-samples.js';
import { sampleJpeg } from '../fakes/tiktok/media.js';
import { solidJpeg } from '../fakes/tiktok/photo.js';
import { zipEntries } from '../helpers/zip.js';

const FIXTURE_ID = 'plc-l7mosai5i2u562b5qbosw6c7-3lhnr2o6kb22h';
const AUTHOR_ASKED =
  'The author of this Bluesky post asked Bluesky not to show their posts to people who are not signed in, so we do not download it.';
const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHello from the sky\n';

describe.each(DB_KINDS)('Bluesky posts (%s)', (db) => {
  let bs: FakeBluesky;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-bluesky-'));
  const video = toneMp4(3, { faststart: true });
  beforeAll(async () => {
    bs = await startFakeBluesky();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: bs.hostMapJson } });
  });
  afterAll(async () => {
    await Promise.all([bs.close(), t.close()]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const rowsOf = async (query: ReturnType<typeof sql>) => {
    const result = (await t.ctx.db.execute(query)) as unknown as
      | { rows?: Array<Record<string, unknown>> }
      | Array<Record<string, unknown>>;
    return Array.isArray(result) ? result : (result.rows ?? []);
  };
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('looks the real video post up by its DID link, its handle link and an encoded DID, with our own links', async () => {
    const { url, handleUrl } = bs.addFixture('video', { video });
    const info = await (await t.client().post('/api/video/info', { url })).json();
    expect(info).toMatchObject({
      platform: 'bluesky',
      videoId: FIXTURE_ID,
      url: 'https://bsky.app/profile/did:plc:l7mosai5i2u562b5qbosw6c7/post/3lhnr2o6kb22h',
      author: 'kamhoyung.bsky.social',
      mediaType: 'video',
      likes: 0,
      thumbnail: `/api/video/thumbnail/${FIXTURE_ID}?platform=bluesky`,
    });
    expect(info.title).toMatch(/^Once the widget was setup, it was surprisingly easy/);
    // One file: the uploaded original, its size from the record's blob.
    expect(info.downloadOptions.map((o: { quality: string; size: number }) => [o.quality, o.size])).toEqual([
      ['hd', 1387501],
    ]);
    for (const other of [handleUrl, url.replace('did:plc:', 'did%3Aplc%3A'), `${url}?ref_src=embed`])
      expect((await (await t.client().post('/api/video/info', { url: other })).json()).videoId).toBe(FIXTURE_ID);
    expect(await bytes(await t.client().get(info.thumbnail))).toEqual(fs.readFileSync(sampleJpeg()));
    expect((await t.client().get('/api/video/thumbnail/not-a-post?platform=bluesky')).status).toBe(400);
  });

  it('downloads the original blob from the author PDS: size up front, one slot, named after the platform', async () => {
    const { url } = bs.addFixture('video', { video });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url, quality: 'hd' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(fs.statSync(video).size));
    expect(attachmentName(res)).toBe(`bluesky-kamhoyung.bsky.social-${FIXTURE_ID}.mp4`);
    expect(await bytes(res)).toEqual(fs.readFileSync(video));
    expect(bs.requests).toContain('pds.fake-bluesky.test/xrpc/com.atproto.sync.getBlob');
    await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(1);
    expect(await rowsOf(sql`select platform, video_id from downloads where user_id = ${c.userId}`)).toEqual([
      { platform: 'bluesky', video_id: FIXTURE_ID },
    ]);
  });

  it('downloads a quote post video, and a did:web author (DID document from the domain), resolving each PDS once', async () => {
    const c = await t.signUp({ pro: true });
    const quote = bs.addVideoPost({ file: video, quote: true });
    const web = bs.addVideoPost({ file: video, didWeb: true });
    expect(web.url).toContain('/profile/did:web:creator.fake-bluesky.test/post/');
    for (const url of [quote.url, web.url]) {
      const res = await c.post('/api/video/download', { url, quality: 'hd' });
      expect([res.status, (await bytes(res)).equals(fs.readFileSync(video))]).toEqual([200, true]);
    }
    expect(bs.requests).toContain('creator.fake-bluesky.test/.well-known/did.json');
    // A second post by the same author: its PDS comes from the cache.
    const asked = () => bs.requests.filter((r) => r === `plc.directory/${quote.author.did}`).length;
    const again = bs.addVideoPost({ file: video, author: quote.author });
    expect((await c.post('/api/video/download', { url: again.url, quality: 'hd' })).status).toBe(200);
    expect(asked()).toBe(1);
  });

  it('previews a video post by id, and takes its links in a batch', async () => {
    const { url } = bs.addFixture('video', { video });
    const pro = await t.signUp({ pro: true });
    const { videoUrl } = await (await pro.post('/api/video/info', { url })).json();
    expect(videoUrl).toMatch(new RegExp(`^/api/video/stream/${FIXTURE_ID}\\?platform=bluesky&t=`));
    const preview = await pro.get(videoUrl, { range: 'bytes=0-99' });
    expect([preview.status, preview.headers.get('content-range')]).toEqual([
      206,
      `bytes 0-99/${fs.statSync(video).size}`,
    ]);
    expect(await bytes(preview)).toEqual(fs.readFileSync(video).subarray(0, 100));
    const created = await (await pro.post('/api/batch', { urls: [url] })).json();
    const view = async () => (await pro.get(`/api/batch/${created.id}`)).json();
    await expect.poll(async () => (await view()).status, { timeout: 30_000 }).toBe('done');
    const zip = await zipEntries(await bytes(await fetch(t.baseUrl + (await view()).downloadUrl)));
    expect(zip.map((e) => e.name)).toEqual([`bluesky-kamhoyung.bsky.social-${FIXTURE_ID}.mp4`]);
  });

  it('extracts the MP3 of a video post, reads its captions, and opens it in the caption studio', async () => {
    const { url } = bs.addVideoPost({ file: video, vtt: VTT, text: 'Sky kitchen' });
    const pro = await t.signUp({ pro: true });
    const audio = await pro.post('/api/audio/extract', { url });
    expect(audio.status).toBe(200);
    const mp3 = path.join(tmp, 'post.mp3');
    fs.writeFileSync(mp3, await bytes(await fetch(t.baseUrl + (await audio.json()).audioUrl)));
    expect(Math.abs(ffprobe(mp3).duration - 3)).toBeLessThan(0.2);
    const captions = await pro.post('/api/transcription/generate', { url });
    expect(captions.status).toBe(200);
    expect(JSON.stringify(await captions.json())).toContain('Hello from the sky');
    const project = await pro.post('/api/caption-projects', { source: { kind: 'link', url } });
    expect(project.status).toBe(201);
    expect(await project.json()).toMatchObject({ title: 'Sky kitchen', width: 320, height: 568, engine: 'captions' });
  });

  it('gives a picture post its pictures through our own links, one by one, as a ZIP and as a slideshow', async () => {
    const colours = [solidJpeg('ff0000', 300, 400), solidJpeg('00ff00', 300, 400), solidJpeg('0000ff', 300, 400)];
    const { url, post } = bs.addPicturePost(colours);
    const id = `plc-${post.author.did.slice(8)}-${post.uri.split('/').pop()}`;
    const info = await (await t.client().post('/api/video/info', { url })).json();
    expect(info.mediaType).toBe('photo');
    expect(info.images.map((i: { url: string }) => i.url)).toEqual(
      [1, 2, 3].map((n) => `/api/video/image/${id}/${n}?platform=bluesky`),
    );
    expect(info.downloadOptions.map((o: { quality: string }) => o.quality)).toEqual(['images', 'slideshow']);
    for (const [i, file] of colours.entries())
      expect(await bytes(await t.client().get(info.images[i].url))).toEqual(fs.readFileSync(file));
    const c = await t.signUp();
    const zip = await c.post('/api/video/download', { url, quality: 'images' });
    expect(zip.status).toBe(200);
    expect(attachmentName(zip)).toMatch(/^bluesky-creator\d+\.bsky\.social-plc-[a-z2-7]{24}-[2-7a-z]{13}-photos\.zip$/);
    const entries = await zipEntries(await bytes(zip));
    expect(entries.map((e, i) => e.bytes.equals(fs.readFileSync(colours[i])))).toEqual([true, true, true]);
    await expect.poll(async () => (await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(1);
    // The slideshow: the pictures in a silent H.264 video (the post has no sound of its own).
    const show = await c.post('/api/video/download', { url, quality: 'slideshow' });
    expect(show.status).toBe(200);
    const file = path.join(tmp, 'show.mp4');
    fs.writeFileSync(file, await bytes(show));
    expect(ffprobe(file).duration).toBeGreaterThan(1);
  });

  it('reads the real captured picture post inside a quote post; respects an author hidden from logged-out viewers', async () => {
    // The captured plain picture post's author carries `!no-unauthenticated` (issue 45): refused, saying why.
    const hidden = await t.client().post('/api/video/info', { url: bs.addFixture('images').url });
    expect([hidden.status, (await hidden.json()).message]).toEqual([403, AUTHOR_ASKED]);
    for (const [name, count] of [['quoteWithImages', 1]] as const) {
      const { url } = bs.addFixture(name);
      const info = await (await t.client().post('/api/video/info', { url })).json();
      expect([name, info.mediaType, info.images.length]).toEqual([name, 'photo', count]);
      expect(await bytes(await t.client().get(info.images[0].url))).toEqual(fs.readFileSync(sampleJpeg()));
    }
  });

  it('names Bluesky in every failure, and gives the quota slot back', async () => {
    const c = await t.signUp();
    const answer = async (url: string, quality?: string) => {
      const res = await (quality
        ? c.post('/api/video/download', { url, quality })
        : c.post('/api/video/info', { url }));
      const body = await res.json();
      return [res.status, body.code, body.message];
    };
    const noMedia = 'This Bluesky post has no video or pictures to download. Try a post with a video.';
    expect(await answer(bs.addFixture('text').url)).toEqual([403, 'video.login_required', AUTHOR_ASKED]);
    expect(await answer(bs.addLinkCard().url, 'hd')).toEqual([400, 'link.unsupported', noMedia]);
    const gone = 'This Bluesky video was removed or does not exist. Check the link or try a different video.';
    expect(await answer(bs.addUnavailable('missing'))).toEqual([404, 'video.not_found', gone]);
    expect(await answer(bs.addUnavailable('notFound'), 'hd')).toEqual([404, 'video.not_found', gone]);
    expect(await answer('https://bsky.app/profile/nobody.bsky.social/post/3lhnr2o6kb22h')).toEqual([
      404,
      'video.not_found',
      gone,
    ]);
    expect(await answer(bs.addUnavailable('blocked'), 'hd')).toEqual([
      404,
      'video.not_found',
      'This Bluesky post cannot be shown: its author blocks it from view or their account was taken down. Try a different video.',
    ]);
    // A PDS that does not answer: the post is known, its file cannot be had.
    const post = bs.addVideoPost({ file: video });
    bs.state.pdsDown = true;
    try {
      const [status, code, message] = await answer(post.url, 'hd');
      expect([status, code]).toEqual([424, 'upstream.unavailable']);
      expect(message).toMatch(/^Bluesky /);
    } finally {
      bs.state.pdsDown = false;
    }
    // The PLC directory not answering: the author's PDS cannot be found.
    bs.state.plcDown = true;
    try {
      expect(await answer(bs.addVideoPost({ file: video }).url, 'hd')).toEqual([
        424,
        'upstream.unavailable',
        'Bluesky is not answering right now. Please try again in a few minutes.',
      ]);
    } finally {
      bs.state.plcDown = false;
    }
    expect((await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(0);
    const other = await c.post('/api/video/info', { url: 'https://bsky.app/profile/someone.bsky.social' });
    expect([other.status, (await other.json()).message]).toEqual([
      400,
      'Please provide a valid TikTok or Bluesky or Reddit URL',
    ]);
  });
});
