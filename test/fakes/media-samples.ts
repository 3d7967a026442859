// Real media made by the tests with Debian's ffmpeg: lavfi test sources for video, a sine tone or
// silence for sound, and the flite voice (slt) for speech with known words. Cached per machine.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const DIR = path.join(os.tmpdir(), 'smt-media-samples-v1');
export const FFMPEG = process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg';
export const FFPROBE = process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe';

function make(key: string, ext: string, build: (out: string) => void): string {
  const file = path.join(DIR, `${crypto.createHash('sha1').update(key).digest('hex').slice(0, 16)}.${ext}`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp.${ext}`;
  build(tmp);
  fs.renameSync(tmp, file);
  return file;
}

const ff = (args: string[]) =>
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'pipe' });

/**
 * An H.264 + AAC MP4 with a tone. By default the moov atom is at the END (ffmpeg's default), the
 * kind of file that cannot be read from a pipe; `faststart` puts it first.
 */
export function toneMp4(seconds: number, opts: { faststart?: boolean; size?: string } = {}): string {
  return make(`tone:${seconds}:${opts.faststart}:${opts.size}`, 'mp4', (out) =>
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=${opts.size ?? '320x568'}:rate=25`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:duration=${seconds}:sample_rate=44100`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-shortest',
      ...(opts.faststart ? ['-movflags', '+faststart'] : []),
      out,
    ]),
  );
}

/** A video whose sound track is digital silence. */
export function silentMp4(seconds: number): string {
  return make(`silent:${seconds}`, 'mp4', (out) =>
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=320x568:rate=25`,
      '-f',
      'lavfi',
      '-i',
      `anullsrc=r=44100:cl=stereo:d=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-movflags',
      '+faststart',
      out,
    ]),
  );
}

/** A video with no audio stream at all. */
/**
 * A whole video whose sound ends before its picture (or after it), as phone editors often leave a
 * clip: `soundSeconds` of tone under `seconds` of picture. `container` mp4 (moov last), `fmp4`
 * (fragmented, as TikTok's DASH gears) or `webm` (VP8 + Opus).
 */
export function unevenSoundVideo(
  seconds: number,
  soundSeconds: number,
  container: 'mp4' | 'fmp4' | 'webm' = 'mp4',
): string {
  const ext = container === 'webm' ? 'webm' : 'mp4';
  return make(`uneven:${seconds}:${soundSeconds}:${container}`, ext, (out) =>
    ff([
      ...['-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=320x568:rate=25`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:duration=${soundSeconds}:sample_rate=48000`],
      ...(container === 'webm'
        ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-b:v', '200k', '-c:a', 'libopus']
        : ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac']),
      ...(container === 'fmp4' ? ['-movflags', '+frag_keyframe+empty_moov+default_base_moof'] : []),
      out,
    ]),
  );
}

export function mutedMp4(seconds: number): string {
  return make(`muted:${seconds}`, 'mp4', (out) =>
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc=duration=${seconds}:size=320x568:rate=25`,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      out,
    ]),
  );
}

/**
 * Spoken passages (flite, voice slt) separated by `gap` seconds of silence, as an H.264/AAC MP4.
 * `pictureAfter`: seconds the picture goes on after the sound ends (a phone editor's export).
 */
export function speechMp4(passages: string[], gap = 1.2, pictureAfter = 0): string {
  const key = `speech:${gap}:${passages.join('|')}${pictureAfter ? `:${pictureAfter}` : ''}`;
  return make(key, 'mp4', (out) => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'smt-speech-'));
    try {
      const parts: string[] = [];
      passages.forEach((text, i) => {
        const txt = path.join(work, `p${i}.txt`);
        fs.writeFileSync(txt, text);
        const wav = path.join(work, `p${i}.wav`);
        ff(['-f', 'lavfi', '-i', `flite=textfile=${txt}:voice=slt`, '-ar', '16000', '-ac', '1', wav]);
        parts.push(wav);
        if (i < passages.length - 1) {
          const sil = path.join(work, `s${i}.wav`);
          ff(['-f', 'lavfi', '-i', `anullsrc=r=16000:cl=mono:d=${gap}`, '-c:a', 'pcm_s16le', sil]);
          parts.push(sil);
        }
      });
      const list = path.join(work, 'list.txt');
      fs.writeFileSync(list, parts.map((p) => `file '${p}'`).join('\n'));
      const all = path.join(work, 'all.wav');
      ff(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', all]);
      const seconds = ffprobe(all).duration + pictureAfter;
      ff([
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=25',
        '-i',
        all,
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
        '-ar',
        '44100',
        '-ac',
        '2',
        ...(pictureAfter ? ['-t', seconds.toFixed(3)] : ['-shortest']),
        '-movflags',
        '+faststart',
        out,
      ]);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
}

export interface Probed {
  duration: number;
  codec: string;
  bitRate: number;
  sampleRate: number;
}

export function ffprobe(file: string): Probed {
  const out = execFileSync(FFPROBE, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file], {
    encoding: 'utf8',
  });
  const j = JSON.parse(out);
  const a = j.streams.find((s: { codec_type: string }) => s.codec_type === 'audio');
  return {
    duration: Number(j.format.duration),
    codec: a?.codec_name ?? '',
    bitRate: Number(a?.bit_rate ?? j.format.bit_rate),
    sampleRate: Number(a?.sample_rate ?? 0),
  };
}

