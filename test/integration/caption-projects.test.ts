// Caption studio projects (issue 29) through the real app on PGlite and PostgreSQL: a project from a
// TikTok link (its own captions, word times spread), owner-only reads, autosave with revision and
// 409, hostile text kept plain and bounded, exports, the source video with Range, fonts, and the
// burn-in render checked with ffprobe (H.264, source frame size, sound copied, same duration).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { DB_KINDS } from '../helpers/test-db.js';
import { startFakeTikTok, type FakeTikTok } from '../fakes/tiktok/fake-tiktok.js';
import { FFPROBE, toneMp4 } from '../fakes/media-samples.js';
import type { CaptionLine, CaptionProject } from '../../src/shared/contracts/caption-studio.js';

const VTT = `WEBVTT

00:00:00.200 --> 00:00:01.800
Hey everyone welcome back

00:00:02.000 --> 00:00:03.600
to my kitchen
`;

type Client = Awaited<ReturnType<TestApp['signUp']>>;

function streams(file: string) {
  const j = JSON.parse(
    execFileSync(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
      encoding: 'utf8',
    }),
  ) as { format: { duration: string }; streams: Array<Record<string, unknown>> };
  return {
    duration: Number(j.format.duration),
    video: j.streams.find((s) => s.codec_type === 'video') ?? {},
    audio: j.streams.find((s) => s.codec_type === 'audio') ?? {},
  };
}

