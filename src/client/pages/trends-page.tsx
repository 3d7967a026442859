// Trends analysis (decision 0092 'Trends screen'): key insights, hashtags, songs, creators, videos, news and the
// platform analytics card, each labelled with its source and time; refetched every 5 minutes.
import { useEffect, useRef } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  BarChart3,
  Hash,
  Lightbulb,
  Music,
  Newspaper,
  RefreshCw,
  TrendingUp,
  Users,
  Video,
  BadgeCheck,
} from 'lucide-react';
import type { TrendsAnalysis } from '@shared/contracts/trends';
import { TRENDS_REFETCH_MS, TRENDING_CARD_TAGS } from '@shared/constants';
import { trendsAnalysisGet } from '../lib/api';
import { errorCode, serverMessage } from '../lib/api-error';
import { formatAge, formatDuration } from '../lib/format';
import { toast } from '../hooks/use-toast';
import { ProUpsell } from '../components/pro-upsell';
import { TRENDS_UPSELL } from '../components/upsell-samples';
import {
  CategoryBadge,
  Growth,
  NewsBadge,
  Row,
  Section,
  dash,
  formatDay,
  formatStamp,
  num,
} from '../components/trends/trend-ui';

const button =
  'inline-flex items-center gap-2 rounded-md bg-violet-600 px-4 py-2 text-sm font-semibold text-white hover:bg-violet-700';

export default function TrendsPage() {
  const query = useQuery({
    queryKey: ['/api/trends/analysis'],
    queryFn: trendsAnalysisGet,
    refetchInterval: TRENDS_REFETCH_MS,
  });
  const { data, error, isLoading, refetch, isFetching } = query;
  const toasted = useRef<unknown>(null);
  useEffect(() => {
    if (error && toasted.current !== error && !isProGate(error)) {
      toasted.current = error;
      toast({ title: 'Failed to load trends data', description: serverMessage(error), variant: 'destructive' });
    }
  }, [error]);

  return (
    <main className="mx-auto max-w-6xl px-4 py-6 sm:py-8">
      <header className="mb-6 flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-bold text-slate-900 sm:text-3xl">
            <TrendingUp className="h-7 w-7 text-violet-600" aria-hidden />
            Trends Analysis
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Social media trends from dated sources and from videos processed by this toolkit.
          </p>
        </div>
        {data?.last_updated && <p className="text-xs text-slate-500">Last updated: {formatStamp(data.last_updated)}</p>}
      </header>
      {isLoading ? (
        <TrendsSkeleton />
      ) : error && !data && isProGate(error) ? (
        <ProUpsell tool="Trends Analysis" {...TRENDS_UPSELL} />
      ) : error && !data ? (
        <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-center">
          <p className="font-semibold text-red-800">{serverMessage(error) ?? 'Failed to load trends data'}</p>
          <div className="mt-4 flex justify-center gap-3">
            <button type="button" className={button} onClick={() => refetch()} disabled={isFetching}>
              <RefreshCw className={`h-4 w-4 ${isFetching ? 'animate-spin' : ''}`} aria-hidden />
              Try Again
            </button>
          </div>
        </div>
      ) : data && isEmpty(data) ? (
        <div className="rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
          <BarChart3 className="mx-auto h-10 w-10 text-slate-400" aria-hidden />
          <p className="mt-3 font-semibold text-slate-900">No trends data yet</p>
          <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
            Trends appear after the first collection from the trend sources and as videos are processed here.
          </p>
          <button type="button" className={`${button} mt-4`} onClick={() => refetch()} disabled={isFetching}>
            <RefreshCw className={`h-4 w-4 ${isFetching ? 'animate-spin' : ''}`} aria-hidden />
            Retry
          </button>
        </div>
      ) : data ? (
        <TrendsContent data={data} />
      ) : null}
    </main>
  );
}

const isProGate = (error: unknown) => errorCode(error) === 'billing.pro_required';

function isEmpty(d: TrendsAnalysis): boolean {
  return (
    d.insights.length === 0 &&
    d.trending_hashtags.length === 0 &&
    d.trending_songs.length === 0 &&
    d.trending_creators.length === 0 &&
    d.trending_videos.length === 0 &&
    d.tiktok_news.length === 0
  );
}

