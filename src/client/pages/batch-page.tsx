// Batch downloads (issue 21, Pro): paste many video links (one per line, or a profile's copied
// links in any text), follow each item live (queued with its place, running, done, failed), then
// save one ZIP of every finished file; failed items can be retried.
import { useState, type FormEvent, type ReactNode } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CheckCircle2, Clock, Download, Layers, Loader2, RotateCcw, XCircle } from 'lucide-react';
import type { BatchItem, BatchView } from '@shared/contracts/batch';
import { BATCH_MAX_URLS } from '@shared/contracts/batch';
import { batchCreate, batchGet, batchRetry } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { toast } from '../hooks/use-toast';
import { ToolPage } from '../components/media-tools/tool-shell';
import { BATCH_UPSELL } from '../components/upsell-samples';
import { allLinks, profileOfLink } from '@shared/platform-links';
import { ProfileList } from '../components/downloader/profile-list';
import { usePlatforms } from '../hooks/use-platforms';

const STATE: Record<BatchItem['status'], { label: (i: BatchItem) => string; icon: ReactNode; tone: string }> = {
  queued: {
    label: (i) => (i.position ? `Queued · #${i.position} in line` : 'Queued'),
    icon: <Clock className="h-4 w-4" aria-hidden />,
    tone: 'text-slate-600',
  },
  running: {
    label: () => 'Downloading…',
    icon: <Loader2 className="h-4 w-4 animate-spin" aria-hidden />,
    tone: 'text-violet-700',
  },
  done: { label: () => 'Done', icon: <CheckCircle2 className="h-4 w-4" aria-hidden />, tone: 'text-emerald-700' },
  failed: {
    label: (i) => i.error?.message ?? 'Failed',
    icon: <XCircle className="h-4 w-4" aria-hidden />,
    tone: 'text-red-700',
  },
};

