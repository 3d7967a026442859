// The cover picker (issue 47): the video the downloader's card plays, and a scrubber over the
// clip's length; the frame shown is the cover each target gets, cut at that target's size.
import { useEffect, useRef, useState } from 'react';

export function CoverScrubber(props: {
  videoUrl: string | null;
  duration: number;
  value: number;
  onChange: (seconds: number) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  // A free account's player has a short preview clip: frames past it are cut from the whole video all the same.
  const [clip, setClip] = useState<number | null>(null);
  const max = Math.max(0, Math.floor(props.duration * 10) / 10);
  useEffect(() => {
    const v = video.current;
    if (v && Number.isFinite(props.value) && v.readyState >= 1)
      v.currentTime = Math.min(props.value, v.duration || max);
  }, [props.value, max]);
  return (
    <section className="rounded-2xl bg-white p-4 shadow ring-1 ring-slate-200">
      <h2 className="mb-2 text-base font-semibold text-slate-900">Cover</h2>
      {props.videoUrl && (
        <video
          ref={video}
          src={props.videoUrl}
          muted
          playsInline
          preload="auto"
          className="mx-auto mb-3 max-h-72 rounded-lg bg-black"
          data-testid="cover-video"
          onLoadedMetadata={(e) => {
            setClip(e.currentTarget.duration);
            e.currentTarget.currentTime = Math.min(props.value, e.currentTarget.duration || max);
          }}
        />
      )}
      {clip !== null && clip < props.duration - 0.5 && props.value > clip && (
        <p className="mb-2 text-xs text-slate-600">
          The player shows the first {Math.round(clip)} s; the cover is cut from the whole video at this time.
        </p>
      )}
      <label htmlFor="cover-at" className="block text-sm text-slate-700">
        Frame at <span data-testid="cover-at-value">{props.value.toFixed(1)}</span> s
      </label>
      <input
        id="cover-at"
        type="range"
        min={0}
        max={max}
        step={0.1}
        value={props.value}
        onChange={(e) => props.onChange(Number(e.target.value))}
        className="w-full"
      />
    </section>
  );
}
