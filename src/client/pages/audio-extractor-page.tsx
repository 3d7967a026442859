// Audio extractor (decision 0092 'Audio extractor screen', 'Audio input', 'Toasts'): a video link in,
// an MP3 (192 kbit/s) out, with a preview player and a download link served by this product.
import { useState } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Clock, Download, FileAudio, HardDrive, Music, User } from 'lucide-react';
import type { AudioResult } from '@shared/contracts/audio';
import { platformOfLink } from '@shared/platform-links';
import { usePlatforms } from '../hooks/use-platforms';
import { audioExtract, videoLinkGet } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { progressLabel, progressNote, useMediaJob } from '../hooks/use-media-job';
import { formatDuration, formatFileSize } from '../lib/format';
import { toast } from '../hooks/use-toast';
import { ToolPage, UrlToolForm } from '../components/media-tools/tool-shell';
import { AUDIO_UPSELL } from '../components/upsell-samples';

export default function AudioExtractorPage() {
  const [url, setUrl] = useState('');
  const [result, setResult] = useState<AudioResult | null>(null);
  const [resultLink, setResultLink] = useState('');
  const job = useMediaJob((link: string) => audioExtract({ url: link }));
  const { platforms, names, example } = usePlatforms();
  // The link's platform, when it keeps the post's sound as a file of its own.
  const linked = platformOfLink(resultLink, platforms);
  const soundOf = linked?.separateSound ? linked : null;
  // The original sound's link spends a download, so it carries a key made for this person (decision 0082).
  const soundLink = useQuery({
    queryKey: ['/api/video/link', resultLink, 'sound'],
    queryFn: () => videoLinkGet({ url: resultLink, quality: 'sound' }),
    enabled: !!soundOf && !!resultLink,
    staleTime: Number.POSITIVE_INFINITY,
  });

  const extract = useMutation({
    mutationFn: job.run,
    onSuccess: (data, link) => {
      setResult(data);
      setResultLink(link);
      toast({ title: 'Audio extracted!', description: 'Your MP3 is ready to download.' });
    },
    onError: (err) => {
      toast({
        title: 'Extraction failed',
        description: serverMessage(err) ?? 'Unable to extract audio. Please try again.',
        variant: 'destructive',
      });
    },
  });

  function submit() {
    const link = url.trim();
    if (!link) {
      toast({
        title: 'URL required',
        description: `Please enter a ${names} URL to extract audio`,
        variant: 'destructive',
      });
      return;
    }
    if (!platformOfLink(link, platforms)) {
      toast({ title: 'Invalid URL', description: `Please enter a valid ${names} URL`, variant: 'destructive' });
      return;
    }
    extract.mutate(link);
  }

  return (
    <ToolPage
      icon={<Music className="h-6 w-6" aria-hidden />}
      title="Audio Extractor"
      subtitle={`Extract the sound of any ${names} video as a high-quality MP3.`}
      upsell={AUDIO_UPSELL}
    >
      <UrlToolForm
        id="audio-url"
        label={`${names} video URL`}
        type="text"
        placeholder={example}
        value={url}
        onChange={setUrl}
        onSubmit={submit}
        pending={extract.isPending}
        buttonLabel="Extract"
        note={progressNote(job.status)}
        pendingLabel={progressLabel(job.status, 'Extracting...')}
      />
      {result && (
        <section data-testid="audio-result" className="rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6">
          <div className="flex items-start gap-4">
            <div className="hidden h-14 w-14 shrink-0 items-center justify-center rounded-xl bg-violet-100 text-violet-700 sm:flex">
              <FileAudio className="h-7 w-7" aria-hidden />
            </div>
            <div className="min-w-0 flex-1">
              <h2 className="break-words text-lg font-semibold text-slate-900">{result.title}</h2>
              <p className="mt-1 flex items-center gap-1.5 text-sm text-slate-600">
                <User className="h-4 w-4 shrink-0" aria-hidden />
                <span className="truncate">@{result.author}</span>
              </p>
            </div>
          </div>
          <dl className="mt-4 grid grid-cols-3 gap-2 text-center text-sm">
            <div className="rounded-lg bg-slate-50 p-2">
              <dt className="sr-only">Duration</dt>
              <dd
                className="flex items-center justify-center gap-1 font-medium text-slate-800"
                data-testid="audio-duration"
              >
                <Clock className="h-4 w-4 text-slate-500" aria-hidden />
                {formatDuration(result.duration)}
              </dd>
            </div>
            <div className="rounded-lg bg-slate-50 p-2">
              <dt className="sr-only">Format</dt>
              <dd className="font-medium text-slate-800">MP3 Format</dd>
            </div>
            <div className="rounded-lg bg-slate-50 p-2">
              <dt className="sr-only">Size</dt>
              <dd
                className="flex items-center justify-center gap-1 font-medium text-slate-800"
                data-testid="audio-size"
              >
                <HardDrive className="h-4 w-4 text-slate-500" aria-hidden />
                {formatFileSize(result.size)}
              </dd>
            </div>
          </dl>
          {/* biome-ignore lint/a11y/useMediaCaption: the sound of someone else's post; no caption track exists for it */}
          <audio controls preload="none" src={result.audioUrl} className="mt-4 w-full" aria-label="Audio preview" />
          <a
            href={result.audioUrl}
            download
            className={
              'mt-4 flex w-full items-center justify-center gap-2 rounded-lg ' +
              'bg-emerald-600 px-4 py-3 font-semibold text-white hover:bg-emerald-700'
            }
          >
            <Download className="h-5 w-5" aria-hidden />
            Download MP3
          </a>
          {/* The sound as the platform stores it, copied (issue 28), through the downloader's own link. */}
          {soundOf && soundLink.data && (
            <>
              <a
                href={soundLink.data.url}
                download
                className={
                  'mt-2 flex w-full items-center justify-center gap-2 rounded-lg ' +
                  'border border-emerald-600 px-4 py-2 font-semibold text-emerald-700 hover:bg-emerald-50'
                }
              >
                <Music className="h-5 w-5" aria-hidden />
                Original sound (as {soundOf.name} stores it)
              </a>
              <p data-testid="sound-note" className="mt-2 text-center text-xs text-slate-500">
                The 192 kbit/s MP3 is larger, not better: {soundOf.name} stores the sound at about 64–128 kbit/s.
              </p>
            </>
          )}
        </section>
      )}
    </ToolPage>
  );
}
