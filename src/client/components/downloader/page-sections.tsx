// The downloader's static and small parts: hero, feature chips and tiles, progress card, recent
// downloads and the upgrade modal of decision 0092 'Constants' (the footer is components/site-footer.tsx).
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { Check, Crown, Download, Shield, Sparkles, Trash2, X, Zap } from 'lucide-react';
import type { RecentDownload } from '@shared/contracts/video';
import { PRO_FEATURES, PRO_PRICE_USD } from '@shared/constants';
import { formatAge, formatNumber } from '../../lib/format';
import type { DownloadProgress } from './use-video-download';
import { Thumbnail } from '../ui/thumbnail';
import { Static } from '../static-html';

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

// Hero, chips and tiles run nothing: on a first screen the server's HTML is kept (decision 0078).
export function Hero() {
  return (
    <Static className="text-center">
      <h1
        className={
          'bg-gradient-to-r from-pink-500 via-violet-600 to-sky-500 ' +
          'bg-clip-text text-3xl font-extrabold text-transparent sm:text-5xl'
        }
      >
        Download TikTok Videos Instantly
      </h1>
      <p className="mx-auto mt-3 max-w-2xl text-base text-slate-600 sm:text-lg">
        Paste a video link to get the video without a watermark, in the best quality its platform offers.
      </p>
    </Static>
  );
}

export function FeatureChips() {
  const chips = ['No watermark', 'HD quality', 'Real download progress', 'Short links work'];
  return (
    <Static as="ul" className="flex flex-wrap justify-center gap-2" aria-label="Features">
      {chips.map((c) => (
        <li
          key={c}
          className={
            'inline-flex items-center gap-1 rounded-full bg-white px-3 py-1 text-xs ' +
            'font-medium text-slate-700 shadow-sm ring-1 ring-slate-200'
          }
        >
          <Check className="h-3.5 w-3.5 text-emerald-500" aria-hidden />
          {c}
        </li>
      ))}
    </Static>
  );
}

export function FeatureTiles() {
  const tiles = [
    {
      icon: Zap,
      title: 'Lightning Fast',
      text: 'Files stream straight to you while they download: no waiting for a server copy.',
    },
    {
      icon: Shield,
      title: 'No Watermark',
      text: 'Only the clean files the platform itself plays are offered, never the watermarked export.',
    },
    {
      icon: Sparkles,
      title: 'HD Quality',
      text: 'The best quality that plays with sound on any phone is picked by default.',
    },
  ];
  return (
    <Static as="section" aria-label="Why creators use it" className="grid gap-4 sm:grid-cols-3">
      {tiles.map(({ icon: Icon, title, text }) => (
        <div key={title} className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <Icon className="h-8 w-8 text-violet-600" aria-hidden />
          <h2 className="mt-3 font-bold text-slate-900">{title}</h2>
          <p className="mt-1 text-sm text-slate-600">{text}</p>
        </div>
      ))}
    </Static>
  );
}

export function ProgressCard({ progress }: { progress: DownloadProgress }) {
  // An expected size is an estimate: the bar stops short of 100 % until the last byte came.
  const cap = progress.estimated ? 99 : 100;
  const percent = progress.total ? Math.min(cap, Math.floor((progress.received / progress.total) * 100)) : null;
  const total = progress.total ? `${progress.estimated ? 'about ' : ''}${mb(progress.total)}` : null;
  return (
    <section
      data-testid="download-progress"
      aria-label="Download progress"
      className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-200"
    >
      <div className="flex items-center justify-between text-sm font-semibold text-slate-800">
        <span className="inline-flex items-center gap-2">
          <Download className="h-4 w-4 animate-bounce text-violet-600" aria-hidden />
          {progress.preparing ? 'Preparing your file...' : 'Downloading...'}
        </span>
        {percent !== null && <span data-testid="progress-percent">{percent}%</span>}
      </div>
      <div
        className="mt-3 h-3 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
      >
        <div
          className={`h-full rounded-full bg-gradient-to-r from-pink-500 to-violet-600 transition-all ${
            percent === null ? 'w-1/3 animate-pulse' : ''
          }`}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      <div className="mt-2 flex justify-between text-xs text-slate-600">
        <span data-testid="progress-bytes">
          {total ? `${mb(progress.received)} of ${total}` : mb(progress.received)}
        </span>
        <span data-testid="progress-speed">{mb(progress.bytesPerSecond)}/s</span>
      </div>
    </section>
  );
}

