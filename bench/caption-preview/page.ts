// Browser side of bench/caption-preview.bench.ts: JASSUB over a <video>, as the studio's preview
// uses it, and a frame counter on requestVideoFrameCallback.
import JASSUB from 'jassub';

declare global {
  interface Window {
    countFrames(seconds: number): Promise<{ frames: number; seconds: number; dropped: number }>;
    startJassub(ass: string, font: string): Promise<void>;
  }
}

const video = document.querySelector('video') as HTMLVideoElement;
const canvas = document.querySelector('canvas') as HTMLCanvasElement;

window.countFrames = async (seconds) => {
  video.currentTime = 0;
  await video.play();
  // Timed from the first presented frame to the last one, so start-up is not counted.
  let first: { now: number; presented: number } | null = null;
  let last = { now: 0, presented: 0 };
  let dropped0 = 0;
  await new Promise<void>((done) => {
    const tick = (now: number, meta: VideoFrameCallbackMetadata) => {
      if (!first) {
        first = { now, presented: meta.presentedFrames };
        dropped0 = video.getVideoPlaybackQuality().droppedVideoFrames;
      }
      last = { now, presented: meta.presentedFrames };
      if (now - first.now >= seconds * 1000) done();
      else video.requestVideoFrameCallback(tick);
    };
    video.requestVideoFrameCallback(tick);
  });
  const start = first as unknown as { now: number; presented: number };
  const frames = last.presented - start.presented;
  const elapsed = (last.now - start.now) / 1000;
  const q1 = video.getVideoPlaybackQuality();
  video.pause();
  return { frames, seconds: elapsed, dropped: q1.droppedVideoFrames - dropped0 };
};

window.startJassub = async (ass, font) => {
  const j = new JASSUB({
    video,
    canvas,
    subContent: ass,
    workerUrl: '/worker.js',
    wasmUrl: '/jassub-worker.wasm',
    modernWasmUrl: '/jassub-worker-modern.wasm',
    availableFonts: { inter: font },
    fonts: [font],
    defaultFont: 'Inter',
    queryFonts: false,
  });
  await j.ready;
};
