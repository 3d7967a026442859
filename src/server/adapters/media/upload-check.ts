// What an uploaded file must be for the studio (issue 29): a video with a sound track, at most
// 10 minutes, and whole. "Whole" is judged by the file (issue 36): the sizes its container declares
// against the bytes present (container-check.ts), then the sound decoded to the end (fast: no video
// is decoded) without a read error. The sound may be shorter or longer than the picture: phone
// editors often leave it so, and such a file is whole.
import { fail } from '../../errors.js';
import { containerVerdict } from './container-check.js';
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
  if (!probed) throw fail((await containerVerdict(file)) === 'cut' ? 'upload.incomplete' : 'upload.not_video');
  if (!ACCEPTED_FORMATS.test(probed.formatName)) throw fail('upload.not_video');
  if (!probed.audioCodec) throw fail('upload.no_audio');
  if (probed.duration > opts.maxSeconds + 0.5) throw fail('upload.too_long', { minutes: opts.maxSeconds / 60 });
  if ((await containerVerdict(file)) === 'cut') throw fail('upload.incomplete');
  let stderr = '';
  try {
    ({ stderr } = await runProcess(
      bins.ffmpeg,
      ['-hide_banner', '-nostdin', '-v', 'error', '-nostats', '-i', file, '-map', '0:a:0', '-vn', '-f', 'null', '-'],
      run,
    ));
  } catch (err) {
    if (err instanceof ProcessError && err.reason === 'exit') throw fail('upload.incomplete');
    throw processFailure(err);
  }
  // What demuxers say when the bytes stop before the container said they would.
  if (PREMATURE_END.test(stderr)) throw fail('upload.incomplete');
  return probed;
}

const PREMATURE_END = /ended prematurely|truncat|partial file|EOF inside|unexpected end/i;
