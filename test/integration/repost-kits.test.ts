// Repost kits (issue 47): from a link to one ZIP with a folder per target, every file also on its
// own; the video kept byte for byte where the target takes it, its index moved first where the
// target needs that, an over-long clip failing that target only; texts within each target's rules;
// the credit line for someone else's post; one download from a free account.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { execFileSync } from 'node:child_process';
import { FFPROBE, toneMp4 } from '../fakes/media-samples.js';
import { zipEntries } from '../helpers/zip.js';
import { REPOST_TARGET_LIMITS, REPOST_TARGETS, type RepostTarget } from '../../src/shared/platform-limits.js';
import { fitsRules, hashtagsIn } from '../../src/shared/repost-texts.js';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

type Part = { name: string; files: Array<{ name: string; url: string; size: string }>; error?: { code: string } };
type KitView = { id: string; state: string; result?: { url: string }; parts?: Part[] };

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-repost-'));
/** ffprobe of bytes (written to a temp file): the first stream's codec and frame. */
async function probeBytes(bytes: Buffer, name: string) {
  const file = path.join(tmp, name);
  await fsp.writeFile(file, bytes);
  const out = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-of', 'json', '-show_streams', file], { encoding: 'utf8' }),
  ) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }> };
  const v = out.streams.find((s) => s.codec_type === 'video')!;
  return { videoCodec: v.codec_name, width: v.width, height: v.height };
}
const moovFirst = (b: Buffer) => b.indexOf('moov') < b.indexOf('mdat');

