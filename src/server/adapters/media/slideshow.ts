// A photo post as a video (issue 20): the slides in order over the post's sound, each an equal
// share of it, letterboxed into one frame (never stretched), H.264 + AAC so every phone plays it.
// Each slide is read once (1 fps input) and repeated by the fps filter: decoding a JPEG 30 times a
// second costs more than the whole encode. `stillimage` tunes x264 for pictures that do not move.
import { checkOutputFile, runProcess } from './media-runner.js';
import { processFailure, type MediaProcessor } from './media-processor.js';

export const SLIDESHOW_FPS = 30;
/** A post without a sound gets this long per slide, over silence. */
export const SECONDS_PER_SILENT_SLIDE = 3;

export interface SlideshowInput {
  slides: string[]; // files, in order
  sound: string | null; // file, or null: silence
  seconds: number; // total length
  width: number;
  height: number;
}

export function slideshowArgs(input: SlideshowInput, output: string): string[] {
  const { slides, width: w, height: h } = input;
  const share = (input.seconds / slides.length).toFixed(3);
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'];
  for (const slide of slides) args.push('-loop', '1', '-framerate', '1', '-t', share, '-i', slide);
  if (input.sound) args.push('-i', input.sound);
  else args.push('-f', 'lavfi', '-t', String(input.seconds), '-i', 'anullsrc=r=44100:cl=stereo');
  const fit = slides.map(
    (_, i) =>
      `[${i}:v]scale=${w}:${h}:force_original_aspect_ratio=decrease,` +
      `pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p[s${i}]`,
  );
  const joined = `${slides.map((_, i) => `[s${i}]`).join('')}concat=n=${slides.length}:v=1:a=0,fps=${SLIDESHOW_FPS}[v]`;
  args.push(
    '-filter_complex',
    [...fit, joined].join(';'),
    '-map',
    '[v]',
    '-map',
    `${slides.length}:a:0`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-tune',
    'stillimage',
    '-crf',
    '22',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '128k',
    '-t',
    String(input.seconds),
    '-map_metadata',
    '-1',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    output,
  );
  return args;
}

export async function renderSlideshow(
  media: MediaProcessor,
  input: SlideshowInput,
  output: string,
  signal?: AbortSignal,
): Promise<number> {
  try {
    await runProcess(media.config.ffmpeg, slideshowArgs(input, output), { timeoutMs: media.config.timeoutMs, signal });
  } catch (err) {
    throw processFailure(err);
  }
  return checkOutputFile(output, media.config.maxInputBytes);
}
