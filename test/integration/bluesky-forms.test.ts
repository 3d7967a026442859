// Every embed form of the current Bluesky Lexicons (test/fakes/bluesky/embed-forms.ts), alone and in
// a quote post, through the same routes as any post: a video is the original from its owner's PDS
// with its real frame size and length read from the MP4's header (a range request, not the file);
// a picture form gives its pictures through our own links and as a ZIP. Both databases.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBluesky, type FakeBluesky } from '../fakes/bluesky/fake-bluesky.js';
import { toneMp4 } from '../fakes/media-samples.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { zipEntries } from '../helpers/zip.js';

describe.each(DB_KINDS)('Bluesky embed forms (%s)', (db) => {
  let bs: FakeBluesky;
  let t: TestApp;
  const video = toneMp4(2, { size: '480x848' }); // moov at the end: two ranges
  beforeAll(async () => {
    bs = await startFakeBluesky();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: bs.hostMapJson } });
  });
  afterAll(async () => {
    await Promise.all([bs.close(), t.close()]);
  });
  const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

  it('looks up and downloads every form, alone and inside a quote post', async () => {
    const forms = bs.addEveryForm(video);
    const c = await t.signUp({ pro: true });
    for (const [name, { url, kind }] of Object.entries(forms)) {
      const before = bs.requests.length;
      const info = await (await t.client().post('/api/video/info', { url })).json();
      expect([name, info.mediaType]).toEqual([name, kind === 'video' ? 'video' : 'photo']);
      if (kind === 'video') {
        expect([name, info.downloadOptions[0].resolution, Math.round(info.duration)]).toEqual([name, '480x848', 2]);
        const res = await c.post('/api/video/download', { url, quality: 'hd' });
        expect([name, res.status]).toEqual([name, 200]);
        expect((await bytes(res)).equals(fs.readFileSync(video)), name).toBe(true);
      } else {
        expect(info.images.length, name).toBeGreaterThan(0);
        const zip = await c.post('/api/video/download', { url, quality: 'images' });
        expect([name, zip.status]).toEqual([name, 200]);
        expect((await zipEntries(await bytes(zip))).length, name).toBe(info.images.length);
        if (name === 'app.bsky.embed.gallery') {
          // The slideshow of a gallery's pictures, like any picture post's.
          const show = await c.post('/api/video/download', { url, quality: 'slideshow' });
          expect([show.status, show.headers.get('content-type')]).toEqual([200, 'video/mp4']);
          expect((await bytes(show)).length).toBeGreaterThan(1000);
        }
      }
      expect(bs.requests.slice(before).length, name).toBeGreaterThan(0);
    }
    expect(Object.keys(forms).length).toBe(9);
  });
});
