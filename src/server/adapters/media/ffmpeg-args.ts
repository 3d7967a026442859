// Pure argument builders for every ffmpeg/ffprobe call the product makes (unit-tested).
// Every ffmpeg call carries -xerror: without it a truncated or moov-less input exits 0 with a
// 148-byte MP3 (docs/sources.md 'ffmpeg builds').

export const MP3_BITRATE = '192k';

const base = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-xerror', '-y'];

/**
 * Any input with an audio stream -> MP3, 192 kbit/s CBR. Info-level stderr carries the input's
 * header and `-progress pipe:1` the output time, so no separate ffprobe runs are needed.
 */
export function mp3Args(input: string, output: string, opts: { bitrate?: string; maxSeconds?: number } = {}): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'info',
    '-nostats',
    '-progress',
    'pipe:1',
    '-xerror',
    '-y',
    '-i',
    input,
    '-vn',
    '-sn',
    '-dn',
    '-map',
    '0:a:0',
    '-c:a',
    'libmp3lame',
    '-b:a',
    opts.bitrate ?? MP3_BITRATE,
    ...(opts.maxSeconds ? ['-t', String(opts.maxSeconds)] : []),
    '-map_metadata',
    '-1',
    '-f',
    'mp3',
    output,
  ];
}

/**
 * 16 kHz mono 16-bit WAV for speech engines, with silencedetect printing the pauses on stderr
 * (the research note's batch pipeline: noise -35 dB, minimum silence 0.3 s).
 */
export function speechWavArgs(
  input: string,
  output: string,
  opts: { noiseDb?: number; minSilence?: number } = {},
): string[] {
  const noise = opts.noiseDb ?? -35;
  const d = opts.minSilence ?? 0.3;
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'info',
    '-xerror',
    '-y',
    '-i',
    input,
    '-vn',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-af',
    `silencedetect=noise=${noise}dB:d=${d}`,
    '-c:a',
    'pcm_s16le',
    '-bitexact',
    '-f',
    'wav',
    output,
  ];
}

/** Compressed audio small enough for a transcription API upload (OpenAI's limit is 25 MB). */
export function apiUploadArgs(input: string, output: string): string[] {
  return [
    ...base,
    '-i',
    input,
    '-vn',
    '-map',
    '0:a:0',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '48k',
    '-f',
    'mp3',
    output,
  ];
}

export function probeArgs(input: string): string[] {
  return ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', input];
}

export interface SilenceSpan {
  start: number;
  end: number;
}

/** Parses silencedetect's stderr lines into silence spans (an open span ends at `duration`). */
export function parseSilences(stderr: string, duration: number): SilenceSpan[] {
  const spans: SilenceSpan[] = [];
  let open: number | null = null;
  for (const line of stderr.split('\n')) {
    const s = /silence_start: (-?[\d.]+)/.exec(line);
    if (s) {
      open = Math.max(0, Number(s[1]));
      continue;
    }
    const e = /silence_end: ([\d.]+)/.exec(line);
    if (e) {
      spans.push({ start: open ?? 0, end: Number(e[1]) });
      open = null;
    }
  }
  if (open !== null && open < duration) spans.push({ start: open, end: duration });
  return spans;
}

/** The speech spans between silences, padded, clipped to [0, duration], minimum length 0.1 s. */
export function speechSpans(silences: SilenceSpan[], duration: number, pad = 0.1): SilenceSpan[] {
  const out: SilenceSpan[] = [];
  let cursor = 0;
  for (const s of [...silences].sort((a, b) => a.start - b.start)) {
    if (s.start > cursor) out.push({ start: cursor, end: s.start });
    cursor = Math.max(cursor, s.end);
  }
  if (cursor < duration) out.push({ start: cursor, end: duration });
  return out
    .map((s) => ({ start: Math.max(0, s.start - pad), end: Math.min(duration, s.end + pad) }))
    .filter((s) => s.end - s.start >= 0.1);
}

/** The output length from `-progress` output (the last out_time), in seconds; 0 when absent. */
export function parseProgressTime(stdout: string): number {
  const all = [...stdout.matchAll(/^out_time=(-?)(\d+):(\d+):([\d.]+)$/gm)];
  const last = all[all.length - 1];
  if (!last || last[1] === '-') return 0;
  return Number(last[2]) * 3600 + Number(last[3]) * 60 + Number(last[4]);
}

/** ffmpeg's error when the input has no audio stream to map. */
export const NO_AUDIO_STDERR =
  /matches no streams|does not contain any stream|Output file #0 does not contain any stream/i;
