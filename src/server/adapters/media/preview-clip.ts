// The free plan's preview: the first seconds of a video, cut without re-encoding (stream copy is
// cheap: no decode, no encode), with the index up front so a player starts at once.
import { fail } from '../../errors.js';
import { checkOutputFile, runProcess } from './media-runner.js';
import { processFailure, type MediaProcessor } from './media-processor.js';

/** `audio`: the sound apart, for a split file (a video-only file and its sound track, issue 44). */
export function previewClipArgs(input: string, output: string, seconds: number, audio?: string): string[] {
  const sound = audio ? ['-i', audio] : [];
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-xerror',
    '-y',
    '-i',
    input,
    ...sound,
    '-map',
    '0:v:0',
    '-map',
    audio ? '1:a:0' : '0:a:0?',
    '-t',
    seconds.toFixed(1),
    '-c',
    'copy',
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  ];
}

export async function cutPreviewClip(
  media: MediaProcessor,
  input: string,
  output: string,
  seconds: number,
  signal?: AbortSignal,
  audio?: string,
): Promise<number> {
  try {
    await runProcess(media.config.ffmpeg, previewClipArgs(input, output, seconds, audio), {
      timeoutMs: media.config.timeoutMs,
      signal,
    });
  } catch (err) {
    throw processFailure(err);
  }
  const size = checkOutputFile(output, media.config.maxInputBytes);
  if (size < 1024) throw fail('media.unreadable', { variant: 'preview' });
  return size;
}
