// Whether an upload was cut off, judged by the container's declared sizes against the bytes present
// (issue 36), on real files made by ffmpeg and cut the ways an interrupted upload cuts them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { containerVerdict } from '../../src/server/adapters/media/container-check.js';
import { toneMp4, unevenSoundVideo } from '../fakes/media-samples.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-container-'));
function cut(file: string, fraction: number): string {
  const bytes = fs.readFileSync(file);
  const out = path.join(dir, `${path.basename(file)}-${fraction}${path.extname(file)}`);
  fs.writeFileSync(out, bytes.subarray(0, Math.floor(bytes.length * fraction)));
  return out;
}

describe('container check', () => {
  it.each([
    ['an MP4 with its moov last', () => toneMp4(3)],
    ['an MP4 with its moov first', () => toneMp4(3, { faststart: true })],
    ['a fragmented MP4', () => unevenSoundVideo(3, 3, 'fmp4')],
    ['an MP4 whose sound ends 0.8 s before its picture', () => unevenSoundVideo(4, 3.2)],
    ['a WebM', () => unevenSoundVideo(3, 3, 'webm')],
  ])('%s is whole', async (_name, make) => {
    expect(await containerVerdict(make())).toBe('whole');
  });

  it.each([
    ['an MP4 cut before its moov (moov last)', () => cut(toneMp4(3), 0.6)],
    ['an MP4 cut inside its media data (moov first)', () => cut(toneMp4(3, { faststart: true }), 0.5)],
    ['a fragmented MP4 cut inside a fragment', () => cut(unevenSoundVideo(3, 3, 'fmp4'), 0.7)],
    ['a WebM cut midway', () => cut(unevenSoundVideo(3, 3, 'webm'), 0.5)],
  ])('%s is cut', async (_name, make) => {
    expect(await containerVerdict(make())).toBe('cut');
  });

  it('cannot tell for garbage that starts like an MP4, nor for text', async () => {
    const fake = path.join(dir, 'fake.mp4');
    fs.writeFileSync(fake, Buffer.concat([Buffer.from('\0\0\0\x18ftypisom', 'latin1'), Buffer.alloc(5000, 7)]));
    expect(await containerVerdict(fake)).toBe('unknown');
    const text = path.join(dir, 'notes.mp4');
    fs.writeFileSync(text, 'These are my notes\n'.repeat(100));
    expect(await containerVerdict(text)).toBe('unknown');
  });
});
