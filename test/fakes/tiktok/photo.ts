// A photo post as TikTok's web page describes it (docs/sources.md 'TikTok photo posts'): `itemStruct.imagePost`
// with `images[i].imageURL.urlList` (signed p16/p19 photomode links, a .heic rendition listed
// before the .jpeg one), `imageWidth`/`imageHeight`, a cover, and the sound in `music.playUrl`
// (also as `video.playAddr`, which cobalt reads as the audio). No video gears at all.
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface PhotoPostOptions {
  id?: string;
  user?: string;
  desc?: string;
  /** JPEG files, in order (see solidJpeg); default three colours. */
  slides?: string[];
  /** The post's sound (default a 3 s MP3); null: a post without sound. */
  sound?: string | null;
  /** Slide numbers (from 1) whose links answer 404. */
  missing?: number[];
  /** Throttles the CDN (e.g. so a client can leave mid-render). */
  bytesPerSecond?: number;
}

const DIR = path.join(os.tmpdir(), 'smt-fake-tiktok-photos-v1');

/** A real JPEG of one colour (hex, e.g. 'ff0000'), so a test can tell slides apart in frames. */
export function solidJpeg(color: string, width = 1080, height = 1440): string {
  const file = path.join(DIR, `${color}-${width}x${height}.jpg`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp.jpg`;
  execFileSync(
    process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `color=c=0x${color}:s=${width}x${height}:d=1`,
      '-frames:v',
      '1',
      '-q:v',
      '3',
      tmp,
    ],
    { stdio: 'pipe' },
  );
  fs.renameSync(tmp, file);
  return file;
}

/** An MP3 tone of `seconds`. */
export function toneMp3(seconds: number): string {
  const file = path.join(DIR, `tone-${seconds}.mp3`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(DIR, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp.mp3`;
  execFileSync(
    process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=550:duration=${seconds}:sample_rate=44100`,
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      tmp,
    ],
    { stdio: 'pipe' },
  );
  fs.renameSync(tmp, file);
  return file;
}

function jpegSize(file: string): { width: number; height: number } {
  const b = fs.readFileSync(file);
  for (let i = 2; i < b.length; ) {
    const marker = b[i + 1];
    const len = b.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  throw new Error(`no JPEG frame header in ${file}`);
}

/** Turns a copy of a video itemStruct into a photo post; returns the CDN paths to serve. */
export function makePhotoItem(item: any, id: string, o: PhotoPostOptions & { slides: string[] }) {
  const expire = Math.floor(Date.now() / 1000) + 48 * 3600;
  const sign = () => `x-expires=${expire}&x-signature=${crypto.randomBytes(9).toString('base64url')}`;
  const images = o.slides.map((file, i) => {
    const key = `tos-maliva-i-photomode-us/${id}${String(i).padStart(3, '0')}${crypto.randomBytes(6).toString('hex')}`;
    const { width, height } = jpegSize(file);
    return {
      file,
      path: `/${key}~tplv-photomode-image.jpeg`,
      heicPath: `/${key}~tplv-photomode-image.heic`,
      json: {
        imageURL: {
          urlList: [
            `https://p16-sign-va.tiktokcdn.com/${key}~tplv-photomode-image.heic?${sign()}`,
            `https://p16-sign-va.tiktokcdn.com/${key}~tplv-photomode-image.jpeg?${sign()}`,
            `https://p19-sign.tiktokcdn-us.com/${key}~tplv-photomode-image.jpeg?${sign()}`,
          ],
        },
        imageWidth: width,
        imageHeight: height,
      },
    };
  });
  const musicPath = `/fake/${id}/music/`;
  const musicUrl = `https://v16m.tiktokcdn-us.com${musicPath}?a=1233&mime_type=audio_mpeg`;
  item.imagePost = { images: images.map((x) => x.json), cover: images[0].json, shareCover: images[0].json, title: '' };
  const video = item.video;
  item.video = {
    id: '',
    height: video.height,
    width: video.width,
    duration: 0,
    ratio: '540p',
    cover: `https://p16-sign-va.tiktokcdn.com${images[0].path}?${sign()}`,
    originCover: '',
    dynamicCover: '',
    playAddr: o.sound === null ? '' : musicUrl,
  };
  if (o.sound === null) delete item.music.playUrl;
  else item.music.playUrl = musicUrl;
  if (o.sound)
    item.music.duration = Math.round(
      Number(
        execFileSync(process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe', [
          '-v',
          'error',
          '-show_entries',
          'format=duration',
          '-of',
          'csv=p=0',
          o.sound,
        ]).toString(),
      ),
    );
  return { images, musicPath };
}
