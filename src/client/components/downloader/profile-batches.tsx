// A profile's selection as batches (issue 45, Pro): the selected posts go to the batch API in
// groups of at most BATCH_MAX_URLS (one batch each, the screen says how many), each followed live
// until its ZIP is ready.
import { useQuery } from '@tanstack/react-query';
import { Download, Loader2 } from 'lucide-react';
import { batchGet } from '../../lib/api';

function BatchLine({ id, n, of }: { id: string; n: number; of: number }) {
  const { data } = useQuery({
    queryKey: ['/api/batch', id],
    queryFn: () => batchGet(id),
    refetchInterval: (q) => (q.state.data?.downloadUrl || q.state.data?.status === 'failed' ? false : 1500),
  });
  const done = data?.items.filter((i) => i.status === 'done').length ?? 0;
  const total = data?.items.length ?? 0;
  return (
    <li data-testid="profile-batch" className="flex flex-wrap items-center justify-between gap-2 py-2">
      <span className="text-sm text-slate-700">
        Batch {n} of {of}: {done} of {total} done{data?.status === 'failed' ? ' (failed)' : ''}
      </span>
      {data?.downloadUrl ? (
        <a
          href={data.downloadUrl}
          download
          data-testid="profile-batch-zip"
          className="inline-flex items-center gap-1.5 rounded-md bg-violet-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-violet-700"
        >
          <Download className="h-4 w-4" aria-hidden />
          Download ZIP
        </a>
      ) : (
        data?.status !== 'failed' && <Loader2 className="h-4 w-4 animate-spin text-violet-600" aria-label="Working" />
      )}
    </li>
  );
}

export function ProfileBatches({ ids, split }: { ids: string[]; split: number }) {
  if (!ids.length) return null;
  return (
    <div className="rounded-xl bg-violet-50 p-3 ring-1 ring-violet-200">
      {ids.length > 1 && (
        <p data-testid="profile-batch-split" className="text-sm font-medium text-violet-900">
          Your selection was split into {ids.length} batches of at most {split} posts, one ZIP each.
        </p>
      )}
      <ul className="divide-y divide-violet-100">
        {ids.map((id, i) => (
          <BatchLine key={id} id={id} n={i + 1} of={ids.length} />
        ))}
      </ul>
    </div>
  );
}
