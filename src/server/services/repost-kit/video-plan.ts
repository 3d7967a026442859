// What each target needs done to the kit's video (issue 47): nothing (the file as it is), a remux
// (the same streams with the index first), or a re-encode (a codec, a container, a frame or a size
// the target refuses); a clip outside the target's length cannot be fixed without cutting it, so
// that target says so and the others are still made.
import type { RepostVideoRules } from '../../../shared/platform-limits.js';

export interface ProbedClip {
  formatName: string;
  videoCodec: string;
  audioCodec: string | null;
  width: number;
  height: number;
  duration: number;
  size: number;
  /** The MP4's index comes before its media data (false for anything else). */
  indexFirst: boolean;
}

export type VideoPlan =
  | { action: 'keep' }
  | { action: 'remux' }
  | { action: 'encode'; width: number; height: number }
  | { action: 'refuse'; reason: 'too_long' | 'too_short'; limit: number };

/** Even dimensions within the target's frame, keeping the picture's shape. */
export function fitFrame(rules: RepostVideoRules, width: number, height: number) {
  const scale = Math.min(1, rules.maxWidth / width, rules.maxHeight / height);
  const even = (n: number) => Math.max(2, Math.floor((n * scale) / 2) * 2);
  return { width: even(width), height: even(height) };
}

export function planVideo(rules: RepostVideoRules, clip: ProbedClip): VideoPlan {
  if (clip.duration > rules.maxSeconds + 0.05) return { action: 'refuse', reason: 'too_long', limit: rules.maxSeconds };
  if (clip.duration < rules.minSeconds) return { action: 'refuse', reason: 'too_short', limit: rules.minSeconds };
  const frame = fitFrame(rules, clip.width, clip.height);
  const streamsOk =
    rules.containers.includes(clip.formatName) &&
    rules.videoCodecs.includes(clip.videoCodec) &&
    (clip.audioCodec === null || rules.audioCodecs.includes(clip.audioCodec)) &&
    frame.width === clip.width &&
    frame.height === clip.height &&
    clip.width % 2 === 0 &&
    clip.height % 2 === 0;
  if (!streamsOk || clip.size > rules.maxBytes) return { action: 'encode', ...frame };
  if (rules.indexFirst && !clip.indexFirst) return { action: 'remux' };
  return { action: 'keep' };
}
