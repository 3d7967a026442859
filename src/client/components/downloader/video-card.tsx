// The video detail card (decision 0092 'Downloader screen'): thumbnail with inline preview, title, author,
// m:ss, views and likes, the download options (quality, resolution, size) and copy-link. A photo
// post shows its first photo instead of a player, and its photos as a strip below.
import { useState } from 'react';
import { Clock, Copy, Crown, Download, Eye, Heart, ImageDown, Images, Loader2, Play, User, X } from 'lucide-react';
import type { VideoInfo } from '@shared/contracts/video';
import { formatDuration, formatFileSize, formatNumber } from '../../lib/format';
import { toast } from '../../hooks/use-toast';
import { Thumbnail } from '../ui/thumbnail';
import { PhotoStrip } from './photo-strip';
import { usePlatforms } from '../../hooks/use-platforms';

const PICTURE_LABELS: Record<NonNullable<VideoInfo['pictures']>[number]['kind'], string> = {
  cover: 'Cover',
  'animated-cover': 'Animated cover',
  avatar: "Author's picture",
};

/** What each option is, in words: the codec for videos, the format for a photo post's two files. */
function optionNote(o: VideoInfo['downloadOptions'][number], info: VideoInfo, platformName: string): string {
  if (o.quality === 'images') return ` · ZIP of ${info.images?.length ?? 0} photos, originals`;
  if (o.quality === 'slideshow') return ' · MP4 slideshow over the sound · plays everywhere';
  if (o.quality === 'sound') {
    const rate = o.bitrate ? ` ${Math.round(o.bitrate / 1000)} kbit/s` : '';
    return ` · ${o.format === 'mp3' ? 'MP3' : 'AAC'}${rate} · the original sound, as ${platformName} stores it`;
  }
  if (o.silent) return ` · no sound: the post on ${platformName} has none`;
  if (o.codec === 'hevc') return ' · HEVC · sharpest';
  return o.codec ? ' · H.264 · plays everywhere' : '';
}

function Preview({ info, onClose }: { info: VideoInfo; onClose: (failed: boolean) => void }) {
  const [loading, setLoading] = useState(true);
  return (
    <div className="relative aspect-[9/16] w-full overflow-hidden rounded-xl bg-black">
      {/* biome-ignore lint/a11y/useMediaCaption: a preview of someone else's post; we have no caption track for it */}
      <video
        data-testid="video-preview"
        src={info.videoUrl}
        poster={info.thumbnail ?? undefined}
        controls
        autoPlay
        playsInline
        className="h-full w-full object-contain"
        onCanPlay={() => setLoading(false)}
        onError={() => {
          toast({
            title: 'Video preview failed',
            description: 'Could not load video preview, but download should still work.',
            variant: 'destructive',
          });
          onClose(true);
        }}
      />
      {loading && (
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center" role="status">
          <Loader2 className="h-10 w-10 animate-spin text-white" aria-hidden />
          <span className="sr-only">Loading preview</span>
        </div>
      )}
      <button
        type="button"
        onClick={() => onClose(false)}
        aria-label="Close preview"
        className="absolute right-2 top-2 rounded-full bg-black/60 p-1.5 text-white hover:bg-black/80"
      >
        <X className="h-5 w-5" aria-hidden />
      </button>
    </div>
  );
}

