// With no system ffmpeg, the product falls back to the binaries shipped in the npm packages; the
// same argument lists must work with that older static build (ffmpeg 4.1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateFfmpeg, locateFfprobe } from '../../src/server/adapters/media/binaries.js';
import { createMediaProcessor } from '../../src/server/adapters/media/media-processor.js';
import { ffprobe, mutedMp4, toneMp4 } from '../fakes/media-samples.js';

describe('npm-shipped ffmpeg fallback', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-npm-ffmpeg-'));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const ff = locateFfmpeg(undefined, '/nonexistent');
  const fp = locateFfprobe(undefined, '/nonexistent');
  const media = createMediaProcessor({
    ffmpeg: ff.path,
    ffprobe: fp.path,
    tmpRoot: tmp,
    timeoutMs: 60_000,
    maxInputBytes: 1e9,
  });

  it('is found inside node_modules when PATH has no ffmpeg, and an explicit path wins', () => {
    expect(ff.source).toBe('npm');
    expect(ff.path).toContain('node_modules/@ffmpeg-installer/');
    expect(fp.source).toBe('npm');
    expect(locateFfmpeg('/usr/bin/ffmpeg', '/nonexistent')).toEqual({ path: '/usr/bin/ffmpeg', source: 'env' });
    expect(() => locateFfmpeg('/nonexistent/ffmpeg')).toThrow(/FFMPEG_PATH/);
  });

  it('extracts MP3 192k from a moov-at-end MP4 and reports a missing sound track', async () => {
    const out = path.join(tmp, 'a.mp3');
    const r = await media.toMp3(toneMp4(6), out);
    expect(Math.abs(r.duration - 6)).toBeLessThanOrEqual(0.1);
    const p = ffprobe(out);
    expect(p.codec).toBe('mp3');
    expect(Math.abs(p.bitRate - 192_000)).toBeLessThan(1500);
    await expect(media.toMp3(mutedMp4(2), path.join(tmp, 'b.mp3'))).rejects.toMatchObject({ code: 'media.no_audio' });
  });
});
