// Burn-in render with real progress (percent from ffmpeg through the media job), Cancel, then the
// captioned MP4's download link; and the text exports (.srt, .vtt with word timing, .ass, .txt).
import { useState } from 'react';
import { Download, Film, Loader2, X } from 'lucide-react';
import { CAPTION_EXPORT_FORMATS } from '@shared/contracts/caption-studio';
import { useMediaJob } from '../../hooks/use-media-job';
import { captionProjectRender, type MediaJob } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { formatFileSize } from '../../lib/format';
import { BUTTON as btn } from './ui';
import { exportUrl } from './studio-api';

const EXPORT_LABEL: Record<(typeof CAPTION_EXPORT_FORMATS)[number], string> = {
  srt: 'SRT',
  vtt: 'WebVTT (word timing)',
  ass: 'ASS (styled)',
  txt: 'Text',
};

const renderFromJob = (job: MediaJob) => job.result;

/** `flush` sends any pending autosave first, so the render is of what the person sees. */
export function RenderPanel({ projectId, flush }: { projectId: string; flush: () => Promise<void> }) {
  // The burn-in: percent while it runs; Cancel stops it on the server too (a Cancel while the last
  // autosave is still on its way counts as well); its done status carries the MP4's link, so no
  // second request asks for it.
  const render = useMediaJob(
    async (id: string, signal: AbortSignal) => {
      await flush();
      signal.throwIfAborted();
      // Not aborted mid-request: a job the server started must be known here so Cancel can stop it.
      return captionProjectRender(id);
    },
    700,
    renderFromJob,
  );
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function start() {
    setBusy(true);
    setError(undefined);
    try {
      await render.run(projectId);
    } catch (err) {
      setError(
        err instanceof DOMException && err.name === 'AbortError'
          ? 'Render cancelled.'
          : (serverMessage(err) ?? 'The render failed. Please try again.'),
      );
    } finally {
      setBusy(false);
    }
  }

  const { status: job } = render;
  const result = job.state === 'done' ? job.result : null;
  const percent = Math.round(job.state === 'running' ? (job.percent ?? 0) : 0);
  const status =
    job.state === 'queued'
      ? job.position && job.position > 1
        ? `Queued: ${job.position - 1} ahead…`
        : 'Queued: next…'
      : `Rendering… ${percent}%`;

  return (
    <section aria-labelledby="studio-render-heading" className="space-y-3">
      <h3 id="studio-render-heading" className="text-sm font-semibold text-slate-700">
        Render and export
      </h3>
      <div className="flex flex-wrap items-center gap-2">
        {busy ? (
          <button type="button" className={`${btn} border border-slate-300 text-slate-800`} onClick={render.cancel}>
            <X className="h-4 w-4" aria-hidden />
            Cancel
          </button>
        ) : (
          <button type="button" className={`${btn} bg-violet-600 text-white hover:bg-violet-700`} onClick={start}>
            <Film className="h-4 w-4" aria-hidden />
            Render video
          </button>
        )}
        {result && (
          <a
            href={result.url}
            download
            data-testid="studio-download"
            className={`${btn} bg-gradient-to-r from-violet-600 to-pink-500 text-white`}
          >
            <Download className="h-4 w-4" aria-hidden />
            Download MP4 ({formatFileSize(result.size)})
          </a>
        )}
      </div>
      {busy && (
        <div role="status" aria-live="polite" className="space-y-1">
          <div className="flex items-center gap-2 text-sm text-slate-700">
            <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            {status}
          </div>
          <progress
            data-testid="studio-render-progress"
            className="h-2 w-full accent-violet-600"
            max={100}
            value={percent}
            aria-label="Render progress"
          />
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {CAPTION_EXPORT_FORMATS.map((f) => (
          <a
            key={f}
            href={exportUrl(projectId, f)}
            download
            className={`${btn} border border-violet-300 text-violet-800 hover:bg-violet-50`}
          >
            <Download className="h-4 w-4" aria-hidden />
            {EXPORT_LABEL[f]}
          </a>
        ))}
      </div>
    </section>
  );
}
