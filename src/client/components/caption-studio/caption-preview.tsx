// The video with its captions drawn over it by JASSUB (libass compiled to WASM) from the very ASS
// text that ffmpeg burns in: preview = output (decision 0037). The worker and WASM come from our own
// build and the fonts from /api/caption-studio/fonts, never from a CDN.
import { useEffect, useRef, useState } from 'react';
import JASSUB from 'jassub';
import workerUrl from 'jassub/dist/worker/worker.js?worker&url';
import wasmUrl from 'jassub/dist/wasm/jassub-worker.wasm?url';
import modernWasmUrl from 'jassub/dist/wasm/jassub-worker-modern.wasm?url';
import { CAPTION_FONT_FILES } from '@shared/contracts/caption-studio';

const FONT_BASE = '/api/caption-studio/fonts/';
/** libass asks for a family (and weight); each family maps to its regular file, bold ones by full name. */
const AVAILABLE_FONTS: Record<string, string> = Object.fromEntries(
  Object.entries(CAPTION_FONT_FILES).flatMap(([family, files]) =>
    files.map((file, i) => [i === 0 ? family : `${family} Bold`, FONT_BASE + file]),
  ),
);
const TRACK_DELAY_MS = 150;

export function CaptionPreview({
  src,
  ass,
  width,
  height,
  videoRef,
  onTime,
}: {
  src: string;
  ass: string;
  width: number;
  height: number;
  videoRef: React.RefObject<HTMLVideoElement | null>;
  onTime?: (t: number) => void;
}) {
  const canvasRef = useRef<HTMLCanvasElement | null>(null);
  const jassub = useRef<JASSUB | null>(null);
  const [failed, setFailed] = useState(false);
  const latest = useRef(ass);
  latest.current = ass;

  // One renderer per video; the ASS text is swapped in place as the person edits.
  useEffect(() => {
    const video = videoRef.current;
    const canvas = canvasRef.current;
    if (!video || !canvas) return;
    let instance: JASSUB | null = null;
    try {
      instance = new JASSUB({
        video,
        canvas,
        subContent: latest.current,
        workerUrl,
        wasmUrl,
        modernWasmUrl,
        availableFonts: AVAILABLE_FONTS,
        fonts: [FONT_BASE + CAPTION_FONT_FILES.Inter[0]],
        defaultFont: 'Inter',
        queryFonts: false,
      });
      jassub.current = instance;
      instance.ready.then(
        () => document.documentElement.setAttribute('data-captions-preview', 'ready'),
        () => setFailed(true),
      );
    } catch {
      setFailed(true);
    }
    return () => {
      jassub.current = null;
      void instance?.destroy();
    };
  }, [videoRef]);

  useEffect(() => {
    const t = setTimeout(async () => {
      const inst = jassub.current;
      if (!inst) return;
      await inst.ready;
      await inst.renderer.setTrack(ass);
      // A paused video shows the new text at once.
      await inst.resize(true);
    }, TRACK_DELAY_MS);
    return () => clearTimeout(t);
  }, [ass]);

  return (
    <figure className="space-y-1">
      <div
        className="relative mx-auto overflow-hidden rounded-xl bg-black"
        style={{ aspectRatio: `${width} / ${height}`, maxHeight: '70vh' }}
      >
        {/* biome-ignore lint/a11y/useMediaCaption: the captions are the canvas drawn over the video */}
        <video
          ref={videoRef}
          data-testid="studio-video"
          src={src}
          controls
          playsInline
          preload="auto"
          className="absolute inset-0 h-full w-full"
          onTimeUpdate={(e) => onTime?.(e.currentTarget.currentTime)}
          onSeeked={(e) => onTime?.(e.currentTarget.currentTime)}
        />
        <canvas
          ref={canvasRef}
          data-testid="studio-captions-canvas"
          aria-hidden
          className="pointer-events-none absolute inset-0 h-full w-full"
        />
      </div>
      <figcaption className="text-center text-xs text-slate-500">
        {failed
          ? 'This browser cannot draw the caption preview; the rendered video will still have the captions.'
          : 'Preview: the captions are drawn exactly as they will be burned in.'}
      </figcaption>
    </figure>
  );
}
