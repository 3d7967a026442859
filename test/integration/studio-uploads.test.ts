// Video uploads for the caption studio over tus (issue 29) on PGlite and PostgreSQL, spoken by hand
// as tus-js-client speaks it: creation, a resumed upload (HEAD for the offset, PATCH the rest),
// ownership (404 for anyone else), each bad input refused with a 4xx naming it and nothing kept,
// and a project opened from a finished upload (transcribed offline like a link).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { FFMPEG, mutedMp4, speechMp4, toneMp4, unevenSoundVideo } from '../fakes/media-samples.js';

type Client = Awaited<ReturnType<TestApp['signUp']>>;
const TUS = { 'tus-resumable': '1.0.0' };
const meta = (name: string) => `filename ${Buffer.from(name).toString('base64')}`;

async function create(c: Client, size: number, name: string) {
  const res = await c.request('POST', '/api/uploads', undefined, {
    ...TUS,
    'upload-length': String(size),
    'upload-metadata': meta(name),
  });
  return { res, id: res.headers.get('location')?.split('/').pop() ?? '' };
}
const patch = (c: Client, id: string, offset: number, body: Buffer) =>
  fetch(`${c.baseUrl}/api/uploads/${id}`, {
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

/** Sends a whole file in one creation + one PATCH; the answer to the last byte. */
async function upload(c: Client, file: string, name = path.basename(file)) {
  const bytes = fs.readFileSync(file);
  const { res, id } = await create(c, bytes.length, name);
  expect(res.status).toBe(201);
  return { id, res: await patch(c, id, 0, bytes) };
}

function longVideo(seconds: number): string {
  const out = path.join(os.tmpdir(), `long-${process.pid}-${seconds}.mp4`);
  if (!fs.existsSync(out))
    execFileSync(FFMPEG, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=size=32x32:rate=1:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `anullsrc=r=8000:cl=mono`, '-t', String(seconds)],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-b:a', '8k', '-shortest', out],
    ]);
  return out;
}

