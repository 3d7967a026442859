// The repost kit's ffmpeg work (issue 47): the index moved first without touching the streams, a
// re-encode to H.264 + AAC within a frame size for a target that refuses the file, and a cover
// frame at a target's size. Argument builders are pure; the runs go through the one process runner.
import fs from 'node:fs/promises';
import { checkOutputFile, runProcess } from './media-runner.js';
import { processFailure, type MediaProcessor } from './media-processor.js';

const HEAD = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-xerror', '-y'];

/** Same streams, index first (+faststart), nothing re-encoded. */
export function indexFirstArgs(input: string, output: string): string[] {
  return [...HEAD, '-i', input, '-map', '0:v:0', '-map', '0:a:0?', '-c', 'copy', '-movflags', '+faststart', output];
}

/** H.264 (yuv420p) + AAC 48 kHz stereo in an MP4 with its index first, scaled to `width`x`height`. */
export function encodeArgs(input: string, output: string, width: number, height: number): string[] {
  return [
    ...[...HEAD, '-i', input, '-map', '0:v:0', '-map', '0:a:0?', '-vf', `scale=${width}:${height},setsar=1`],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '21', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2', '-movflags', '+faststart', output],
  ];
}

/** One frame at `seconds`, filling `width`x`height` (cropped to its shape), as a JPEG. */
export function coverArgs(input: string, output: string, seconds: number, width: number, height: number): string[] {
  const fill = `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1`;
  return [
    ...[...HEAD, '-ss', seconds.toFixed(3), '-i', input, '-frames:v', '1', '-vf', fill],
    ...['-q:v', '3', '-f', 'image2', output],
  ];
}

/** True when the MP4's `moov` comes before its `mdat` (read from the top-level box headers only). */
export async function indexComesFirst(file: string): Promise<boolean> {
  const fh = await fs.open(file, 'r');
  try {
    const { size } = await fh.stat();
    const head = Buffer.alloc(16);
    let at = 0;
    for (let n = 0; n < 1000 && at + 8 <= size; n++) {
      const { bytesRead } = await fh.read(head, 0, 16, at);
      if (bytesRead < 8) return false;
      const type = head.toString('latin1', 4, 8);
      if (type === 'moov') return true;
      if (type === 'mdat') return false;
      let box = head.readUInt32BE(0);
      if (box === 1 && bytesRead >= 16) box = Number(head.readBigUInt64BE(8));
      if (box < 8) return false;
      at += box;
    }
    return false;
  } finally {
    await fh.close();
  }
}

async function ffmpeg(media: MediaProcessor, args: string[], output: string, maxBytes: number, signal?: AbortSignal) {
  try {
    await runProcess(media.config.ffmpeg, args, { timeoutMs: media.config.timeoutMs, signal });
  } catch (err) {
    throw processFailure(err);
  }
  return checkOutputFile(output, maxBytes);
}

export const moveIndexFirst = (media: MediaProcessor, input: string, output: string, signal?: AbortSignal) =>
  ffmpeg(media, indexFirstArgs(input, output), output, media.config.maxInputBytes, signal);

export const encodeForTarget = (
  media: MediaProcessor,
  input: string,
  output: string,
  frame: { width: number; height: number },
  signal?: AbortSignal,
) =>
  ffmpeg(media, encodeArgs(input, output, frame.width, frame.height), output, media.config.maxInputBytes * 4, signal);

export const cutCover = (
  media: MediaProcessor,
  input: string,
  output: string,
  at: { seconds: number; width: number; height: number },
  signal?: AbortSignal,
) => ffmpeg(media, coverArgs(input, output, at.seconds, at.width, at.height), output, 20_000_000, signal);
