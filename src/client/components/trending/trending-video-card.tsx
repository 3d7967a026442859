// One curated video (decision 0092 'Trending Videos screen', each card).
import { useMutation } from '@tanstack/react-query';
import { ExternalLink, Eye, Flame, Heart, TrendingUp } from 'lucide-react';
import { Thumbnail } from '../ui/thumbnail';
import { TRENDING_CARD_TAGS } from '@shared/constants';
import type { TrendingVideo } from '@shared/contracts/trending-videos';
import { trendingVideoBoost } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { queryClient } from '../../lib/query-client';
import { formatNumber } from '../../lib/format';
import { toast } from '../../hooks/use-toast';

const PLATFORM_STYLE: Record<string, string> = {
  tiktok: 'bg-slate-900 text-white',
  instagram: 'bg-pink-600 text-white',
  facebook: 'bg-blue-600 text-white',
};

function VideoThumbnail({ video }: { video: TrendingVideo }) {
  return (
    <a
      href={video.videoUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Open ${video.title} in a new tab`}
      className="block aspect-video w-full overflow-hidden rounded-t-xl bg-slate-100"
    >
      <Thumbnail src={video.thumbnailSrc} className="transition-transform hover:scale-105" />
    </a>
  );
}

export function TrendingVideoCard({ video }: { video: TrendingVideo }) {
  const boost = useMutation({
    // The founding call sends the current score plus 1; the server adds exactly 1 once per user whatever it says.
    mutationFn: () => trendingVideoBoost(video.id, { trendingScore: video.trendingScore + 1 }),
    onSuccess: () => {
      toast({ title: 'Trending score updated' });
      void queryClient.invalidateQueries({ queryKey: ['/api/trending-videos'] });
    },
    onError: (err) => {
      toast({
        title: 'Boost not counted',
        description: serverMessage(err) ?? 'Failed to update trending score',
        variant: 'destructive',
      });
      void queryClient.invalidateQueries({ queryKey: ['/api/trending-videos'] });
    },
  });
  const extraTags = video.tags.length - TRENDING_CARD_TAGS;
  return (
    <article
      data-testid="trending-card"
      className="flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <VideoThumbnail video={video} />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex items-center justify-between gap-2">
          <span
            className={`rounded-full px-2 py-0.5 text-xs font-semibold ${PLATFORM_STYLE[video.platform] ?? 'bg-slate-200 text-slate-800'}`}
          >
            {video.platform}
          </span>
          <span
            data-testid="trending-score"
            className="flex items-center gap-1 text-sm font-semibold text-orange-600"
            title="Trending score"
          >
            <Flame className="h-4 w-4" aria-hidden />
            {video.trendingScore}
          </span>
        </div>
        <h3 className="line-clamp-2 break-words font-semibold text-slate-900">{video.title}</h3>
        {video.author && <p className="truncate text-sm text-slate-600">by {video.author}</p>}
        {video.description && <p className="line-clamp-3 break-words text-sm text-slate-600">{video.description}</p>}
        {video.tags.length > 0 && (
          <div className="flex flex-wrap gap-1">
            {video.tags.slice(0, TRENDING_CARD_TAGS).map((t) => (
              <span key={t} className="rounded bg-violet-50 px-1.5 py-0.5 text-xs text-violet-700">
                #{t}
              </span>
            ))}
            {extraTags > 0 && (
              <span className="rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-600">+{extraTags} more</span>
            )}
          </div>
        )}
        <div className="flex items-center gap-4 text-sm text-slate-600">
          <span className="flex items-center gap-1" title="Views">
            <Eye className="h-4 w-4" aria-hidden /> {formatNumber(video.viewCount)}
          </span>
          <span className="flex items-center gap-1" title="Likes">
            <Heart className="h-4 w-4" aria-hidden /> {formatNumber(video.likeCount)}
          </span>
        </div>
        <div className="mt-auto flex gap-2 pt-2">
          <button
            type="button"
            onClick={() => boost.mutate()}
            disabled={boost.isPending || video.boosted}
            title={video.boosted ? 'You boosted this video' : 'Add 1 to the trending score'}
            className={
              'flex flex-1 items-center justify-center gap-1 rounded-md border ' +
              'border-orange-200 px-3 py-1.5 text-sm font-medium text-orange-700 hover:bg-orange-50 ' +
              'disabled:cursor-not-allowed disabled:opacity-60'
            }
          >
            <TrendingUp className="h-4 w-4" aria-hidden /> {video.boosted ? 'Boosted' : 'Boost'}
          </button>
          <a
            href={video.videoUrl}
            target="_blank"
            rel="noopener noreferrer"
            className={
              'flex flex-1 items-center justify-center gap-1 rounded-md border ' +
              'border-slate-200 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100'
            }
          >
            <ExternalLink className="h-4 w-4" aria-hidden /> View
          </a>
        </div>
        <p className="text-xs text-slate-400">Curated {new Date(video.createdAt).toLocaleDateString()}</p>
      </div>
    </article>
  );
}