describe.each(DB_KINDS)('studio uploads (%s)', (db) => {
  let t: TestApp;
  let pro: Client;
  let other: Client;
  const uploadsDir = () => path.join(t.ctx.config.DATA_DIR, 'tmp', 'uploads');
  const kept = () => fs.readdirSync(uploadsDir());

  beforeAll(async () => {
    t = await createTestApp({ db, env: { MEDIA_MAX_INPUT_MB: '2' } });
    pro = await t.signUp({ pro: true });
    other = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it('resumes a dropped upload at the offset the server has, privately to its owner', async () => {
    const bytes = fs.readFileSync(toneMp4(3, { faststart: true }));
    const free = await t.signUp();
    expect((await create(free, bytes.length, 'a.mp4')).res.status).toBe(403);
    const { res, id } = await create(pro, bytes.length, 'clip.mp4');
    expect(res.status).toBe(201);
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const half = Math.floor(bytes.length / 2);
    expect((await patch(pro, id, 0, bytes.subarray(0, half))).status).toBe(204);
    // The connection dropped here; the client asks where to go on.
    const head = await pro.request('HEAD', `/api/uploads/${id}`, undefined, TUS);
    expect(head.status).toBe(200);
    expect(head.headers.get('upload-offset')).toBe(String(half));
    expect((await other.request('HEAD', `/api/uploads/${id}`, undefined, TUS)).status).toBe(404);
    expect((await patch(other, id, half, bytes.subarray(half))).status).toBe(404);
    // A project cannot start from an unfinished upload.
    const early = await pro.post('/api/caption-projects', { source: { kind: 'upload', uploadId: id } });
    expect(early.status).toBe(409);
    const done = await patch(pro, id, half, bytes.subarray(half));
    expect(done.status).toBe(204);
    expect(kept()).toEqual([]); // moved into the media store
    const row = await t.ctx.repos.captionProjects.findUpload(id);
    expect(row).toMatchObject({ status: 'ready', userId: pro.userId, meta: { width: 320, height: 568 } });
    // Someone else cannot use it as a source.
    const theirs = await other.post('/api/caption-projects', { source: { kind: 'upload', uploadId: id } });
    expect(theirs.status).toBe(404);
    expect((await theirs.json()).code).toBe('upload.not_found');
    // Nor by naming it as a link.
    const sneaky = await other.post('/api/caption-projects', { source: { kind: 'link', url: `upload:${id}` } });
    expect(sneaky.status).toBe(400);
    expect((await sneaky.json()).code).toBe('link.unsupported');
  });

  it.each([
    [
      'not a video',
      () => {
        const f = path.join(os.tmpdir(), `notes-${process.pid}.mp4`);
        fs.writeFileSync(f, 'These are my notes, not a video.\n'.repeat(100));
        return f;
      },
      415,
      'upload.not_video',
    ],
    [
      'that starts like an MP4 but is not one',
      () => {
        const f = path.join(os.tmpdir(), `fake-ftyp-${process.pid}.mp4`);
        fs.writeFileSync(f, Buffer.concat([Buffer.from('\0\0\0\x18ftypisom', 'latin1'), Buffer.alloc(5000, 7)]));
        return f;
      },
      415,
      'upload.not_video',
    ],
    ['no sound track', () => mutedMp4(2), 422, 'upload.no_audio'],
    ['longer than 10 minutes', () => longVideo(610), 422, 'upload.too_long'],
    [
      'cut off midway',
      () => {
        const src = fs.readFileSync(toneMp4(6, { faststart: true }));
        const f = path.join(os.tmpdir(), `cut-${process.pid}.mp4`);
        fs.writeFileSync(f, src.subarray(0, Math.floor(src.length / 2)));
        return f;
      },
      422,
      'upload.incomplete',
    ],
    [
      'cut off before its index (moov last, as phones write)',
      () => {
        const src = fs.readFileSync(toneMp4(6));
        const f = path.join(os.tmpdir(), `cut-moov-${process.pid}.mp4`);
        fs.writeFileSync(f, src.subarray(0, Math.floor(src.length * 0.8)));
        return f;
      },
      422,
      'upload.incomplete',
    ],
  ])(
    'refuses a file %s with a 4xx naming it, and keeps nothing',
    async (_name, make, status, code) => {
      const { id, res } = await upload(pro, make(), 'clip.mp4');
      expect(res.status).toBe(status);
      expect((await res.json()).code).toBe(code);
      expect(kept()).toEqual([]);
      expect(await t.ctx.repos.captionProjects.findUpload(id)).toBeUndefined();
    },
    60_000,
  );

  // Phone editors often leave the sound shorter (or longer) than the picture: such a file is whole.
  it.each([
    ['sound 0.8 s shorter than the picture (MP4)', () => unevenSoundVideo(6, 5.2)],
    ['sound longer than the picture (fragmented MP4)', () => unevenSoundVideo(4, 5, 'fmp4')],
    ['sound 1 s shorter than the picture (WebM)', () => unevenSoundVideo(5, 4, 'webm')],
  ])(
    'accepts a whole file with its %s',
    async (_name, make) => {
      const { id, res } = await upload(pro, make(), 'edited.mp4');
      expect(res.status).toBe(204);
      expect(await t.ctx.repos.captionProjects.findUpload(id)).toBeDefined();
    },
    60_000,
  );

  it('refuses a file that does not start like a video at its first chunk, before the rest is sent', async () => {
    const { res, id } = await create(pro, 1_500_000, 'holiday.mp4');
    expect(res.status).toBe(201);
    const first = await patch(pro, id, 0, Buffer.from('%PDF-1.7 this is a document, not a video\n'.repeat(20)));
    expect(first.status).toBe(415);
    expect((await first.json()).code).toBe('upload.not_video');
    expect(kept()).toEqual([]);
    expect(await t.ctx.repos.captionProjects.findUpload(id)).toBeUndefined();
  });

  it('refuses a file larger than MEDIA_MAX_INPUT_MB before a byte, and a name that is not a video', async () => {
    const big = await create(pro, 3 * 1024 * 1024, 'big.mp4');
    expect(big.res.status).toBe(413);
    expect(await big.res.json()).toMatchObject({ code: 'upload.too_large', params: { mb: 2 } });
    const pdf = await create(pro, 1000, 'slides.pdf');
    expect(pdf.res.status).toBe(415);
    expect(kept()).toEqual([]);
  });

  it('opens a caption project from an upload, transcribed offline with word times', async () => {
    const { id, res } = await upload(pro, speechMp4(['Thank you for watching this video.']), 'talk.mp4');
    expect(res.status).toBe(204);
    const created = await pro.post('/api/caption-projects', { source: { kind: 'upload', uploadId: id } });
    expect(created.status).toBe(201);
    const p = await created.json();
    expect(p).toMatchObject({ title: 'talk.mp4', engine: 'offline', source: { kind: 'upload', uploadId: id } });
    const words = p.lines.flatMap((l: { words: Array<{ text: string }> }) => l.words.map((w) => w.text));
    expect(words.join(' ')).toMatch(/thank you for watching/i);
    const media = await pro.get(`/api/caption-projects/${p.id}/media`, { range: 'bytes=0-9' });
    expect(media.status).toBe(206);
  }, 120_000);
});