describe.each(DB_KINDS)('caption projects (%s)', (db) => {
  let tt: FakeTikTok;
  let t: TestApp;
  let pro: Client;
  let other: Client;
  let project: CaptionProject;
  const source = toneMp4(4, { faststart: true, size: '320x568' });

  beforeAll(async () => {
    tt = await startFakeTikTok();
    t = await createTestApp({ db, env: { UPSTREAM_HOST_MAP: tt.hostMapJson } });
    pro = await t.signUp({ pro: true });
    other = await t.signUp({ pro: true });
  });
  afterAll(async () => {
    await t.close();
    await tt.close();
  });

  it('opens a project from a link: timed words from its captions, the frame size of its video', async () => {
    const v = tt.addVideo({
      desc: 'Kitchen',
      subtitles: [{ lang: 'eng-US', vtt: VTT }],
      media: { file: source },
      duration: 4,
    });
    const free = await t.signUp();
    expect((await free.post('/api/caption-projects', { source: { kind: 'link', url: v.url } })).status).toBe(403);
    const res = await pro.post('/api/caption-projects', { source: { kind: 'link', url: v.url } });
    expect(res.status).toBe(201);
    project = (await res.json()) as CaptionProject;
    expect(project).toMatchObject({ title: 'Kitchen', width: 320, height: 568, engine: 'captions', revision: 0 });
    expect(project.duration).toBeCloseTo(4, 0);
    expect(project.lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual([
      'Hey everyone welcome back',
      'to my kitchen',
    ]);
    const kitchen = project.lines[1].words[2];
    expect(kitchen.start).toBeGreaterThan(2);
    expect(kitchen.end).toBeCloseTo(3.6, 2);

    const list = (await (await pro.get('/api/caption-projects')).json()) as Array<{ id: string }>;
    expect(list.map((p) => p.id)).toContain(project.id);
    expect(((await (await other.get('/api/caption-projects')).json()) as unknown[]).length).toBe(0);
  });

  it("is the owner's only: anyone else gets 404 for every route", async () => {
    for (const p of ['', '/media', '/export/srt']) {
      const res = await other.get(`/api/caption-projects/${project.id}${p}`);
      expect(res.status).toBe(404);
      expect((await res.json()).code).toBe('studio.not_found');
    }
    const put = await other.request('PUT', `/api/caption-projects/${project.id}`, {
      revision: 0,
      lines: project.lines,
      style: project.style,
    });
    expect(put.status).toBe(404);
    expect((await other.post(`/api/caption-projects/${project.id}/render`)).status).toBe(404);
  });

  it('saves with a revision: a stale save is a 409 and changes nothing', async () => {
    const lines: CaptionLine[] = structuredClone(project.lines);
    lines[1].words[2].text = 'studio';
    const url = `/api/caption-projects/${project.id}`;
    const saved = await pro.request('PUT', url, { revision: 0, lines, style: { ...project.style, preset: 'boxed' } });
    expect(saved.status).toBe(200);
    expect((await saved.json()).revision).toBe(1);
    const stale = await pro.request('PUT', url, { revision: 0, lines: project.lines, style: project.style });
    expect(stale.status).toBe(409);
    expect((await stale.json()).code).toBe('studio.stale_revision');
    const now = (await (await pro.get(url)).json()) as CaptionProject;
    expect(now.revision).toBe(1);
    expect(now.style.preset).toBe('boxed');
    expect(now.lines[1].words[2].text).toBe('studio');
    project = now;
  });

  it('exports SRT, VTT with word times, ASS and TXT of the saved words', async () => {
    const get = (f: string) => pro.get(`/api/caption-projects/${project.id}/export/${f}`);
    const srt = await get('srt');
    expect(srt.headers.get('content-disposition')).toContain('Kitchen.srt');
    expect(await srt.text()).toMatch(/00:00:02,000 --> 00:00:03,600\r?\nto my studio/);
    const vtt = await (await get('vtt')).text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toMatch(/<00:00:0\d\.\d{3}>/); // word timing inside the cue
    const ass = await get('ass');
    expect(ass.headers.get('content-type')).toContain('text/x-ssa');
    expect(await ass.text()).toMatch(/\[Events\][\s\S]*Dialogue:[\s\S]*studio/);
    expect((await (await get('txt')).text()).trim()).toContain('to my studio');
    expect((await get('pdf')).status).toBe(400);
  });

  it('keeps hostile text plain and bounded: override tags, drawing commands, \\N, 10,000 words', async () => {
    const hostile = ['{\\p1}m', '0', '0', 'l', '100', '0{\\p0}', '\\N\\N', '{\\fs400\\c&H0000FF&}BIG', 'x'.repeat(64)];
    const many: CaptionLine[] = Array.from({ length: 250 }, (_, i) => ({
      id: `m${i}`,
      words: Array.from({ length: 40 }, (_, k) => ({
        text: `w${k}`,
        start: (i * 40 + k) / 2500,
        end: (i * 40 + k + 1) / 2500,
      })),
    }));
    const lines: CaptionLine[] = [
      { id: 'h', words: hostile.map((text, i) => ({ text, start: 0.1 + i * 0.1, end: 0.2 + i * 0.1 })) },
      ...many,
    ];
    expect(lines.reduce((n, l) => n + l.words.length, 0)).toBe(10_009);
    const url = `/api/caption-projects/${project.id}`;
    const saved = await pro.request('PUT', url, { revision: project.revision, lines, style: project.style });
    expect(saved.status).toBe(200);
    project = (await saved.json()) as CaptionProject;
    expect(project.lines[0].words.map((w) => w.text)).toEqual(hostile); // shown as typed
    const ass = await (await pro.get(`${url}/export/ass`)).text();
    const events = ass.split('\n').filter((l) => l.startsWith('Dialogue:'));
    // No override block is opened by the text: every brace from a person is escaped.
    for (const e of events) expect(e.split(',').slice(9).join(',')).not.toMatch(/(^|[^\\])\{\\p1\}/);
    expect(ass).not.toContain('{\\fs400');
    expect(ass.length).toBeLessThan(5_000_000);
    // A word longer than the contract's bound, and more lines than allowed, are refused with a 400.
    const long = [{ id: 'l', words: [{ text: 'y'.repeat(10_000), start: 0, end: 1 }] }];
    const tooLong = await pro.request('PUT', url, { revision: project.revision, lines: long, style: project.style });
    expect(tooLong.status).toBe(400);
    expect((await tooLong.json()).code).toBe('request.invalid');
  });

  it('keeps word times within the video: 1e300 or a minute past the end is refused, never saved or exported (issue 34)', async () => {
    const url = `/api/caption-projects/${project.id}`;
    const at = (start: number, end: number): CaptionLine[] => [{ id: 't', words: [{ text: 'late', start, end }] }];
    const seconds = Math.ceil(project.duration / 1000);
    for (const [start, end, code] of [
      [1e300, 1e300 + 1, 'request.invalid'],
      [seconds + 60, seconds + 61, 'studio.time_out_of_range'],
      [0, seconds + 60, 'studio.time_out_of_range'],
    ] as const) {
      const res = await pro.request('PUT', url, {
        revision: project.revision,
        lines: at(start, end),
        style: project.style,
      });
      expect([start, res.status, (await res.json()).code]).toEqual([start, 400, code]);
    }
    const srt = await (await pro.get(`${url}/export/srt`)).text();
    expect(srt).not.toMatch(/e\+|late/);
    expect((await pro.get(url).then((r) => r.json())).revision).toBe(project.revision);
    // The last second of the video is fine.
    const ok = await pro.request('PUT', url, {
      revision: project.revision,
      lines: at(seconds - 1, seconds),
      style: project.style,
    });
    expect(ok.status).toBe(200);
    project = (await ok.json()) as CaptionProject;
  });

  it('serves the source video with Range for the preview, and the fonts it draws with', async () => {
    const whole = await pro.get(`/api/caption-projects/${project.id}/media`);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(fs.readFileSync(source))).toBe(true);
    const part = await pro.get(`/api/caption-projects/${project.id}/media`, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${fs.statSync(source).size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(fs.readFileSync(source).subarray(100, 200))).toBe(true);
    const font = await pro.get('/api/caption-studio/fonts/Inter-Bold.otf');
    expect(font.status).toBe(200);
    expect(font.headers.get('content-type')).toBe('font/otf');
    expect(
      Buffer.from(await font.arrayBuffer())
        .subarray(0, 4)
        .toString('latin1'),
    ).toBe('OTTO');
    expect((await pro.get('/api/caption-studio/fonts/..%2F..%2Fetc%2Fpasswd')).status).toBe(400);
  });

  it('renders: H.264 at the source frame size, the sound copied, the same duration; progress while it runs', async () => {
    // Plain captions for the render (the hostile ones above are checked through the ASS export).
    const url = `/api/caption-projects/${project.id}`;
    const lines: CaptionLine[] = [{ id: 'a', words: [{ text: 'Hello', start: 0.5, end: 3.5 }] }];
    project = await (await pro.request('PUT', url, { revision: project.revision, lines, style: project.style })).json();
    const first = await pro.post(`${url}/render`, undefined, { prefer: 'respond-async' });
    expect([200, 202]).toContain(first.status);
    if (first.status === 202) {
      const job = await first.json();
      for (let s = job; s.state === 'queued' || s.state === 'running'; ) {
        if (s.state === 'running' && s.progress !== undefined) expect(s.progress).toBeLessThanOrEqual(100);
        await new Promise((r) => setTimeout(r, 200));
        s = await (await pro.get(`/api/media-jobs/${job.id}`)).json();
        expect(s.state).not.toBe('failed');
      }
    }
    const res = await pro.post(`${url}/render`);
    expect(res.status).toBe(200);
    const result = await res.json();
    expect(result.url).toMatch(/^\/api\/media\/caption-render\//);
    const file = path.join(os.tmpdir(), `render-${process.pid}-${db}.mp4`);
    const bytes = Buffer.from(await (await t.client().get(result.url)).arrayBuffer());
    fs.writeFileSync(file, bytes);
    expect(String(bytes.length)).toBe(result.size);
    const out = streams(file);
    const src = streams(source);
    expect(out.video).toMatchObject({ codec_name: 'h264', width: 320, height: 568 });
    for (const k of [
      'codec_name',
      'profile',
      'sample_rate',
      'channels',
      'channel_layout',
      'bit_rate',
      'extradata_size',
    ])
      expect(out.audio[k]).toEqual(src.audio[k]);
    expect(Math.abs(out.duration - src.duration)).toBeLessThan(0.1);
    fs.rmSync(file, { force: true });
  }, 120_000);
});