/** Clearing asks once more in place: the list cannot be brought back (the quota is not refunded). */
function ClearHistory({ onClear, clearing }: { onClear: () => void; clearing: boolean }) {
  const [confirming, setConfirming] = useState(false);
  const btn = 'inline-flex items-center gap-1.5 rounded-md border px-3 py-1.5 text-sm disabled:opacity-50';
  if (!confirming) {
    return (
      <button
        type="button"
        onClick={() => setConfirming(true)}
        disabled={clearing}
        className={`${btn} border-slate-300 text-slate-700 hover:bg-slate-50`}
      >
        <Trash2 className="h-4 w-4" aria-hidden />
        Clear History
      </button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: an inline confirmation in a row; a fieldset brings form borders
    <span
      role="group"
      aria-label="Confirm clearing the history"
      className="flex flex-wrap items-center justify-end gap-2 text-sm text-slate-700"
    >
      <span>Clear the whole list?</span>
      <button
        type="button"
        // biome-ignore lint/a11y/noAutofocus: focus moves to the safe choice of the confirmation that just opened
        autoFocus
        onClick={() => setConfirming(false)}
        className={`${btn} border-slate-300 hover:bg-slate-50`}
      >
        Keep
      </button>
      <button
        type="button"
        onClick={() => {
          setConfirming(false);
          onClear();
        }}
        className={`${btn} border-slate-800 bg-slate-800 text-white hover:bg-slate-700`}
      >
        Yes, clear
      </button>
    </span>
  );
}

export function RecentDownloads({
  items,
  onClear,
  clearing,
}: {
  items: RecentDownload[];
  onClear: () => void;
  clearing: boolean;
}) {
  return (
    <section aria-labelledby="recent-title" className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
      <div className="flex items-center justify-between gap-3">
        <h2 id="recent-title" className="text-lg font-bold text-slate-900">
          Recent Downloads
        </h2>
        {items.length > 0 && <ClearHistory onClear={onClear} clearing={clearing} />}
      </div>
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No downloads yet. Your downloaded videos will appear here.</p>
      ) : (
        <ul data-testid="recent-list" className="mt-3 divide-y divide-slate-100">
          {items.map((d) => (
            <li key={d.id} className="flex items-center gap-3 py-3">
              <div className="h-14 w-10 flex-none overflow-hidden rounded bg-slate-200">
                <Thumbnail src={d.thumbnail} compact />
              </div>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-semibold text-slate-900">{d.title ?? d.url}</p>
                <p className="truncate text-xs text-slate-600">
                  {d.author ? `@${d.author}` : ''} {d.views !== null ? `· ${formatNumber(d.views)} views` : ''}{' '}
                  {d.quality ? `· ${d.quality.toUpperCase()}` : ''}
                </p>
              </div>
              <span className="flex-none text-xs text-slate-500">{formatAge(d.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function UpgradeModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="upgrade-title"
      className="fixed inset-0 m-auto h-fit w-[calc(100%-2rem)] max-w-md rounded-2xl p-0 shadow-2xl backdrop:bg-black/50"
    >
      <div className="relative p-6">
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="absolute right-3 top-3 rounded p-1 text-slate-500 hover:bg-slate-100"
        >
          <X className="h-5 w-5" aria-hidden />
        </button>
        <Crown className="h-10 w-10 text-amber-500" aria-hidden />
        <h2 id="upgrade-title" className="mt-3 text-xl font-bold text-slate-900">
          Upgrade to Pro
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          You've used your free downloads. Go Pro for ${PRO_PRICE_USD}/month and keep creating.
        </p>
        <ul className="mt-4 space-y-1.5">
          {PRO_FEATURES.map((f) => (
            <li key={f} className="flex items-center gap-2 text-sm text-slate-700">
              <Check className="h-4 w-4 text-emerald-500" aria-hidden />
              {f}
            </li>
          ))}
        </ul>
        <div className="mt-6 flex flex-col gap-2 sm:flex-row-reverse">
          <Link
            href="/subscription"
            onClick={onClose}
            className={
              'inline-flex flex-1 items-center justify-center rounded-md bg-gradient-to-r ' +
              'from-amber-400 to-orange-500 px-4 py-2 font-semibold text-white'
            }
          >
            Upgrade Now
          </Link>
          <button
            type="button"
            onClick={onClose}
            className="flex-1 rounded-md border border-slate-300 px-4 py-2 text-slate-700 hover:bg-slate-50"
          >
            Maybe Later
          </button>
        </div>
      </div>
    </dialog>
  );
}
