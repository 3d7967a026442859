// A whole profile (issue 45): a pasted profile link lists the account's posts with media, newest
// first, one page at a time ("Load more" asks for the next with the server's cursor). Each post
// shows its thumbnail, text, date and kind. Pro: select posts (or all listed) and get them as
// batches with one ZIP each; Free: download one post at a time within the quota.
import { useEffect, useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Film, Images, Layers, Loader2 } from 'lucide-react';
import { BATCH_MAX_URLS } from '@shared/contracts/batch';
import { batchCreate, profilePostsFetch } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { toast } from '../../hooks/use-toast';
import { ProfileBatches } from './profile-batches';

const dateOf = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '';

export function ProfileList({
  url,
  isPro,
  onDownload,
}: {
  url: string;
  isPro: boolean;
  /** A single post's download (the Free way): its link and the quality to ask for. */
  onDownload: (postUrl: string, quality: string) => void;
}) {
  const [reposts, setReposts] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [batches, setBatches] = useState<string[]>([]);
  const [creating, setCreating] = useState(false);
  const query = useInfiniteQuery({
    queryKey: ['/api/profile/posts', url, reposts],
    queryFn: ({ pageParam }) => profilePostsFetch({ url, reposts, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: '',
    getNextPageParam: (last) => last.cursor ?? undefined,
    retry: false,
  });
  const error = query.error;
  useEffect(() => {
    if (error)
      toast({ title: 'Profile not available', description: serverMessage(error) ?? undefined, variant: 'destructive' });
  }, [error]);

  const pages = query.data?.pages ?? [];
  const posts = pages.flatMap((p) => p.posts);
  const author = pages[0]?.author;
  const allSelected = posts.length > 0 && posts.every((p) => selected.has(p.url));

  function toggle(postUrl: string) {
    const next = new Set(selected);
    if (next.has(postUrl)) next.delete(postUrl);
    else next.add(postUrl);
    setSelected(next);
  }

  async function makeBatches() {
    const urls = posts.filter((p) => selected.has(p.url)).map((p) => p.url);
    setCreating(true);
    try {
      const ids: string[] = [];
      for (let i = 0; i < urls.length; i += BATCH_MAX_URLS)
        ids.push((await batchCreate({ urls: urls.slice(i, i + BATCH_MAX_URLS) })).id);
      setBatches(ids);
      toast({ title: ids.length > 1 ? `${ids.length} batches started` : 'Batch started' });
    } catch (err) {
      toast({ title: 'Batch failed', description: serverMessage(err) ?? undefined, variant: 'destructive' });
    } finally {
      setCreating(false);
    }
  }

  if (query.isPending)
    return (
      <p className="flex items-center gap-2 text-slate-600">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Loading the profile…
      </p>
    );
  if (error)
    return (
      <p role="alert" className="text-red-700">
        {serverMessage(error) ?? 'This profile cannot be listed.'}
      </p>
    );
  return (
    <section
      aria-label="Profile posts"
      data-testid="profile-list"
      className="space-y-4 rounded-2xl bg-white p-4 shadow-lg ring-1 ring-slate-200 sm:p-6"
    >
      <header className="flex flex-wrap items-center gap-3">
        {author?.avatar && <img src={author.avatar} alt="" className="h-10 w-10 rounded-full" />}
        <div className="mr-auto">
          <h2 className="font-semibold text-slate-900">{author?.name || author?.handle}</h2>
          <p className="text-sm text-slate-500">@{author?.handle} · posts with videos or pictures</p>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input
            type="checkbox"
            checked={reposts}
            onChange={(e) => {
              setReposts(e.target.checked);
              setSelected(new Set());
            }}
          />
          Include reposts
        </label>
      </header>
      {isPro ? (
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
            <input
              type="checkbox"
              data-testid="select-all"
              checked={allSelected}
              onChange={() => setSelected(allSelected ? new Set() : new Set(posts.map((p) => p.url)))}
            />
            Select all listed
          </label>
          <span data-testid="selected-count" className="text-sm text-slate-600">
            {selected.size} of {posts.length} selected
          </span>
          <button
            type="button"
            disabled={!selected.size || creating}
            onClick={makeBatches}
            className="ml-auto inline-flex items-center gap-2 rounded-lg bg-gradient-to-r from-pink-500 to-violet-600 px-4 py-2 text-sm font-semibold text-white disabled:opacity-50"
          >
            <Layers className="h-4 w-4" aria-hidden />
            Download selected as ZIP
          </button>
        </div>
      ) : (
        <p className="text-sm text-slate-600">
          Free plan: download posts one at a time. Pro downloads a selection as one ZIP.
        </p>
      )}
      <ProfileBatches ids={batches} split={BATCH_MAX_URLS} />
      <ul className="grid gap-3 sm:grid-cols-2">
        {posts.map((p) => (
          <li key={p.url} data-testid="profile-post" className="flex gap-3 rounded-xl p-2 ring-1 ring-slate-200">
            {isPro && (
              <input
                type="checkbox"
                aria-label={`Select ${p.text.slice(0, 40) || p.id}`}
                checked={selected.has(p.url)}
                onChange={() => toggle(p.url)}
                className="mt-1"
              />
            )}
            {p.thumbnail ? (
              <img src={p.thumbnail} alt="" loading="lazy" className="h-20 w-20 shrink-0 rounded-lg object-cover" />
            ) : (
              <div className="h-20 w-20 shrink-0 rounded-lg bg-slate-100" />
            )}
            <div className="min-w-0 flex-1 text-sm">
              <p className="flex items-center gap-1 text-xs text-slate-500">
                {p.kind === 'video' ? (
                  <Film className="h-3.5 w-3.5" aria-hidden />
                ) : (
                  <Images className="h-3.5 w-3.5" aria-hidden />
                )}
                {p.kind === 'video' ? 'Video' : 'Pictures'} · {dateOf(p.createdAt)}
                {p.repost && ' · Repost'}
              </p>
              <p className="line-clamp-2 text-slate-800">{p.text || 'No text'}</p>
              {!isPro && (
                <button
                  type="button"
                  onClick={() => onDownload(p.url, p.kind === 'video' ? 'hd' : 'images')}
                  className="mt-1 text-sm font-semibold text-violet-700 hover:underline"
                >
                  Download
                </button>
              )}
            </div>
          </li>
        ))}
      </ul>
      {query.hasNextPage && (
        <button
          type="button"
          onClick={() => query.fetchNextPage()}
          disabled={query.isFetchingNextPage}
          className="w-full rounded-lg py-2 text-sm font-semibold text-violet-700 ring-1 ring-violet-200 hover:bg-violet-50"
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      )}
    </section>
  );
}
