// Real DASH files as v.redd.it serves them (issue 44), made with ffmpeg at test time: each height a
// video-only H.264 fragmented MP4 (index first, one fragment per keyframe), the sound an AAC
// fragmented MP4, and a DASHPlaylist.mpd in Reddit's shape (the on-demand profile, one BaseURL per
// Representation) naming them with the older `DASH_<h>.mp4` / `DASH_AUDIO_128.mp4` names or the
// newer `CMAF_<h>.mp4` / `CMAF_AUDIO_128.mp4` ones. Cached per machine like media-samples.ts.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FFMPEG } from '../media-samples.js';

const DIR = path.join(os.tmpdir(), 'smt-reddit-dash-v1');

export interface DashRendition {
  height: number;
  width: number;
  file: string;
  name: string; // its file name on v.redd.it
  bandwidth: number;
}
export interface DashSet {
  naming: 'DASH' | 'CMAF';
  seconds: number;
  videos: DashRendition[]; // tallest first
  audio: { file: string; name: string; bandwidth: number } | null;
}

function make(key: string, ext: string, args: (out: string) => string[]): string {
  const file = path.join(DIR, `${crypto.createHash('sha1').update(key).digest('hex').slice(0, 16)}.${ext}`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp.${ext}`;
  execFileSync(FFMPEG, ['-hide_banner', '-loglevel', 'error', '-y', ...args(tmp)], { stdio: 'pipe' });
  fs.renameSync(tmp, file);
  return file;
}

const FRAGMENTED = ['-movflags', '+frag_keyframe+empty_moov+default_base_moof+global_sidx', '-f', 'mp4'];

/** A video-only H.264 rendition of `height` (16:9 landscape), `rate` frames a second. */
export function dashVideo(width: number, height: number, seconds: number, rate = 25): string {
  return make(`video:${width}x${height}:${seconds}:${rate}`, 'mp4', (out) => [
    ...['-f', 'lavfi', '-i', `testsrc2=duration=${seconds}:size=${width}x${height}:rate=${rate}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(rate), '-an'],
    ...FRAGMENTED,
    out,
  ]);
}

/** The sound alone: AAC at 128 kbit/s, fragmented. */
export function dashAudio(seconds: number): string {
  return make(`audio:${seconds}`, 'mp4', (out) => [
    ...['-f', 'lavfi', '-i', `sine=frequency=500:duration=${seconds}:sample_rate=48000`],
    ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2', '-vn', '-frag_duration', '1000000'],
    ...FRAGMENTED,
    out,
  ]);
}

const SIZES: Record<number, number> = { 1080: 1920, 720: 1280, 480: 854, 360: 640, 240: 426 };

/** The files of one video: `heights` (tallest first), and its sound unless `silent`. */
export function dashSet(opts: {
  heights: number[];
  seconds: number;
  naming: 'DASH' | 'CMAF';
  silent?: boolean;
  rate?: number;
}): DashSet {
  const videos = opts.heights.map((height) => {
    const width = SIZES[height] ?? Math.round((height * 16) / 9 / 2) * 2;
    const file = dashVideo(width, height, opts.seconds, opts.rate);
    return {
      height,
      width,
      file,
      name: `${opts.naming}_${height}.mp4`,
      bandwidth: Math.round((fs.statSync(file).size * 8) / opts.seconds),
    };
  });
  const audio = opts.silent
    ? null
    : { file: dashAudio(opts.seconds), name: `${opts.naming}_AUDIO_128.mp4`, bandwidth: 131_072 };
  return { naming: opts.naming, seconds: opts.seconds, videos, audio };
}

/** The manifest, shaped as v.redd.it's DASHPlaylist.mpd (MPEG-DASH on-demand profile). */
export function manifestOf(set: DashSet): string {
  const duration = `PT${set.seconds.toFixed(3)}S`;
  const video = set.videos
    .map(
      (
        v,
        i,
      ) => `      <Representation id="${i + 1}" mimeType="video/mp4" codecs="avc1.4d401f" width="${v.width}" height="${v.height}" frameRate="25" sar="1:1" bandwidth="${v.bandwidth}">
        <BaseURL>${v.name}</BaseURL>
        <SegmentBase indexRangeExact="true" indexRange="800-900">
          <Initialization range="0-799"/>
        </SegmentBase>
      </Representation>`,
    )
    .join('\n');
  const audio = set.audio
    ? `    <AdaptationSet segmentAlignment="true" lang="und" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
      <Representation id="${set.videos.length + 1}" mimeType="audio/mp4" codecs="mp4a.40.2" audioSamplingRate="48000" bandwidth="${set.audio.bandwidth}">
        <AudioChannelConfiguration schemeIdUri="urn:mpeg:dash:23003:3:audio_channel_configuration:2011" value="2"/>
        <BaseURL>${set.audio.name}</BaseURL>
        <SegmentBase indexRangeExact="true" indexRange="700-800">
          <Initialization range="0-699"/>
        </SegmentBase>
      </Representation>
    </AdaptationSet>\n`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" minBufferTime="PT1.500S" type="static" mediaPresentationDuration="${duration}" maxSegmentDuration="PT2.000S" profiles="urn:mpeg:dash:profile:isoff-on-demand:2011">
  <Period duration="${duration}">
    <AdaptationSet segmentAlignment="true" maxWidth="${set.videos[0].width}" maxHeight="${set.videos[0].height}" maxFrameRate="25" par="16:9" lang="und" startWithSAP="1" subsegmentAlignment="true" subsegmentStartsWithSAP="1">
${video}
    </AdaptationSet>
${audio}  </Period>
</MPD>
`;
}
