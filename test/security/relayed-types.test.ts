// Relays pass only the types they exist for (issue 42, finding 3): a Bluesky PDS that answers a
// video blob with a page, an SVG or XHTML (a meta refresh in it moved readers to another site from
// our origin), or a CDN that does so for a picture, is refused with an error naming what came, and
// no quota slot is spent. What passes carries its own type, nosniff, and downloads say attachment.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../fakes/media-samples.js';
import { solidJpeg } from '../fakes/tiktok/photo.js';

const HOSTILE = ['text/html; charset=utf-8', 'image/svg+xml', 'application/xhtml+xml', 'text/xml', 'text/plain'];
const PAGE = '<html><head><meta http-equiv="refresh" content="0;url=https://elsewhere.example/"></head></html>';

describe.each(DB_KINDS)('relayed types (%s)', (db) => {
  let bs: FakeBluesky;
  let t: TestApp;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-relayed-types-'));
  const page = path.join(tmp, 'page.html');
  fs.writeFileSync(page, PAGE);
  const video = toneMp4(2, { faststart: true });
  beforeAll(async () => {
    bs = await startFakeBluesky();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: bs.hostMapJson } });
  });
  afterAll(async () => {
    await Promise.all([bs.close(), t.close()]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
  const idOf = (did: string, rkey: string) => `plc-${did.slice('did:plc:'.length)}-${rkey}`;
  /** The preview link the card gets, keyed for this person (decision 0082). */
  const previewLink = async (c: TestClient, url: string) =>
    ((await (await c.post('/api/video/info', { url })).json()) as { videoUrl: string }).videoUrl;
  const refusal = async (res: Response) => {
    const body = await res.json();
    return [res.status, res.headers.get('content-type')?.split(';')[0], body.code, body.message];
  };
  const named = (type: string) => [
    424,
    'application/json',
    'upstream.not_media',
    `The site sent a file of type ${type.split(';')[0]}, not a video, sound or picture.`,
  ];

  it.each(HOSTILE)('refuses a video blob sent as %s: preview and download, no slot spent', async (type) => {
    const post = bs.addVideoPost({ file: page, type });
    const pro = await t.signUp({ pro: true });
    const preview = await previewLink(pro, post.url);
    expect(await refusal(await pro.get(preview))).toEqual(named(type));
    expect(await refusal(await pro.get(preview, { range: 'bytes=0-' }))).toEqual(named(type));
    const c = await t.signUp();
    expect(await refusal(await c.post('/api/video/download', { url: post.url, quality: 'hd' }))).toEqual(named(type));
    expect((await t.ctx.repos.users.findById(c.userId))!.downloadCount).toBe(0);
  });

  it.each(HOSTILE)('refuses a picture sent as %s, shown or saved', async (type) => {
    const { post } = bs.addPicturePost([page], { type });
    const id = idOf(post.author.did, post.uri.split('/').pop() as string);
    for (const link of [
      `/api/video/image/${id}/1?platform=bluesky`,
      `/api/video/image/${id}/1?platform=bluesky&download=1`,
    ])
      expect(await refusal(await t.client().get(link))).toEqual(named(type));
  });

  it('passes video and pictures with their own type and nosniff; a file named nothing is sent as what is expected', async () => {
    const pro = await t.signUp({ pro: true });
    for (const [type, expected] of [
      ['video/mp4', 'video/mp4'],
      ['video/quicktime', 'video/quicktime'],
      ['application/octet-stream', 'video/mp4'],
    ]) {
      const post = bs.addVideoPost({ file: video, type });
      const res = await pro.get(await previewLink(pro, post.url), { range: 'bytes=0-99' });
      expect([type, res.status, res.headers.get('content-type')]).toEqual([type, 206, expected]);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      await res.arrayBuffer();
    }
    const { post } = bs.addPicturePost([solidJpeg('336699', 30, 40)]);
    const picture = await t
      .client()
      .get(`/api/video/image/${idOf(post.author.did, post.uri.split('/').pop() as string)}/1?platform=bluesky`);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    expect(picture.headers.get('x-content-type-options')).toBe('nosniff');
    await picture.arrayBuffer();
  });

  it('sends a download as an attachment of the type it claims, with nosniff', async () => {
    const post = bs.addVideoPost({ file: video, type: 'video/mp4; codecs="avc1.42E01E"' });
    const c = await t.signUp();
    const res = await c.post('/api/video/download', { url: post.url, quality: 'hd' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="?[\w.-]+\.mp4"?$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(fs.readFileSync(video))).toBe(true);
  });
});
