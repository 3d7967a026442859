// Auto captions (decision 0092 'Auto captions screen', 'Captions input', 'Toasts'): a video link in,
// timestamped segments out, with Copy and Download as .txt, plus SRT and WebVTT for video editors.
import { lazy, Suspense, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Captions, Clock, Copy, Download, Globe, ListOrdered, User } from 'lucide-react';
import type { TranscriptionResult } from '@shared/contracts/transcription';
import { shortClock, toSrt, toWebVtt, transcriptFileName } from '@shared/captions';
import { transcriptionGenerate } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { progressLabel, progressNote, useMediaJob } from '../hooks/use-media-job';
import { formatDuration } from '../lib/format';
import { toast } from '../hooks/use-toast';
import { saveTextFile, ToolPage, UrlToolForm } from '../components/media-tools/tool-shell';
import { CAPTIONS_UPSELL } from '../components/upsell-samples';
import { usePlatforms } from '../hooks/use-platforms';

// The studio (editor, JASSUB preview, uploads) loads only when the page is open.
const CaptionStudio = lazy(() => import('../components/caption-studio/caption-studio'));

const INVALID_FORMAT = 'Invalid transcription response format';

const ENGINE_LABEL: Record<TranscriptionResult['engine'], string> = {
  captions: "From the video's own captions",
  api: 'Automatic transcription (suggestion, check before publishing)',
  whisper: 'Automatic transcription by Whisper (suggestion, check before publishing)',
  offline: 'Automatic transcription (suggestion, check before publishing)',
};

function transcriptText(r: TranscriptionResult): string {
  const lines = r.segments.map((s) => `[${shortClock(s.start)} - ${shortClock(s.end)}] ${s.text}`);
  return `${r.title}\n${r.author ? `@${r.author}\n` : ''}\n${r.fullText}\n\n${lines.join('\n')}\n`;
}

