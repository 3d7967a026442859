// Issue 47: what each target does with a clip (video-plan.ts): the file as it is where taken, a
// remux where only the index is in the wrong place, a re-encode for a codec, container, frame or
// size the target refuses, and a refusal for a length no re-encode can fix.
import { describe, expect, it } from 'vitest';
import { REPOST_TARGET_LIMITS } from '../../src/shared/platform-limits';
import { fitFrame, planVideo, type ProbedClip } from '../../src/server/services/repost-kit/video-plan';

const mp4: ProbedClip = {
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  videoCodec: 'h264',
  audioCodec: 'aac',
  width: 576,
  height: 1024,
  duration: 20,
  size: 5_000_000,
  indexFirst: true,
};
const rules = (t: keyof typeof REPOST_TARGET_LIMITS) => REPOST_TARGET_LIMITS[t].video;

describe('planVideo', () => {
  it('keeps an H.264/AAC MP4 with its index first for every target', () => {
    for (const t of ['reels', 'shorts', 'tiktok', 'bluesky'] as const)
      expect(planVideo(rules(t), mp4)).toEqual({ action: 'keep' });
  });
  it('moves the index first only where the target needs it', () => {
    const late = { ...mp4, indexFirst: false };
    expect(planVideo(rules('reels'), late)).toEqual({ action: 'remux' });
    expect(planVideo(rules('tiktok'), late)).toEqual({ action: 'keep' });
  });
  it('re-encodes what a target refuses: HEVC for one, WebM for others, a frame too large, a file too big', () => {
    expect(planVideo(rules('bluesky'), { ...mp4, videoCodec: 'hevc' })).toEqual({
      action: 'encode',
      width: 576,
      height: 1024,
    });
    expect(planVideo(rules('reels'), { ...mp4, videoCodec: 'hevc' })).toEqual({ action: 'keep' });
    const webm = { ...mp4, formatName: 'matroska,webm', videoCodec: 'vp9', audioCodec: 'opus' };
    expect(planVideo(rules('tiktok'), webm)).toEqual({ action: 'keep' });
    expect(planVideo(rules('reels'), webm).action).toBe('encode');
    expect(planVideo(rules('reels'), { ...mp4, width: 2160, height: 3840 })).toEqual({
      action: 'encode',
      width: 1920,
      height: 3412,
    });
    expect(planVideo(rules('bluesky'), { ...mp4, size: 400_000_000 }).action).toBe('encode');
  });
  it('refuses a clip outside the target’s length, and only that target', () => {
    const long = { ...mp4, duration: 200 };
    expect(planVideo(rules('shorts'), long)).toEqual({ action: 'refuse', reason: 'too_long', limit: 180 });
    expect(planVideo(rules('bluesky'), long).action).toBe('refuse');
    expect(planVideo(rules('tiktok'), long)).toEqual({ action: 'keep' });
    expect(planVideo(rules('reels'), { ...mp4, duration: 2 })).toEqual({
      action: 'refuse',
      reason: 'too_short',
      limit: 3,
    });
  });
  it('fits a frame with even sides, keeping its shape', () => {
    expect(fitFrame(rules('reels'), 1081, 1921)).toEqual({ width: 1080, height: 1920 });
    expect(fitFrame(rules('reels'), 3000, 1000)).toEqual({ width: 1920, height: 640 });
  });
});