describe.each(DB_KINDS)('repost kits (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
  });
  afterAll(async () => {
    await tt.close();
    await t.close();
  });

  it('makes a ZIP with a folder per target: the file as it is where taken, texts within limits, the credit', async () => {
    // moov at the end: Reels wants the index first (a remux), the others take the file as it is.
    const source = toneMp4(4);
    const desc = `Sunset at the pier, filmed last night. ${'🌅 مرحبا '.repeat(60)} ${Array.from({ length: 200 }, (_, i) => `#t${i}`).join(' ')}`;
    const v = tt.addVideo({ desc, media: { file: source }, duration: 4, user: 'pier.films' });
    const free = await t.signUp();
    const res = await free.post('/api/repost-kits', { url: v.url, targets: [...REPOST_TARGETS], coverAt: 1 });
    expect(res.status).toBe(200);
    const kit = (await res.json()) as KitView;
    expect(kit.state).toBe('done');
    expect(kit.parts?.map((p) => p.name)).toEqual([...REPOST_TARGETS]);
    const zip = await zipEntries(Buffer.from(await (await free.get(kit.result!.url)).arrayBuffer()));
    const entry = (name: string) => zip.find((e) => e.name === name)?.bytes;
    const original = fs.readFileSync(source);
    for (const target of REPOST_TARGETS) {
      const names = zip.filter((e) => e.name.startsWith(`${target}/`)).map((e) => e.name);
      const video = names.find((n) => n.endsWith('.mp4'))!;
      expect(video).toMatch(new RegExp(`^${target}/tiktok-pier\\.films-\\d+\\.mp4$`));
      const bytes = entry(video)!;
      if (target === 'reels') {
        expect(moovFirst(bytes)).toBe(true);
        expect(bytes.equals(original)).toBe(false);
      } else expect(bytes.equals(original)).toBe(true);
      const probed = await probeBytes(bytes, `${target}.mp4`);
      expect(probed.videoCodec).toBe('h264');
      const cover = await probeBytes(entry(`${target}/cover.jpg`)!, `${target}.jpg`);
      expect([cover.width, cover.height]).toEqual([
        REPOST_TARGET_LIMITS[target].cover.width,
        REPOST_TARGET_LIMITS[target].cover.height,
      ]);
      const text = entry(`${target}/caption.txt`)!.toString('utf8').replace(/\n$/, '');
      const rules = REPOST_TARGET_LIMITS[target].caption;
      expect(fitsRules(rules, text)).toBe(true);
      expect(hashtagsIn(text).length).toBeGreaterThan(0);
      expect(hashtagsIn(text).length).toBeLessThanOrEqual(rules.hashtagLimit);
      expect(text).toContain('@pier.films');
      expect(text).toContain(v.url);
      expect(Boolean(entry(`${target}/title.txt`))).toBe(Boolean(rules.titleLimit));
      // Every file is also on its own.
      const part = kit.parts!.find((p) => p.name === target)!;
      const alone = part.files.find((f) => f.name === 'caption.txt')!;
      expect(await (await free.get(alone.url)).text()).toBe(`${text}\n`);
    }
    const user = await t.ctx.repos.users.findById(free.userId);
    expect(user?.downloadCount).toBe(1);
  });

  it('fails an over-long clip for the target that refuses it and still makes the others', async () => {
    const longClip = toneMp4(185, { faststart: true, size: '160x284' });
    const v = tt.addVideo({ desc: 'A long one', media: { file: longClip }, duration: 185 });
    const pro = await t.signUp({ pro: true });
    const targets: RepostTarget[] = ['shorts', 'tiktok'];
    const res = await pro.post('/api/repost-kits', { url: v.url, targets }, { prefer: 'respond-async' });
    let job = (await res.json()) as KitView;
    while (job.state === 'queued' || job.state === 'running')
      job = (await (await pro.get(`/api/media-jobs/${job.id}?wait=5000&seen=${job.state}:`)).json()) as KitView;
    expect(job.state).toBe('done');
    const shorts = job.parts!.find((p) => p.name === 'shorts')!;
    expect(shorts.error?.code).toBe('repost.target_refused');
    expect(shorts.files.map((f) => f.name)).toEqual(['caption.txt', 'title.txt']);
    const tiktok = job.parts!.find((p) => p.name === 'tiktok')!;
    expect(tiktok.error).toBeUndefined();
    const names = tiktok.files.map((f) => f.name);
    expect(names).toHaveLength(3);
    expect(names).toEqual(expect.arrayContaining(['caption.txt', 'cover.jpg', expect.stringMatching(/\.mp4$/)]));
  });

  it('keeps the credit on for someone else’s post, holds edited texts to the rules, and answers a preview', async () => {
    const v = tt.addVideo({ desc: 'Hello #world', media: { file: toneMp4(3, { faststart: true }) }, duration: 3 });
    const free = await t.signUp();
    const off = await free.post('/api/repost-kits', { url: v.url, targets: ['bluesky'], credit: false });
    expect(off.status).toBe(403);
    expect((await off.json()).code).toBe('repost.credit_required');

    const preview = await (await free.post('/api/repost-kits/preview', { url: v.url, targets: ['bluesky'] })).json();
    expect(preview.creditOptional).toBe(false);
    expect(preview.cards[0].text).toContain(v.url);

    const edited = `${'ب'.repeat(500)} ${Array.from({ length: 200 }, (_, i) => `#e${i}`).join(' ')}`;
    const res = await free.post('/api/repost-kits', { url: v.url, targets: ['bluesky'], texts: { bluesky: edited } });
    const kit = (await res.json()) as KitView;
    const caption = kit.parts![0].files.find((f) => f.name === 'caption.txt')!;
    const text = (await (await free.get(caption.url)).text()).replace(/\n$/, '');
    expect(fitsRules(REPOST_TARGET_LIMITS.bluesky.caption, text)).toBe(true);
    expect(hashtagsIn(text).length).toBeLessThanOrEqual(REPOST_TARGET_LIMITS.bluesky.caption.hashtagLimit);
  });

  it('makes a kit from a caption project with its captions burned in, crediting the linked post', async () => {
    const vtt = 'WEBVTT\n\n00:00:00.200 --> 00:00:02.500\nhello there everyone\n';
    const source = toneMp4(3, { faststart: true });
    const v = tt.addVideo({
      desc: 'Studio clip',
      subtitles: [{ lang: 'eng-US', vtt }],
      media: { file: source },
      duration: 3,
    });
    const pro = await t.signUp({ pro: true });
    const project = await (await pro.post('/api/caption-projects', { source: { kind: 'link', url: v.url } })).json();
    expect(project.lines.length).toBeGreaterThan(0);
    const burnLink = await pro.post('/api/repost-kits', { url: v.url, targets: ['tiktok'], burnCaptions: true });
    expect((await burnLink.json()).code).toBe('repost.burn_needs_project');
    const off = await pro.post('/api/repost-kits', { projectId: project.id, targets: ['tiktok'], credit: false });
    expect((await off.json()).code).toBe('repost.credit_required');

    const res = await pro.post('/api/repost-kits', { projectId: project.id, targets: ['tiktok'], burnCaptions: true });
    expect(res.status).toBe(200);
    const kit = (await res.json()) as KitView;
    const files = kit.parts![0].files;
    const video = Buffer.from(await (await pro.get(files.find((f) => f.name.endsWith('.mp4'))!.url)).arrayBuffer());
    expect(video.equals(fs.readFileSync(source))).toBe(false); // burned in: a new encode
    expect((await probeBytes(video, 'burned.mp4')).videoCodec).toBe('h264');
    const caption = await (await pro.get(files.find((f) => f.name === 'caption.txt')!.url)).text();
    expect(caption).toContain(v.url);
  });

  it('cancels a running kit for its owner only, and gives the free download back', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(4) }, duration: 4, bytesPerSecond: 20_000 });
    const free = await t.signUp();
    const res = await free.post('/api/repost-kits', { url: v.url, targets: ['tiktok'] }, { prefer: 'respond-async' });
    expect(res.status).toBe(202);
    let job = (await res.json()) as KitView;
    while (job.state === 'queued')
      job = (await (await free.get(`/api/media-jobs/${job.id}?wait=5000&seen=${job.state}:`)).json()) as KitView;
    expect(job.state).toBe('running');
    expect((await t.ctx.repos.users.findById(free.userId))?.downloadsReserved).toBe(1);
    const other = await t.signUp();
    expect((await other.request('DELETE', `/api/media-jobs/${job.id}`)).status).toBe(404);
    const cancelled = await free.request('DELETE', `/api/media-jobs/${job.id}`);
    expect(await cancelled.json()).toMatchObject({ state: 'failed', error: { code: 'media.interrupted' } });
    await expect
      .poll(async () => (await t.ctx.repos.users.findById(free.userId))?.downloadsReserved, { timeout: 15_000 })
      .toBe(0);
    expect((await t.ctx.repos.users.findById(free.userId))?.downloadCount).toBe(0);
  });

  it('costs a free account one download: with none left the kit is refused', async () => {
    const v = tt.addVideo({ media: { file: toneMp4(3, { faststart: true }) }, duration: 3 });
    const free = await t.signUp({ downloadCount: 1000 });
    const res = await free.post('/api/repost-kits', { url: v.url, targets: ['tiktok'] });
    expect(res.status).toBe(403);
    expect((await res.json()).code).toBe('quota.exhausted');
  });
});
