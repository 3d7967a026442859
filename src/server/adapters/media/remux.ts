// A platform's sharpest gears can be HEVC video-only DASH files with the sound apart
// (decision 0014): one ffmpeg stream copy puts them together, without re-encoding.
// `hvc1` is the sample entry Apple devices and browsers need to play HEVC in MP4; H.264 parts
// (split files of other platforms, issue 44) keep their own `avc1`.
// Streamed (issue 38, decision 0073): ffmpeg reads each part from a pipe as it arrives (or from
// its file when its index is at the end) and writes a fragmented MP4 to stdout, which is sent while
// it is made; the stored copy is then rewritten with its index first (+faststart) for later requests.
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { checkOutputFile, runProcess } from './media-runner.js';
import { processFailure, type MediaProcessor } from './media-processor.js';
import type { GrowingFile } from './growing-file.js';

const HEAD = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-xerror', '-y'];
/** The video part's codec: HEVC gets the `hvc1` tag, anything else is copied with its own. */
export type VideoCodec = 'h264' | 'hevc';
const copy = (codec: VideoCodec) => [
  '-c',
  'copy',
  ...(codec === 'hevc' ? ['-tag:v', 'hvc1'] : []),
  '-map_metadata',
  '-1',
];

/** The whole-file remux: both parts on disk, output with its index first. */
export function remuxArgs(video: string, audio: string, output: string, codec: VideoCodec = 'hevc'): string[] {
  return [
    ...[...HEAD, '-i', video, '-i', audio, '-map', '0:v:0', '-map', '1:a:0', ...copy(codec)],
    ...['-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

/** The streamed remux: inputs are paths or `pipe:N`, output a fragmented MP4 on stdout. */
export function streamedRemuxArgs(video: string, audio: string, codec: VideoCodec = 'hevc'): string[] {
  // A piped part's codecs are in its index (read first): without this ffmpeg reads seconds of it
  // before writing a byte (its default analysis), which is most of a short clip.
  const input = (part: string) => (part.startsWith('pipe:') ? ['-analyzeduration', '0', '-probesize', '32768'] : []);
  return [
    ...HEAD,
    ...input(video),
    '-i',
    video,
    ...input(audio),
    '-i',
    audio,
    '-map',
    '0:v:0',
    '-map',
    '1:a:0',
    ...copy(codec),
    // One fragment per keyframe, the index (empty) first: a player can start before the end.
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    '-f',
    'mp4',
    'pipe:1',
  ];
}

/** A fragmented MP4 rewritten as one plain MP4 with its index first (for players that need it). */
export function faststartArgs(input: string, output: string, codec: VideoCodec = 'hevc'): string[] {
  return [...HEAD, '-i', input, '-map', '0', ...copy(codec), '-movflags', '+faststart', '-f', 'mp4', output];
}

/** The parts: a path on disk (read whole) or a stream ffmpeg reads from a pipe as it arrives. */
export type RemuxPart = string | Readable;

/**
 * Remuxes `video` and `audio` into `output` as a fragmented MP4 while they arrive. Resolves with
 * the size once ffmpeg exited 0 and every byte is on disk; `output` is then marked whole.
 */
export async function remuxStreaming(
  media: MediaProcessor,
  parts: { video: RemuxPart; audio: RemuxPart },
  output: GrowingFile,
  signal?: AbortSignal,
  codec: VideoCodec = 'hevc',
): Promise<number> {
  const inputs: Readable[] = [];
  const name = (part: RemuxPart) => {
    if (typeof part === 'string') return part;
    inputs.push(part);
    return `pipe:${2 + inputs.length}`;
  };
  const args = streamedRemuxArgs(name(parts.video), name(parts.audio), codec);
  const sink = output.sink();
  try {
    await runProcess(media.config.ffmpeg, args, { timeoutMs: media.config.timeoutMs, signal, inputs, output: sink });
    await finished(sink);
  } catch (err) {
    throw processFailure(err);
  }
  const size = checkOutputFile(output.path, media.config.maxInputBytes);
  output.finish();
  return size;
}

/** The stored copy: `input` (fragmented) rewritten with its index first into `output`. */
export async function rewriteFaststart(
  media: MediaProcessor,
  input: string,
  output: string,
  signal?: AbortSignal,
  codec: VideoCodec = 'hevc',
): Promise<number> {
  try {
    await runProcess(media.config.ffmpeg, faststartArgs(input, output, codec), {
      timeoutMs: media.config.timeoutMs,
      signal,
    });
  } catch (err) {
    throw processFailure(err);
  }
  return checkOutputFile(output, media.config.maxInputBytes);
}

/** Both parts on disk joined into one plain MP4, index first (a caption project's source, issue 44). */
export async function remuxFiles(
  media: MediaProcessor,
  parts: { video: string; audio: string },
  output: string,
  codec: VideoCodec,
  signal?: AbortSignal,
): Promise<number> {
  try {
    await runProcess(media.config.ffmpeg, remuxArgs(parts.video, parts.audio, output, codec), {
      timeoutMs: media.config.timeoutMs,
      signal,
    });
  } catch (err) {
    throw processFailure(err);
  }
  return checkOutputFile(output, media.config.maxInputBytes);
}
