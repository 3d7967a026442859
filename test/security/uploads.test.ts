// Uploads that said one thing to the route and another to tus, or that no one bounded (issue 34):
// `HEAD|PATCH|DELETE /api/uploads/<own id>?x=/<their id>` reached the other person's upload (the
// route checked the path's id, tus acted on the URL's last segment); `upload:<their id>` was a
// link the audio and captions tools accepted; one account opened 60 uploads of 299 MB; a file name
// with NUL answered 500 in plain text with the SQL statement; tus answered with
// `Access-Control-Allow-Origin: *`. On PGlite and PostgreSQL.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { toneMp4 } from '../fakes/media-samples.js';
import { studioUploads } from '../../src/server/db/schema.js';

type Client = Awaited<ReturnType<TestApp['signUp']>>;
const TUS = { 'tus-resumable': '1.0.0' };
const meta = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;

const create = (c: Client, size: number, name = 'clip.mp4', headers: Record<string, string> = TUS) =>
  c.request('POST', '/api/uploads', undefined, {
    ...headers,
    'upload-length': String(size),
    'upload-metadata': meta(name),
  });
const idOf = (res: Response) => res.headers.get('location')?.split('/').pop() ?? '';
const patch = (c: Client, url: string, offset: number, body: Buffer) =>
  fetch(`${c.baseUrl}${url}`, {
    method: 'PATCH',
    headers: {
      ...TUS,
      origin: c.baseUrl,
      cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'upload-offset': String(offset),
      'content-type': 'application/offset+octet-stream',
    },
    body: new Uint8Array(body),
  });

