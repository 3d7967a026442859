// The frame size and length read from an MP4's header (src/server/lib/mp4-frame.ts), on real files
// made by ffmpeg: `moov` first (faststart, read from the first bytes), `moov` last (asked for by its
// offset after `mdat`), a file that is not an MP4, and a box that lies about its size.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { walkMp4 } from '../../src/server/lib/mp4-frame';
import { toneMp4 } from '../fakes/media-samples';

/** Walks as the adapter does: each `next` answered with that range of the file. */
function walk(file: Buffer) {
  let offset = 0;
  let length = 64 * 1024;
  const asked: number[] = [];
  for (let i = 0; i < 4; i++) {
    asked.push(offset);
    const w = walkMp4(file.subarray(offset, offset + length), offset, file.length);
    if (!w || 'frame' in w) return { result: w, asked };
    ({ offset, length } = w.next);
  }
  return { result: null, asked };
}

describe('MP4 frame from its header', () => {
  it('reads a faststart file from its first range', () => {
    const { result, asked } = walk(fs.readFileSync(toneMp4(2, { faststart: true, size: '720x1280' })));
    expect(result).toEqual({ frame: { width: 720, height: 1280, duration: expect.closeTo(2, 0) } });
    expect(asked).toEqual([0]);
  });

  it('finds a moov after the media by its offset', () => {
    const file = fs.readFileSync(toneMp4(2, { size: '640x360' }));
    const { result, asked } = walk(file);
    expect(result).toMatchObject({ frame: { width: 640, height: 360 } });
    expect(asked.length).toBe(2);
    expect(asked[1]).toBeGreaterThan(1000);
  });

  it('gives up on what is not an MP4 or lies about its boxes', () => {
    expect(walkMp4(Buffer.from('<html><body>not a video</body></html>'.repeat(10)), 0, 370)).toBeNull();
    const lying = Buffer.alloc(64);
    lying.writeUInt32BE(4, 0); // a box smaller than its own header
    lying.write('ftyp', 4, 'latin1');
    expect(walkMp4(lying, 0, 64)).toBeNull();
    const huge = Buffer.alloc(64);
    huge.writeUInt32BE(0x7fffffff, 0);
    huge.write('moov', 4, 'latin1');
    expect(walkMp4(huge, 0, null)).toBeNull(); // a header over the ceiling is not read
  });
});
