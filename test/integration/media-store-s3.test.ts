// Results in an S3-compatible bucket (fake S3 on loopback): stored with SigV4, served through the
// product's signed link with ranges, removed by the cleanup job; a partial S3_* setup is refused.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { startFakeS3 } from '../fakes/fake-s3.js';
import { toneMp4 } from '../fakes/media-samples.js';

describe.each(DB_KINDS)('media store on S3 (%s)', (db) => {
  let tt: FakeTikTok;
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    s3 = await startFakeS3({ bucket: 'smt-media', accessKeyId: 'AKIDTEST' });
    t = await createTestApp({
      db,
      env: {
        UPSTREAM_HOST_MAP: tt.hostMapJson,
        S3_ENDPOINT: s3.url,
        S3_BUCKET: 'smt-media',
        S3_ACCESS_KEY_ID: 'AKIDTEST',
        S3_SECRET_ACCESS_KEY: 'secret-test-key',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
    await tt.close();
  });

  it('stores the MP3 in the bucket, serves it by signed link, and cleans it up', async () => {
    const pro = await t.signUp({ pro: true });
    const v = tt.addVideo({ media: { file: toneMp4(3, { faststart: true }) }, duration: 3 });
    const body = await (await pro.post('/api/audio/extract', { url: v.url })).json();
    const key = body.audioUrl.split('?')[0].replace('/api/media/', '');
    const stored = s3.objects.get(key);
    expect(stored?.contentType).toBe('audio/mpeg');
    expect(String(stored?.body.length)).toBe(body.size);
    expect(fs.existsSync(`${t.ctx.config.DATA_DIR}/media/${key}`)).toBe(false);

    const full = Buffer.from(await (await fetch(t.baseUrl + body.audioUrl)).arrayBuffer());
    expect(full.equals(stored!.body)).toBe(true);
    const part = await fetch(t.baseUrl + body.audioUrl, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(stored!.body.subarray(10, 20))).toBe(true);

    const row = (await t.ctx.repos.mediaResults.findFresh(`audio:${v.id}`))!;
    await t.ctx.repos.mediaResults.upsert({ ...row, expiresAt: new Date(Date.now() - 1) });
    await t.ctx.services.mediaResults.cleanup();
    expect(s3.objects.has(key)).toBe(false);
    expect(s3.log).toContain(`DELETE ${key}`);
  });
});

describe('S3 configuration', () => {
  it('refuses a partial S3_* setup naming the missing variable', async () => {
    await expect(createTestApp({ env: { S3_ENDPOINT: 'http://127.0.0.1:9', S3_BUCKET: 'b' } })).rejects.toThrow(
      /S3_ACCESS_KEY_ID is required/,
    );
  });
});
