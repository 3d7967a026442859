// A platform's sharpest gears can be HEVC video-only DASH files with the sound apart
// (decision 0014): one ffmpeg stream copy puts them together, without re-encoding.
// `hvc1` is the sample entry Apple devices and browsers need to play HEVC in MP4; +faststart puts
// the index first so players start at once.
import { checkOutputFile, runProcess } from './media-runner.js';
import { processFailure, type MediaProcessor } from './media-processor.js';

export function remuxArgs(video: string, audio: string, output: string): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-xerror',
    '-y',
    '-i',
    video,
    '-i',
    audio,
    '-map',
    '0:v:0',
    '-map',
    '1:a:0',
    '-c',
    'copy',
    '-tag:v',
    'hvc1',
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
}

export async function remuxVideoAndSound(
  media: MediaProcessor,
  video: string,
  audio: string,
  output: string,
  signal?: AbortSignal,
): Promise<number> {
  try {
    await runProcess(media.config.ffmpeg, remuxArgs(video, audio, output), {
      timeoutMs: media.config.timeoutMs,
      signal,
    });
  } catch (err) {
    throw processFailure(err);
  }
  return checkOutputFile(output, media.config.maxInputBytes);
}