/** Word error rate: word-level Levenshtein distance over the reference length (case and punctuation ignored). */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const r = norm(reference);
  const h = norm(hypothesis);
  const d = Array.from({ length: r.length + 1 }, (_, i) => [i, ...Array(h.length).fill(0)]);
  for (let j = 1; j <= h.length; j++) d[0][j] = j;
  for (let i = 1; i <= r.length; i++)
    for (let j = 1; j <= h.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (r[i - 1] === h[j - 1] ? 0 : 1));
  return r.length ? d[r.length][h.length] / r.length : h.length ? 1 : 0;
}

/**
 * A video-only HEVC MP4 like TikTok's 1080p/720p DASH gears (no sound track): fragmented, index
 * first, one fragment per second (`indexLast`: a plain MP4 with its index at the end instead).
 */
export function hevcVideoOnly(
  width: number,
  height: number,
  seconds: number,
  opts: { indexLast?: boolean } = {},
): string {
  return make(`hevc:${width}x${height}:${seconds}:${opts.indexLast ? 'plain' : 'dash'}`, 'mp4', (out) =>
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=duration=${seconds}:size=${width}x${height}:rate=10`,
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error:keyint=10',
      '-pix_fmt',
      'yuv420p',
      '-tag:v',
      'hev1',
      '-an',
      ...(opts.indexLast ? [] : ['-movflags', '+frag_keyframe+empty_moov+default_base_moof+global_sidx']),
      out,
    ]),
  );
}

/**
 * A sound-only AAC MP4 like TikTok's `bitrateAudioInfo` tracks: a plain MP4 with its index at the
 * end, or (`dash`) fragmented with its index first, as a DASH sound track.
 */
export function aacSound(seconds: number, frequency = 660, opts: { dash?: boolean } = {}): string {
  return make(`aac:${seconds}:${frequency}${opts.dash ? ':dash' : ''}`, 'm4a', (out) =>
    ff([
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${frequency}:duration=${seconds}:sample_rate=44100`,
      '-c:a',
      'aac',
      '-b:a',
      '96k',
      '-vn',
      ...(opts.dash ? ['-movflags', '+frag_keyframe+empty_moov+default_base_moof', '-frag_duration', '1000000'] : []),
      out,
    ]),
  );
}

/**
 * A whole HEVC MP4 like an older post's `Format: "mp4"` gear: hvc1 video and its own AAC sound,
 * faststart; `silent: true` leaves the sound track out (a gear that should carry sound but does not).
 */
export function hevcWhole(width: number, height: number, seconds: number, opts: { silent?: boolean } = {}): string {
  return make(`hevc-whole:${width}x${height}:${seconds}:${opts.silent ? 'silent' : 'sound'}`, 'mp4', (out) =>
    ff([
      '-f',
      'lavfi',
      '-i',
      `testsrc2=duration=${seconds}:size=${width}x${height}:rate=10`,
      ...(opts.silent ? [] : ['-f', 'lavfi', '-i', `sine=frequency=550:duration=${seconds}:sample_rate=44100`]),
      '-c:v',
      'libx265',
      '-preset',
      'ultrafast',
      '-x265-params',
      'log-level=error:keyint=10',
      '-pix_fmt',
      'yuv420p',
      '-tag:v',
      'hvc1',
      ...(opts.silent ? ['-an'] : ['-c:a', 'aac', '-b:a', '64k', '-shortest']),
      '-movflags',
      '+faststart',
      out,
    ]),
  );
}

/**
 * A whole MP4 cut into its two parts as split platforms serve them (issue 44): the video alone and
 * the sound alone, each a fragmented MP4 with its index first (stream copy, nothing re-encoded).
 */
export function splitParts(file: string): { video: string; sound: string } {
  const frag = ['-movflags', '+frag_keyframe+empty_moov+default_base_moof'];
  const key = `${file}:${fs.statSync(file).size}`;
  return {
    video: make(`split-video:${key}`, 'mp4', (out) => ff(['-i', file, '-map', '0:v:0', '-c', 'copy', ...frag, out])),
    sound: make(`split-sound:${key}`, 'm4a', (out) =>
      ff(['-i', file, '-map', '0:a:0', '-c', 'copy', ...frag, '-f', 'mp4', out]),
    ),
  };
}
