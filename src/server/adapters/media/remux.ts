// A platform's sharpest gears can be HEVC video-only DASH files with the sound apart
// (decision 0014): one ffmpeg stream copy puts them together, without re-encoding.
// `hvc1` is the sample entry Apple devices and browsers need to play HEVC in MP4.
// Streamed (issue 38, decision 0073): ffmpeg reads each part from a pipe as it arrives (or from
// its file when its index is at the end) and writes a fragmented MP4 to stdout, which is sent while
// it is made; the stored copy is then rewritten with its index first (+faststart) for later requests.
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { checkOutputFile, runProcess } from './media-runner.js';
import { processFailure, type MediaProcessor } from './media-processor.js';
import type { GrowingFile } from './growing-file.js';

const HEAD = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-xerror', '-y'];
const COPY = ['-c', 'copy', '-tag:v', 'hvc1', '-map_metadata', '-1'];

/** The whole-file remux: both parts on disk, output with its index first. */
export function remuxArgs(video: string, audio: string, output: string): string[] {
  return [
    ...[...HEAD, '-i', video, '-i', audio, '-map', '0:v:0', '-map', '1:a:0', ...COPY],
    ...['-movflags', '+faststart', '-f', 'mp4', output],
  ];
}

/** The streamed remux: inputs are paths or `pipe:N`, output a fragmented MP4 on stdout. */
export function streamedRemuxArgs(video: string, audio: string): string[] {
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
    ...COPY,
    // One fragment per keyframe, the index (empty) first: a player can start before the end.
    '-movflags',
    'frag_keyframe+empty_moov+default_base_moof',
    '-f',
    'mp4',
    'pipe:1',
  ];
}

/** A fragmented MP4 rewritten as one plain MP4 with its index first (for players that need it). */
export function faststartArgs(input: string, output: string): string[] {
  return [...HEAD, '-i', input, '-map', '0', ...COPY, '-movflags', '+faststart', '-f', 'mp4', output];
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
): Promise<number> {
  const inputs: Readable[] = [];
  const name = (part: RemuxPart) => {
    if (typeof part === 'string') return part;
    inputs.push(part);
    return `pipe:${2 + inputs.length}`;
  };
  const args = streamedRemuxArgs(name(parts.video), name(parts.audio));
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
): Promise<number> {
  try {
    await runProcess(media.config.ffmpeg, faststartArgs(input, output), { timeoutMs: media.config.timeoutMs, signal });
  } catch (err) {
    throw processFailure(err);
  }
  return checkOutputFile(output, media.config.maxInputBytes);
}