export default function AutoCaptionsPage() {
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<TranscriptionResult | null>(null);
  const job = useMediaJob((link: string) => transcriptionGenerate({ url: link }));
  const { names, example } = usePlatforms();

  const generate = useMutation({
    mutationFn: async (link: string) => {
      const data = await job.run(link);
      if (!data || !Array.isArray(data.segments)) throw new Error(INVALID_FORMAT);
      return data;
    },
    onSuccess: (data) => {
      setResult(data);
      toast({
        title: 'Transcription generated!',
        description: `${data.segments.length} segment${data.segments.length === 1 ? '' : 's'} ready.`,
      });
    },
    onError: (err) => {
      const message =
        serverMessage(err) ?? (err instanceof Error && err.message === INVALID_FORMAT ? INVALID_FORMAT : undefined);
      toast({
        title: 'Transcription failed',
        description: message ?? 'Failed to generate transcription. Please try again.',
        variant: 'destructive',
      });
    },
  });

  function submit() {
    const link = url.trim();
    if (!link) {
      toast({ title: 'URL required', description: `Please enter a ${names} video URL`, variant: 'destructive' });
      return;
    }
    generate.mutate(link);
  }

  async function copy() {
    if (!result) return;
    try {
      await navigator.clipboard.writeText(result.fullText);
      toast({ title: 'Copied!', description: 'The transcript is on your clipboard.' });
    } catch {
      toast({
        title: 'Copy failed',
        description: 'Please select the text and copy it manually.',
        variant: 'destructive',
      });
    }
  }

  const r = result;
  return (
    <ToolPage
      icon={<Captions className="h-6 w-6" aria-hidden />}
      title="Auto Captions"
      subtitle="Turn a video's speech into timestamped captions and a transcript."
      upsell={CAPTIONS_UPSELL}
    >
      <UrlToolForm
        id="captions-url"
        label="Video URL"
        type="url"
        placeholder={example}
        value={url}
        onChange={setUrl}
        onSubmit={submit}
        pending={generate.isPending}
        buttonLabel="Generate Captions"
        note={progressNote(job.status)}
        pendingLabel={progressLabel(job.status, 'Generating...')}
      />
      {r && (
        <section
          data-testid="captions-result"
          className="space-y-4 rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
        >
          <div>
            <h2 className="break-words text-lg font-semibold text-slate-900">{r.title}</h2>
            <div className="mt-2 flex flex-wrap gap-2 text-sm text-slate-700">
              <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-1">
                <User className="h-4 w-4" aria-hidden />@{r.author}
              </span>
              <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-1">
                <Clock className="h-4 w-4" aria-hidden />
                {formatDuration(r.duration)}
              </span>
              <span
                data-testid="captions-language"
                className="inline-flex items-center gap-1 rounded-full bg-violet-100 px-2.5 py-1 font-semibold text-violet-800"
              >
                <Globe className="h-4 w-4" aria-hidden />
                {r.language.toUpperCase()}
              </span>
              <span
                data-testid="captions-count"
                className="inline-flex items-center gap-1 rounded-full bg-pink-100 px-2.5 py-1 text-pink-800"
              >
                <ListOrdered className="h-4 w-4" aria-hidden />
                {r.segments.length} {r.segments.length === 1 ? 'segment' : 'segments'}
              </span>
            </div>
            <p className="mt-2 text-xs text-slate-500">{ENGINE_LABEL[r.engine]}</p>
          </div>

          <div>
            <h3 className="mb-1 text-sm font-semibold text-slate-700">Full text</h3>
            <p
              data-testid="captions-fulltext"
              className="whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-3 text-slate-800"
            >
              {r.fullText}
            </p>
          </div>

          <div>
            <h3 className="mb-1 text-sm font-semibold text-slate-700">Segments</h3>
            <ol
              data-testid="captions-segments"
              className="max-h-80 space-y-1 overflow-y-auto rounded-lg border border-slate-200 p-2"
            >
              {r.segments.map((s) => (
                <li key={s.id} className="flex gap-3 rounded-md px-2 py-1.5 hover:bg-slate-50">
                  <span className="shrink-0 font-mono text-xs leading-6 text-violet-700">
                    {shortClock(s.start)} - {shortClock(s.end)}
                  </span>
                  <span className="min-w-0 break-words text-slate-800">{s.text}</span>
                </li>
              ))}
            </ol>
          </div>

          <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            <button
              type="button"
              onClick={copy}
              className={
                'inline-flex items-center justify-center gap-1.5 rounded-lg border ' +
                'border-slate-300 px-3 py-2 font-medium text-slate-800 hover:bg-slate-50'
              }
            >
              <Copy className="h-4 w-4" aria-hidden />
              Copy
            </button>
            <button
              type="button"
              onClick={() => saveTextFile(transcriptFileName(r.title), transcriptText(r), 'text/plain;charset=utf-8')}
              className={
                'inline-flex items-center justify-center gap-1.5 rounded-lg bg-violet-600 ' +
                'px-3 py-2 font-medium text-white hover:bg-violet-700'
              }
            >
              <Download className="h-4 w-4" aria-hidden />
              Download
            </button>
            <button
              type="button"
              onClick={() =>
                saveTextFile(
                  transcriptFileName(r.title, '_captions.srt'),
                  toSrt(r.segments),
                  'application/x-subrip;charset=utf-8',
                )
              }
              className={
                'inline-flex items-center justify-center gap-1.5 rounded-lg border ' +
                'border-violet-300 px-3 py-2 font-medium text-violet-800 hover:bg-violet-50'
              }
            >
              <Download className="h-4 w-4" aria-hidden />
              SRT
            </button>
            <button
              type="button"
              onClick={() =>
                saveTextFile(
                  transcriptFileName(r.title, '_captions.vtt'),
                  toWebVtt(r.segments),
                  'text/vtt;charset=utf-8',
                )
              }
              className={
                'inline-flex items-center justify-center gap-1.5 rounded-lg border ' +
                'border-violet-300 px-3 py-2 font-medium text-violet-800 hover:bg-violet-50'
              }
            >
              <Download className="h-4 w-4" aria-hidden />
              WebVTT
            </button>
          </div>
        </section>
      )}
      <Suspense fallback={null}>
        <CaptionStudio url={r ? url : ''} />
      </Suspense>
    </ToolPage>
  );
}
