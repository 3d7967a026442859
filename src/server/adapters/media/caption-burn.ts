// Burned-in captions (issue 29): the ASS file drawn by libass (ffmpeg's `ass` filter, fribidi and
// harfbuzz for right-to-left and CJK text) over the source video, encoded as H.264 at the source's
// frame size; the sound is copied as it is. Progress comes from ffmpeg's own `-progress` lines.
import { fail } from '../../errors.js';
import { processFailure } from './media-processor.js';
import { checkOutputFile, ProcessError, runProcess } from './media-runner.js';

export interface VideoProbe {
  width: number;
  height: number;
  duration: number;
  videoCodec: string;
  audioCodec: string | null;
  formatName: string;
}

/** ffprobe's JSON (`-show_format -show_streams`) reduced to what the studio needs; null without a video stream. */
export function videoProbeFrom(json: {
  format?: { duration?: string; format_name?: string };
  streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }>;
}): VideoProbe | null {
  const streams = json.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video' && (s.width ?? 0) > 0 && (s.height ?? 0) > 0);
  if (!v?.width || !v.height) return null;
  const a = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(json.format?.duration ?? v.duration ?? 0);
  return {
    width: v.width,
    height: v.height,
    duration: Number.isFinite(duration) ? duration : 0,
    videoCodec: v.codec_name ?? '',
    audioCodec: a ? (a.codec_name ?? '') : null,
    formatName: json.format?.format_name ?? '',
  };
}

/** Sound codecs an MP4 carries as they are; anything else (Vorbis from a WebM) is encoded to AAC. */
const MP4_AUDIO = new Set(['aac', 'mp3', 'opus', 'ac3', 'eac3', 'alac', 'flac']);

/** A path inside a filter argument: quoted for the filter parser, refused if it could break out. */
function filterPath(p: string): string {
  if (!/^[\w/.+-]+$/.test(p)) throw new Error(`unsafe path for an ffmpeg filter: ${p}`);
  return p;
}

export interface BurnOptions {
  input: string;
  ass: string;
  fontsDir: string;
  output: string;
  width: number;
  height: number;
  audioCodec: string | null;
  /** x264 preset: speed against size; `veryfast` keeps a 60 s 1080x1920 clip around real time on 2 cores. */
  preset?: string;
}

export function burnArgs(o: BurnOptions): string[] {
  // yuv420p needs even sides: an odd one gets one pixel of padding, nothing else changes size.
  const even = o.width % 2 || o.height % 2 ? ',pad=ceil(iw/2)*2:ceil(ih/2)*2' : '';
  const copy = o.audioCodec && MP4_AUDIO.has(o.audioCodec);
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-nostats',
    '-progress',
    'pipe:1',
    '-xerror',
    '-y',
    '-i',
    o.input,
    '-map',
    '0:v:0',
    ...(o.audioCodec ? ['-map', '0:a:0'] : []),
    '-vf',
    `ass=filename=${filterPath(o.ass)}:fontsdir=${filterPath(o.fontsDir)}${even}`,
    '-c:v',
    'libx264',
    '-preset',
    o.preset ?? 'veryfast',
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    ...(o.audioCodec ? (copy ? ['-c:a', 'copy'] : ['-c:a', 'aac', '-b:a', '192k']) : []),
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    o.output,
  ];
}

/** Percent of `duration` that the latest `out_time_us=` line of `-progress` output reached. */
export function progressPercent(chunk: string, duration: number): number | null {
  const all = [...chunk.matchAll(/^out_time_us=(\d+)$/gm)];
  const last = all[all.length - 1];
  if (!last || !(duration > 0)) return null;
  return Math.max(0, Math.min(100, Math.round((Number(last[1]) / 1e6 / duration) * 1000) / 10));
}

/** Runs the burn-in; `onProgress` gets 0..100. A killed ffmpeg or a full disk is ours (503/507). */
export async function burnCaptions(
  ffmpeg: string,
  o: BurnOptions & { duration: number; timeoutMs: number; maxBytes: number; signal?: AbortSignal },
  onProgress: (percent: number) => void,
): Promise<number> {
  try {
    await runProcess(ffmpeg, burnArgs(o), {
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      onStdout: (text) => {
        const p = progressPercent(text, o.duration);
        if (p !== null) onProgress(p);
      },
    });
  } catch (err) {
    if (err instanceof ProcessError && err.reason === 'exit' && /No space left/i.test(err.stderr))
      throw processFailure(err);
    if (err instanceof ProcessError && err.reason === 'exit') throw fail('media.unreadable');
    throw processFailure(err);
  }
  return checkOutputFile(o.output, o.maxBytes);
}