describe.each(DB_KINDS)('uploads (%s)', (db) => {
  let t: TestApp;
  let mine: Client;
  let theirs: Client;
  const clip = () => fs.readFileSync(toneMp4(3, { faststart: true }));
  const row = (id: string) => t.ctx.repos.captionProjects.findUpload(id);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      env: { MEDIA_MAX_INPUT_MB: '2', UPLOADS_MAX_OPEN: '2', UPLOADS_MAX_OPEN_MB: '3', UPLOADS_STALE_MINUTES: '60' },
    });
    mine = await t.signUp({ pro: true });
    theirs = await t.signUp({ pro: true });
  });
  afterAll(() => t.close());

  it('acts only on the id it checked: no query, no other segment, no encoded slash reaches another upload', async () => {
    const bytes = clip();
    const victim = await create(theirs, bytes.length, 'private-name.mp4');
    expect(victim.status).toBe(201);
    const their = idOf(victim);
    expect((await patch(theirs, `/api/uploads/${their}`, 0, bytes.subarray(0, 100))).status).toBe(204);
    const own = idOf(await create(mine, 1000));
    for (const url of [
      `/api/uploads/${own}?x=/${their}`,
      `/api/uploads/${own}?/api/uploads/${their}`,
      `/api/uploads/${own}%2F${their}`,
      `/api/uploads/${own}/${their}`,
      `/api/uploads/${their}`,
    ]) {
      // An encoded slash makes the path's id no upload id at all (400); the others name no upload of mine (404).
      const refused = url.includes('%2F') ? 400 : 404;
      const head = await mine.request('HEAD', url, undefined, TUS);
      expect([url, head.status, head.headers.get('upload-offset')]).toEqual([url, refused, null]);
      const res = await patch(mine, url, 100, Buffer.alloc(50, 1));
      expect([url, res.status]).toEqual([url, refused]);
      expect((await mine.request('DELETE', url, undefined, TUS)).status).toBe(refused);
    }
    // Theirs is untouched: its offset and its row are where they were.
    const head = await theirs.request('HEAD', `/api/uploads/${their}`, undefined, TUS);
    expect(head.headers.get('upload-offset')).toBe('100');
    expect((await row(their))?.fileName).toBe('private-name.mp4');
    expect((await row(own))?.userId).toBe(mine.userId);
    await theirs.request('DELETE', `/api/uploads/${their}`, undefined, TUS);
    await mine.request('DELETE', `/api/uploads/${own}`, undefined, TUS);
  });

  it("an upload is no link: the audio and captions tools refuse `upload:<id>`, even the owner's", async () => {
    const bytes = clip();
    const id = idOf(await create(theirs, bytes.length));
    expect((await patch(theirs, `/api/uploads/${id}`, 0, bytes)).status).toBe(204);
    expect((await row(id))?.status).toBe('ready');
    for (const who of [mine, theirs])
      for (const route of ['/api/audio/extract', '/api/transcription/generate']) {
        const res = await who.post(route, { url: `upload:${id}` });
        expect([route, res.status, (await res.json()).code]).toEqual([route, 400, 'link.unsupported']);
      }
    // The owner's caption project still opens from it: studio-uploads.test.ts.
  }, 60_000);

  it('bounds the unfinished uploads of a person, in count and declared bytes, in the envelope', async () => {
    const a = await create(mine, 1_500_000);
    expect(a.status).toBe(201);
    const tooBig = await create(mine, 1_700_000); // 3.2 million bytes > 3 MiB
    expect([tooBig.status, await tooBig.clone().text()]).toEqual([413, expect.anything()]);
    expect(await tooBig.json()).toMatchObject({ code: 'upload.open_bytes', params: { mb: 3 } });
    const b = await create(mine, 1000);
    expect(b.status).toBe(201);
    const third = await create(mine, 1000);
    expect(third.status).toBe(429);
    expect(third.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await third.json()).toMatchObject({
      code: 'upload.too_many_open',
      message: 'You have 2 unfinished uploads. Finish or cancel one before starting another.',
    });
    // Someone else is not bounded by them.
    const other = await create(theirs, 1000);
    expect(other.status).toBe(201);
    // Cancelling one frees its place.
    expect((await mine.request('DELETE', `/api/uploads/${idOf(b)}`, undefined, TUS)).status).toBe(204);
    const again = await create(mine, 1000);
    expect(again.status).toBe(201);
    for (const [c, res] of [
      [mine, a],
      [mine, again],
      [theirs, other],
    ] as const)
      await c.request('DELETE', `/api/uploads/${idOf(res)}`, undefined, TUS);
  });

  it('removes an unfinished upload after UPLOADS_STALE_MINUTES without a byte, and each PATCH buys more time', async () => {
    const res = await create(mine, 2000);
    const id = idOf(res);
    const first = (await row(id))!.expiresAt.getTime();
    expect(first - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(first - Date.now()).toBeLessThanOrEqual(60 * 60_000);
    const mp4Head = fs.readFileSync(toneMp4(3, { faststart: true })).subarray(0, 1000);
    await new Promise((r) => setTimeout(r, 20));
    expect((await patch(mine, `/api/uploads/${id}`, 0, mp4Head)).status).toBe(204);
    expect((await row(id))!.expiresAt.getTime()).toBeGreaterThan(first);
    // An hour passes without a byte.
    await t.ctx.db
      .update(studioUploads)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(studioUploads.id, id));
    await t.ctx.services.studioUploads.cleanupTask.run();
    expect(await row(id)).toBeUndefined();
    expect(fs.existsSync(path.join(t.ctx.config.DATA_DIR, 'tmp', 'uploads', id))).toBe(false);
    expect((await mine.request('HEAD', `/api/uploads/${id}`, undefined, TUS)).status).toBe(404);
  });

  it('answers every tus refusal in the JSON envelope, a NUL in the file name with a 400, and no CORS', async () => {
    const nul = await create(mine, 1000, 'clip\0.mp4');
    expect(nul.status).toBe(400);
    expect(nul.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await nul.text();
    expect(JSON.parse(body).code).toBe('request.nul_character');
    expect(body).not.toMatch(/insert|studio_uploads|select/i);

    const noVersion = await create(mine, 1000, 'clip.mp4', {});
    expect(noVersion.status).toBe(412);
    expect((await noVersion.json()).code).toBe('upload.protocol');
    const badMeta = await mine.request('POST', '/api/uploads', undefined, {
      ...TUS,
      'upload-length': '1000',
      'upload-metadata': 'filename not-base64!',
    });
    expect(badMeta.status).toBe(400);
    expect((await badMeta.json()).code).toBe('upload.bad_request');

    const made = await create(mine, 2000, 'clip.mp4', { ...TUS, origin: 'https://elsewhere.example' });
    expect(made.status).toBe(403); // another site's Origin: the CSRF check
    const ok = await create(mine, 2000);
    expect(ok.status).toBe(201);
    expect(ok.headers.get('access-control-allow-origin')).toBeNull();
    const id = idOf(ok);
    const wrongOffset = await patch(mine, `/api/uploads/${id}`, 500, Buffer.alloc(10));
    expect(wrongOffset.status).toBe(409);
    expect(wrongOffset.headers.get('access-control-allow-origin')).toBeNull();
    expect(await wrongOffset.json()).toMatchObject({ code: 'upload.offset_conflict' });
    const head = await mine.request('HEAD', `/api/uploads/${id}`, undefined, TUS);
    expect(head.status).toBe(200);
    expect(head.headers.get('access-control-allow-origin')).toBeNull();
    await mine.request('DELETE', `/api/uploads/${id}`, undefined, TUS);
  });
});
