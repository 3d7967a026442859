// Decision 0092 'Trending Videos screen' (/trending-videos): the shared curated list (Pro, 'Ownership').
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { TRENDING_PLATFORMS, type TrendingPlatform } from '@shared/contracts/trending-videos';
import { trendingVideosList } from '../lib/api';
import { errorCode, serverMessage } from '../lib/api-error';
import { Spinner } from '../components/ui/spinner';
import { TrendingVideoCard } from '../components/trending/trending-video-card';
import { CurateVideoForm } from '../components/trending/curate-video-form';
import { ProUpsell } from '../components/pro-upsell';
import { TRENDING_VIDEOS_UPSELL } from '../components/upsell-samples';

export default function TrendingVideosPage() {
  const [platform, setPlatform] = useState('all');
  const [formOpen, setFormOpen] = useState(false);
  const videos = useQuery({
    queryKey: ['/api/trending-videos', platform],
    queryFn: () => trendingVideosList(platform === 'all' ? undefined : (platform as TrendingPlatform)),
  });
  const list = videos.data ?? [];
  const proRequired = errorCode(videos.error) === 'billing.pro_required';

  return (
    <main className="mx-auto max-w-7xl space-y-6 px-4 py-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold text-slate-900">Trending Videos</h1>
          <p className="mt-1 text-slate-600">A curated list of videos worth watching, shared by Pro creators.</p>
        </div>
        {!proRequired && (
          <div className="flex flex-wrap items-center gap-2">
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <span className="sr-only">Platform</span>
              <select
                aria-label="Platform filter"
                value={platform}
                onChange={(e) => setPlatform(e.target.value)}
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm"
              >
                <option value="all">All</option>
                {TRENDING_PLATFORMS.map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </label>
            <span
              data-testid="trending-count"
              className="rounded-full bg-violet-100 px-3 py-1 text-sm font-medium text-violet-800"
            >
              {list.length} trending videos
            </span>
            {!formOpen && (
              <button
                type="button"
                onClick={() => setFormOpen(true)}
                className="flex items-center gap-1 rounded-md bg-violet-600 px-3 py-2 text-sm font-semibold text-white hover:bg-violet-700"
              >
                <Plus className="h-4 w-4" aria-hidden /> Curate Video
              </button>
            )}
          </div>
        )}
      </div>

      {formOpen && <CurateVideoForm onClose={() => setFormOpen(false)} />}

      {videos.isLoading ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading trending videos..." />
        </div>
      ) : proRequired ? (
        <ProUpsell tool="Trending Videos" {...TRENDING_VIDEOS_UPSELL} />
      ) : videos.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {serverMessage(videos.error) ?? 'Failed to load trending videos'}
        </p>
      ) : list.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center">
          <p className="text-lg font-medium text-slate-900">No trending videos yet</p>
          {!formOpen && (
            <button
              type="button"
              onClick={() => setFormOpen(true)}
              className="mt-4 rounded-md bg-violet-600 px-4 py-2 font-semibold text-white hover:bg-violet-700"
            >
              Curate First Video
            </button>
          )}
        </div>
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {list.map((v) => (
            <TrendingVideoCard key={v.id} video={v} />
          ))}
        </div>
      )}
    </main>
  );
}
