// The render reads the source's frame size, length and sound codec from what was stored with it
// (issue 46: a second ffprobe cost 0.1-0.7 s of every render); a source stored before the sound
// codec was kept, or with odd values, is probed again.
import { describe, expect, it } from 'vitest';
import { knownProbe } from '../../src/server/services/caption-studio/caption-render.job.js';

describe('knownProbe', () => {
  it('takes the stored frame size, length and sound codec (none is a known answer too)', () => {
    expect(knownProbe({ width: 720, height: 1280, duration: 10, audioCodec: 'aac', title: 't' })).toEqual({
      width: 720,
      height: 1280,
      duration: 10,
      audioCodec: 'aac',
    });
    expect(knownProbe({ width: 720, height: 1280, duration: 10, audioCodec: null })?.audioCodec).toBeNull();
  });

  it('probes again when a value is missing or not a positive number', () => {
    expect(knownProbe({ width: 720, height: 1280, duration: 10 })).toBeNull();
    expect(knownProbe({ width: 0, height: 1280, duration: 10, audioCodec: 'aac' })).toBeNull();
    expect(knownProbe({ width: 720, height: '1280', duration: 10, audioCodec: 'aac' })).toBeNull();
    expect(knownProbe({ width: 720, height: 1280, duration: Number.NaN, audioCodec: 'aac' })).toBeNull();
    expect(knownProbe({ width: 720, height: 1280, duration: 10, audioCodec: 3 })).toBeNull();
    expect(knownProbe(null)).toBeNull();
  });
});