/** upgradeToDownload: no downloads left, so each button says so (and the page opens the upgrade modal). */
export function VideoCard({
  info,
  onDownload,
  downloading,
  upgradeToDownload = false,
}: {
  info: VideoInfo;
  onDownload: (quality: string) => void;
  downloading: boolean;
  upgradeToDownload?: boolean;
}) {
  const [previewing, setPreviewing] = useState(false);
  const platformName = usePlatforms().platforms.find((p) => p.id === info.platform)?.name ?? 'The platform';

  function play() {
    if (!info.videoUrl || info.downloadOptions.length === 0) {
      toast({
        title: 'Video preview not available',
        description: 'This video cannot be previewed, but you can still download it.',
        variant: 'destructive',
      });
      return;
    }
    setPreviewing(true);
  }

  async function copyLink() {
    try {
      await navigator.clipboard.writeText(info.url);
      toast({ title: 'Link copied', description: 'The video link is on your clipboard.' });
    } catch {
      toast({ title: 'Clipboard access denied', description: 'Please paste the URL manually', variant: 'destructive' });
    }
  }

  return (
    <section
      data-testid="video-card"
      aria-label="Video details"
      className="overflow-hidden rounded-2xl bg-white shadow-lg ring-1 ring-slate-200"
    >
      <div className="grid gap-6 p-4 sm:p-6 md:grid-cols-[240px_1fr]">
        <div className="mx-auto w-full max-w-[240px]">
          {info.mediaType === 'photo' ? (
            <div className="relative aspect-[9/16] w-full overflow-hidden rounded-xl bg-slate-200">
              <Thumbnail src={info.images?.[0]?.url ?? info.thumbnail} />
              <span
                className={
                  'absolute bottom-2 right-2 inline-flex items-center gap-1 ' +
                  'rounded bg-black/70 px-1.5 py-0.5 text-xs font-semibold text-white'
                }
              >
                <Images className="h-3.5 w-3.5" aria-hidden />
                {info.images?.length ?? 0}
              </span>
            </div>
          ) : previewing ? (
            <Preview info={info} onClose={() => setPreviewing(false)} />
          ) : (
            <button
              type="button"
              onClick={play}
              aria-label={info.duration > 0 ? `Play preview, ${formatDuration(info.duration)}` : 'Play preview'}
              className="group relative block aspect-[9/16] w-full overflow-hidden rounded-xl bg-slate-200"
            >
              <Thumbnail src={info.thumbnail} align="top" />
              <span className="absolute inset-0 flex items-center justify-center bg-black/20 group-hover:bg-black/30">
                <span data-testid="play-icon" className="rounded-full bg-white/90 p-3 shadow">
                  <Play className="h-6 w-6 fill-violet-600 text-violet-600" aria-hidden />
                </span>
              </span>
              {info.duration > 0 && (
                <span className="absolute bottom-2 right-2 rounded bg-black/70 px-1.5 py-0.5 text-xs font-semibold text-white">
                  {formatDuration(info.duration)}
                </span>
              )}
            </button>
          )}
        </div>
        <div className="min-w-0">
          <h2 data-testid="video-title" className="line-clamp-3 break-words text-lg font-bold text-slate-900">
            {info.title}
          </h2>
          <dl className="mt-3 flex flex-wrap gap-x-5 gap-y-2 text-sm text-slate-600">
            <div className="flex items-center gap-1.5">
              <User className="h-4 w-4" aria-hidden />
              <dt className="sr-only">Author</dt>
              <dd data-testid="video-author">@{info.author}</dd>
            </div>
            {/* A platform that does not say (0) gets no figure rather than a wrong one. */}
            {info.duration > 0 && (
              <div className="flex items-center gap-1.5">
                <Clock className="h-4 w-4" aria-hidden />
                <dt className="sr-only">Duration</dt>
                <dd data-testid="video-duration">{formatDuration(info.duration)}</dd>
              </div>
            )}
            {info.views > 0 && (
              <div className="flex items-center gap-1.5">
                <Eye className="h-4 w-4" aria-hidden />
                <dt className="sr-only">Views</dt>
                <dd data-testid="video-views">{formatNumber(info.views)} views</dd>
              </div>
            )}
            <div className="flex items-center gap-1.5">
              <Heart className="h-4 w-4" aria-hidden />
              <dt className="sr-only">Likes</dt>
              <dd data-testid="video-likes">{formatNumber(info.likes)} likes</dd>
            </div>
          </dl>
          <h3 className="mt-5 text-sm font-semibold text-slate-800">Download options</h3>
          {info.downloadOptions.length === 0 ? (
            <p className="mt-2 text-sm text-slate-600">
              {info.mediaType === 'photo'
                ? `${platformName} shows no photos for this post.`
                : 'This post has no video file to download.'}
            </p>
          ) : (
            <ul data-next-action className="mt-2 space-y-2">
              {info.downloadOptions.map((o) => (
                <li
                  key={o.quality}
                  className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3"
                >
                  <div className="text-sm">
                    <span className="mr-2 rounded bg-violet-100 px-2 py-0.5 font-bold uppercase text-violet-700">
                      {o.quality}
                    </span>
                    <span className="text-slate-700">{o.resolution}</span>
                    {info.mediaType === 'video' && o.quality !== 'sound' && (
                      <>
                        <span className="mx-1 text-slate-400">·</span>
                        <span className="text-slate-700">{formatFileSize(o.size)}</span>
                      </>
                    )}
                    {optionNote(o, info, platformName) && (
                      <span data-testid="option-codec" className="text-slate-500">
                        {optionNote(o, info, platformName)}
                      </span>
                    )}
                  </div>
                  <button
                    type="button"
                    disabled={downloading}
                    onClick={() => onDownload(o.quality)}
                    aria-label={
                      upgradeToDownload
                        ? `Upgrade to download ${o.quality.toUpperCase()}`
                        : `Download ${o.quality.toUpperCase()}`
                    }
                    className={
                      'inline-flex items-center gap-2 rounded-md bg-violet-600 px-4 py-2 ' +
                      'text-sm font-semibold text-white hover:bg-violet-700 ' +
                      'disabled:cursor-not-allowed disabled:opacity-50'
                    }
                  >
                    {upgradeToDownload ? (
                      <Crown className="h-4 w-4" aria-hidden />
                    ) : (
                      <Download className="h-4 w-4" aria-hidden />
                    )}
                    {upgradeToDownload ? 'Upgrade to download' : 'Download'}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {info.downloadOptions.some((o) => o.quality === 'sound') && (
            <p data-testid="sound-note" className="mt-2 text-xs text-slate-500">
              A 192 kbit/s MP3 of this sound is larger, not better: {platformName} stores it at about 64–128 kbit/s.
            </p>
          )}
          {!!info.pictures?.length && (
            <p data-testid="post-pictures" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
              <ImageDown className="h-4 w-4 text-slate-500" aria-hidden />
              {info.pictures.map((p) => (
                <a
                  key={p.kind}
                  href={`${p.url}${p.url.includes('?') ? '&' : '?'}download=1`}
                  download
                  className="rounded border border-slate-300 px-2 py-0.5 font-medium text-violet-700 hover:bg-violet-50"
                >
                  {PICTURE_LABELS[p.kind]}
                </a>
              ))}
            </p>
          )}
          <button
            type="button"
            onClick={copyLink}
            className={
              'mt-4 inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 ' +
              'py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50'
            }
          >
            <Copy className="h-4 w-4" aria-hidden />
            Copy link
          </button>
        </div>
      </div>
      {info.mediaType === 'photo' && !!info.images?.length && <PhotoStrip images={info.images} />}
    </section>
  );
}