function BatchProgress({ batch, onRetry, retrying }: { batch: BatchView; onRetry: () => void; retrying: boolean }) {
  const done = batch.items.filter((i) => i.status === 'done').length;
  const retryable = batch.items.some(
    (i) => i.status === 'failed' && i.error?.code !== 'link.unsupported' && i.error?.code !== 'batch.duplicate',
  );
  return (
    <section
      data-testid="batch-progress"
      aria-label="Batch progress"
      className="rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 className="font-semibold text-slate-900">
          <span data-testid="batch-count">
            {done} of {batch.items.length}
          </span>{' '}
          done
        </h2>
        <div className="flex gap-2">
          {retryable && (
            <button
              type="button"
              onClick={onRetry}
              disabled={retrying}
              className={
                'inline-flex items-center gap-1.5 rounded-md border border-slate-300 px-3 ' +
                'py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50'
              }
            >
              <RotateCcw className="h-4 w-4" aria-hidden />
              Retry failed
            </button>
          )}
          {batch.downloadUrl && (
            <a
              href={batch.downloadUrl}
              download
              className={
                'inline-flex items-center gap-1.5 rounded-md bg-violet-600 px-3 py-1.5 ' +
                'text-sm font-semibold text-white hover:bg-violet-700'
              }
            >
              <Download className="h-4 w-4" aria-hidden />
              Download ZIP
            </a>
          )}
        </div>
      </div>
      <ol data-testid="batch-items" className="mt-4 divide-y divide-slate-100">
        {batch.items.map((item, i) => {
          const s = STATE[item.status];
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: a batch may list one link twice; its items never move
              key={`${i}-${item.url}`}
              data-status={item.status}
              className="flex flex-col gap-1 py-2 text-sm sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="min-w-0 truncate text-slate-800 sm:flex-1" title={item.url}>
                {item.title ?? item.url}
              </span>
              {/* A long error wraps in its own column instead of squeezing the link away. */}
              <span
                className={`inline-flex items-center gap-1.5 sm:max-w-[60%] sm:shrink-0 [&>svg]:shrink-0 ${s.tone}`}
              >
                {s.icon}
                {s.label(item)}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

export default function BatchPage() {
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [batchId, setBatchId] = useState<string | null>(null);
  const { platforms, names } = usePlatforms();
  /** Every link of a registered platform in the pasted text, in order, as typed (the server cleans them). */
  const links = allLinks(text, platforms);
  // A profile link alone lists that account's posts to pick from (issue 45).
  const profile = links.length
    ? undefined
    : (text.match(/https?:\/\/[^\s"'<>]+/gi) ?? []).find((l) => profileOfLink(l, platforms));

  // Live states: asked again every 1.5 s until nothing waits.
  const batch = useQuery({
    queryKey: ['/api/batch', batchId],
    queryFn: () => batchGet(batchId as string),
    enabled: !!batchId,
    refetchInterval: (q) =>
      q.state.data && (q.state.data.status === 'queued' || q.state.data.status === 'running') ? 1500 : false,
  });

  const create = useMutation({
    mutationFn: (urls: string[]) => batchCreate({ urls }),
    onSuccess: (data) => setBatchId(data.id),
    onError: (err) =>
      toast({
        title: 'Batch not started',
        description: serverMessage(err) ?? 'Please try again.',
        variant: 'destructive',
      }),
  });
  const retry = useMutation({
    mutationFn: () => batchRetry(batchId as string),
    onSuccess: (data) => queryClient.setQueryData(['/api/batch', batchId], data),
    onError: (err) =>
      toast({ title: 'Retry failed', description: serverMessage(err) ?? 'Please try again.', variant: 'destructive' }),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!links.length) {
      toast({
        title: 'No links found',
        description: `Paste ${names} video links, one per line.`,
        variant: 'destructive',
      });
      return;
    }
    if (links.length > BATCH_MAX_URLS) {
      toast({
        title: 'Too many links',
        description: `At most ${BATCH_MAX_URLS} links per batch.`,
        variant: 'destructive',
      });
      return;
    }
    create.mutate(links);
  }

  return (
    <ToolPage
      icon={<Layers className="h-6 w-6" aria-hidden />}
      title="Batch Download"
      subtitle={`Download many ${names} videos at once, then save them all as one ZIP.`}
      upsell={BATCH_UPSELL}
    >
      <form onSubmit={submit} className="rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6">
        <label htmlFor="batch-links" className="text-sm font-semibold text-slate-800">
          {names} links
        </label>
        <textarea
          id="batch-links"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={7}
          placeholder={platforms.map((p) => p.example).join('\n')}
          className={
            'mt-2 w-full rounded-lg border border-slate-300 p-3 ' +
            'font-mono text-sm focus:border-violet-500 focus:outline-none focus:ring-2 focus:ring-violet-200'
          }
        />
        <div className="mt-3 flex items-center justify-between gap-3">
          <span data-testid="batch-found" className="text-sm text-slate-600">
            {links.length === 1 ? '1 link found' : `${links.length} links found`} (up to {BATCH_MAX_URLS})
          </span>
          <button
            type="submit"
            disabled={create.isPending}
            className={
              'inline-flex items-center gap-2 rounded-md bg-gradient-to-r from-pink-500 ' +
              'to-violet-600 px-4 py-2 font-semibold text-white disabled:opacity-50'
            }
          >
            {create.isPending ? (
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden />
            ) : (
              <Layers className="h-4 w-4" aria-hidden />
            )}
            Start batch
          </button>
        </div>
      </form>
      {/* This screen is Pro's (ToolPage shows Free the upsell), so the list selects for a batch. */}
      {profile && <ProfileList key={profile} url={profile} isPro onDownload={() => {}} />}
      {batch.data && <BatchProgress batch={batch.data} onRetry={() => retry.mutate()} retrying={retry.isPending} />}
    </ToolPage>
  );
}
