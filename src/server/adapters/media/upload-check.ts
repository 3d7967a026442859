// What an uploaded file must be for the studio (issue 29): a video with a sound track, at most
// 10 minutes, and whole. "Whole" is measured: the sound is decoded to the end (fast: no video is
// decoded) and must reach the duration the container announces; a file cut off midway stops short.
import { fail } from '../../errors.js';
import { probeArgs } from './ffmpeg-args.js';
import { videoProbeFrom, type VideoProbe } from './caption-burn.js';
import { ProcessError, runProcess } from './media-runner.js';
import { processFailure } from './media-processor.js';

/**
 * The first bytes of an MP4 / MOV (an ISO box: `ftyp`, or QuickTime's `moov`, `mdat`, `wide`,
 * `free`, `skip` at offset 4) or a WebM (the EBML magic): checked on the first chunk of an upload,
 * so a file that is not a video is refused before the rest of it is sent.
 */
export function looksLikeVideo(head: Buffer): boolean {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return true;
  return head.length >= 8 && /^(ftyp|moov|mdat|wide|free|skip|pnot)$/.test(head.toString('latin1', 4, 8));
}

/** Containers ffprobe names for MP4 / MOV and WebM (Matroska). */
const ACCEPTED_FORMATS = /(^|,)(mov|mp4|m4a|3gp|matroska|webm)(,|$)/;

export async function checkUploadedVideo(
  bins: { ffmpeg: string; ffprobe: string },
  file: string,
  opts: { maxSeconds: number; timeoutMs: number; signal?: AbortSignal },
): Promise<VideoProbe> {
  const run = { timeoutMs: opts.timeoutMs, signal: opts.signal };
  let probed: VideoProbe | null = null;
  try {
    probed = videoProbeFrom(JSON.parse((await runProcess(bins.ffprobe, probeArgs(file), run)).stdout));
  } catch (err) {
    if (!(err instanceof SyntaxError) && !(err instanceof ProcessError && err.reason === 'exit'))
      throw processFailure(err);
  }
  if (!probed || !ACCEPTED_FORMATS.test(probed.formatName)) throw fail('upload.not_video');
  if (!probed.audioCodec) throw fail('upload.no_audio');
  if (probed.duration > opts.maxSeconds + 0.5) throw fail('upload.too_long', { minutes: opts.maxSeconds / 60 });
  let reached = 0;
  try {
    const { stdout } = await runProcess(
      bins.ffmpeg,
      ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-progress', 'pipe:1', '-i', file].concat([
        '-map',
        '0:a:0',
        '-vn',
        '-f',
        'null',
        '-',
      ]),
      run,
    );
    const times = [...stdout.matchAll(/^out_time_us=(\d+)$/gm)];
    reached = Number(times[times.length - 1]?.[1] ?? 0) / 1e6;
  } catch (err) {
    if (err instanceof ProcessError && err.reason === 'exit') throw fail('upload.incomplete');
    throw processFailure(err);
  }
  // Encoder padding makes the two differ by a frame or two; a cut file misses seconds.
  if (probed.duration > 0 && reached < probed.duration - Math.max(0.5, probed.duration * 0.02))
    throw fail('upload.incomplete');
  return probed;
}