function TrendsContent({ data }: { data: TrendsAnalysis }) {
  const a = data.platform_analytics;
  const change = a.engagementChange;
  return (
    <div className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-3">
        <section
          data-testid="key-insights"
          className="rounded-xl border border-violet-200 bg-gradient-to-br from-violet-50 to-white p-5 shadow-sm lg:col-span-2"
        >
          <h2 className="flex items-center gap-2 text-lg font-semibold text-slate-900">
            <Lightbulb className="h-5 w-5 text-violet-600" aria-hidden />
            Key Insights
          </h2>
          {data.insights.length ? (
            <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-700">
              {data.insights.map((i) => (
                <li key={i}>{i}</li>
              ))}
            </ul>
          ) : (
            <p className="mt-3 text-sm text-slate-500">No insights yet.</p>
          )}
        </section>
        <section
          data-testid="platform-analytics"
          className="rounded-xl bg-gradient-to-br from-violet-600 to-fuchsia-600 p-5 text-white shadow-sm"
        >
          <h2 className="flex items-center gap-2 text-lg font-semibold">
            <BarChart3 className="h-5 w-5" aria-hidden />
            Platform Analytics
          </h2>
          <p className="mt-3 text-3xl font-bold">{a.engagementRate === null ? '—' : `${a.engagementRate}%`}</p>
          <p className="text-sm text-violet-100">engagement (likes per view)</p>
          <p className="mt-2 text-sm font-semibold">
            {change === null ? 'No earlier week to compare yet' : `${change >= 0 ? '+' : ''}${change} pts this week`}
          </p>
          <p className="mt-3 text-xs text-violet-100">
            {formatDay(a.periodStart)} – {formatDay(a.periodEnd)} · {a.videos} {a.videos === 1 ? 'video' : 'videos'}{' '}
            processed by this toolkit
          </p>
        </section>
      </div>

      <div className="grid gap-6 lg:grid-cols-2">
        <Section
          testId="trending-hashtags"
          title="Trending Hashtags"
          icon={<Hash className="h-5 w-5 text-violet-600" aria-hidden />}
          source={data.sources.trending_hashtags}
          empty={!data.trending_hashtags.length}
        >
          <ul className="divide-y divide-slate-100">
            {data.trending_hashtags.map((h) => (
              <Row
                key={`${h.source}:${h.hashtag}`}
                main={`#${h.hashtag}`}
                sub={
                  <>
                    <CategoryBadge category={h.category} />
                    <span>{h.posts === null ? '' : `${num(h.posts)} ${h.posts === 1 ? 'post' : 'posts'}`}</span>
                    <span className="truncate">· {h.source}</span>
                  </>
                }
                figures={[
                  ['Views', num(h.views)],
                  ['Growth', <Growth key="g" value={h.growth} />],
                ]}
              />
            ))}
          </ul>
        </Section>
        <Section
          testId="trending-songs"
          title="Trending Songs"
          icon={<Music className="h-5 w-5 text-violet-600" aria-hidden />}
          source={data.sources.trending_songs}
          empty={!data.trending_songs.length}
        >
          <ul className="divide-y divide-slate-100">
            {data.trending_songs.map((s, i) => (
              <Row
                // biome-ignore lint/suspicious/noArrayIndexKey: titles may repeat; the list is replaced, never reordered
                key={`${s.title}:${i}`}
                main={s.title}
                sub={<span>{`${dash(s.artist)} · Genre: ${dash(s.genre)}`}</span>}
                figures={[
                  ['Uses', num(s.uses)],
                  ['Duration', s.duration === null ? '—' : formatDuration(s.duration)],
                ]}
              />
            ))}
          </ul>
        </Section>
        <Section
          testId="trending-creators"
          title="Trending Creators"
          icon={<Users className="h-5 w-5 text-violet-600" aria-hidden />}
          source={data.sources.trending_creators}
          empty={!data.trending_creators.length}
        >
          <ul className="divide-y divide-slate-100">
            {data.trending_creators.map((c) => (
              <Row
                key={c.username}
                main={
                  <span className="inline-flex items-center gap-1">
                    @{c.username}
                    {c.verified && <BadgeCheck className="h-4 w-4 text-sky-500" aria-label="Verified" />}
                  </span>
                }
                sub={
                  <>
                    <CategoryBadge category={c.category} />
                    <span>Verified: {c.verified === null ? '—' : c.verified ? 'Yes' : 'No'}</span>
                  </>
                }
                figures={[
                  ['Followers', num(c.followers)],
                  ['Recent views', num(c.recentViews)],
                ]}
              />
            ))}
          </ul>
        </Section>
        <Section
          testId="trending-videos"
          title="Trending Videos"
          icon={<Video className="h-5 w-5 text-violet-600" aria-hidden />}
          source={data.sources.trending_videos}
          empty={!data.trending_videos.length}
        >
          <ul className="divide-y divide-slate-100">
            {data.trending_videos.map((v, i) => (
              <Row
                // biome-ignore lint/suspicious/noArrayIndexKey: titles may repeat; the list is replaced, never reordered
                key={`${v.title}:${i}`}
                main={v.title}
                sub={
                  <>
                    <span>{v.creator ? `@${v.creator}` : '—'}</span>
                    <CategoryBadge category={v.category} />
                    {v.hashtags.slice(0, TRENDING_CARD_TAGS).map((t) => (
                      <span key={t} className="rounded bg-slate-100 px-1.5 text-slate-700">
                        #{t}
                      </span>
                    ))}
                    {v.hashtags.length > TRENDING_CARD_TAGS && (
                      <span>+{v.hashtags.length - TRENDING_CARD_TAGS} more</span>
                    )}
                  </>
                }
                figures={[
                  ['Views', num(v.views)],
                  ['Likes', num(v.likes)],
                ]}
              />
            ))}
          </ul>
        </Section>
      </div>

      <Section
        testId="tiktok-news"
        title="TikTok News"
        icon={<Newspaper className="h-5 w-5 text-violet-600" aria-hidden />}
        source={data.sources.tiktok_news}
        empty={!data.tiktok_news.length}
      >
        <ul className="divide-y divide-slate-100">
          {data.tiktok_news.map((n) => (
            <li key={`${n.title}:${n.timestamp}`} className="py-3">
              <div className="flex flex-wrap items-center gap-2 text-xs text-slate-500">
                <NewsBadge category={n.category} />
                <span>{n.source}</span>
                <span title={formatStamp(n.timestamp)}>· {formatAge(n.timestamp)}</span>
              </div>
              <h3 className="mt-1 font-medium text-slate-900">
                {n.url ? (
                  <a
                    href={n.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="hover:text-violet-700 hover:underline"
                  >
                    {n.title}
                  </a>
                ) : (
                  n.title
                )}
              </h3>
              {n.summary && <p className="mt-1 line-clamp-2 text-sm text-slate-600">{n.summary}</p>}
            </li>
          ))}
        </ul>
      </Section>

      {data.collectors.length > 0 && (
        <details
          data-testid="source-status"
          className="rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm"
        >
          <summary className="cursor-pointer font-semibold text-slate-800">
            Source status{failing(data) ? ` (${failing(data)} failing)` : ''}
          </summary>
          <ul className="mt-2 divide-y divide-slate-100">
            {data.collectors.map((c) => (
              <li key={c.source} className="flex flex-col gap-0.5 py-1.5 sm:flex-row sm:justify-between sm:gap-3">
                <span className="break-all font-medium text-slate-700">{c.source}</span>
                <span className={c.error ? 'break-words text-red-700' : 'text-slate-500'}>
                  {c.error ? `Failed: ${c.error}` : `${c.items} ${c.items === 1 ? 'item' : 'items'}`} ·{' '}
                  {formatStamp(c.lastRunAt)}
                </span>
              </li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}

const failing = (d: TrendsAnalysis) => d.collectors.filter((c) => c.error).length;

function TrendsSkeleton() {
  const block = 'animate-pulse rounded-xl bg-slate-200';
  return (
    <div role="status" aria-label="Loading trends" data-testid="trends-skeleton" className="space-y-6">
      <div className="grid gap-6 lg:grid-cols-3">
        <div className={`${block} h-40 lg:col-span-2`} />
        <div className={`${block} h-40`} />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        {[0, 1, 2, 3].map((i) => (
          <div key={i} className={`${block} h-64`} />
        ))}
      </div>
      <span className="sr-only">Loading trends</span>
    </div>
  );
}
