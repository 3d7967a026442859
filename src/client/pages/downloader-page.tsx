// The Downloader (decision 0092 'Downloader screen', 'Fetch and download', downloader 'Toasts').
import { Suspense, useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Crown } from 'lucide-react';
import type { VideoInfo } from '@shared/contracts/video';
import { FREE_DOWNLOAD_LIMIT, UPGRADE_MODAL_AFTER } from '@shared/constants';
import { downloadsClear, recentDownloadsGet, videoInfoFetch } from '../lib/api';
import { serverMessage } from '../lib/api-error';
import { toast } from '../hooks/use-toast';
import { SUBSCRIPTION_STATUS_KEY, useSubscriptionStatus } from '../hooks/use-subscription';
import { UrlForm } from '../components/downloader/url-form';
import { VideoCard } from '../components/downloader/video-card';
import {
  FeatureChips,
  FeatureTiles,
  Hero,
  ProgressCard,
  RecentDownloads,
  UpgradeModal,
} from '../components/downloader/page-sections';
import { downloadFailure, useVideoDownload } from '../components/downloader/use-video-download';
import { useIncomingLink } from '../hooks/use-incoming-link';
import { usePlatforms } from '../hooks/use-platforms';
import { SiteFooter } from '../components/site-footer';
import { ProfileList } from '../components/downloader/profile-list';
import { RepliesExport } from '../components/downloader/replies-export';
import { profileOfLink } from '@shared/platform-links';

const RECENT_KEY = ['/api/downloads/recent'] as const;

export default function DownloaderPage() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [info, setInfo] = useState<VideoInfo | null>(null);
  const [upgradeOpen, setUpgradeOpen] = useState(false);
  const { names, platforms } = usePlatforms();
  const [profileUrl, setProfileUrl] = useState<string | null>(null);
  const status = useSubscriptionStatus();
  const recent = useQuery({ queryKey: RECENT_KEY, queryFn: recentDownloadsGet });
  const { progress, start } = useVideoDownload();

  const fetchInfo = useMutation({
    mutationFn: (link: string) => videoInfoFetch({ url: link }),
    onSuccess: (data) => {
      setInfo(data);
      toast({
        title: 'Video fetched successfully',
        description: data.title.length > 80 ? `${data.title.slice(0, 79)}…` : data.title,
      });
    },
    onError: (err) => {
      setInfo(null);
      toast({
        title: 'Video Not Available',
        description: serverMessage(err) ?? `This ${names} video cannot be processed. Please try a different video URL.`,
        variant: 'destructive',
      });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: RECENT_KEY }),
  });

  const clear = useMutation({
    mutationFn: downloadsClear,
    onSettled: () => queryClient.invalidateQueries({ queryKey: RECENT_KEY }),
  });

  /** A post is fetched; a profile link lists the account's posts instead (issue 45). */
  function open(link: string) {
    if (profileOfLink(link, platforms)) {
      setInfo(null);
      setProfileUrl(link);
      return;
    }
    setProfileUrl(null);
    fetchInfo.mutate(link);
  }

  // A shared link, `/?url=`, or the link kept across an in-place sign-in: fetched at once.
  useIncomingLink((link) => {
    setUrl(link);
    open(link);
  });

  async function download(quality: string, target = info ? { url: info.url, platform: info.platform } : null) {
    if (!target) return;
    const s = status.data;
    if (s && !s.canDownload) {
      // No downloads left: the buttons read "Upgrade to download" and open the upgrade modal.
      setUpgradeOpen(true);
      return;
    }
    const countBefore = s?.downloadCount ?? 0;
    try {
      const saved = await start(target.url, quality, target.platform);
      toast({
        title: 'Download completed',
        description: saved.fileName.endsWith('.zip') ? 'Your photos were saved.' : 'Your video was saved.',
      });
      if (s && !s.isProUser && countBefore >= UPGRADE_MODAL_AFTER) setUpgradeOpen(true);
    } catch (err) {
      const f = downloadFailure(err);
      if (f.limitReached) {
        toast({
          title: 'Download Limit Reached',
          description: f.message ?? `You've reached the free plan limit of ${FREE_DOWNLOAD_LIMIT} downloads.`,
          variant: 'destructive',
        });
      } else {
        toast({
          title: 'Download failed',
          description: f.message ?? 'Failed to download video',
          variant: 'destructive',
        });
      }
    } finally {
      void queryClient.invalidateQueries({ queryKey: SUBSCRIPTION_STATUS_KEY });
      void queryClient.invalidateQueries({ queryKey: RECENT_KEY });
    }
  }

  const s = status.data;
  return (
    <div className="min-h-screen bg-gradient-to-b from-violet-50 via-white to-pink-50">
      <main className="mx-auto max-w-4xl space-y-8 px-4 py-8 sm:py-12">
        <Hero />
        <UrlForm url={url} onUrlChange={setUrl} onSubmit={open} pending={fetchInfo.isPending} />
        <FeatureChips />
        {s && !s.isProUser && (
          <div
            className={
              'flex flex-col items-center justify-between gap-3 rounded-xl ' +
              'bg-violet-600/10 px-4 py-3 text-sm text-violet-900 sm:flex-row'
            }
          >
            <span data-testid="quota-note">
              Free plan: {s.remainingDownloads} of {FREE_DOWNLOAD_LIMIT} downloads left.
            </span>
            <Link
              href="/subscription"
              className="inline-flex items-center gap-1.5 rounded-md bg-violet-600 px-3 py-1.5 font-semibold text-white hover:bg-violet-700"
            >
              <Crown className="h-4 w-4" aria-hidden />
              Upgrade to Pro
            </Link>
          </div>
        )}
        {progress ? (
          <ProgressCard progress={progress} />
        ) : (
          info && (
            <VideoCard
              info={info}
              onDownload={download}
              downloading={!!progress}
              upgradeToDownload={!!s && !s.canDownload}
            />
          )
        )}
        {info && s?.isProUser && platforms.find((p) => p.id === info.platform)?.replies && (
          <RepliesExport url={info.url} />
        )}
        {profileUrl && (
          <ProfileList
            key={profileUrl}
            url={profileUrl}
            isPro={!!s?.isProUser}
            onDownload={(postUrl, quality) => {
              const platform = profileOfLink(profileUrl, platforms)?.id ?? '';
              void download(quality, { url: postUrl, platform });
            }}
          />
        )}
        {/* Below the fold: its own boundary, so a first screen hydrates it in a later pass (decision 0078). */}
        <Suspense fallback={null}>
          <FeatureTiles />
          <RecentDownloads items={recent.data ?? []} onClear={() => clear.mutate()} clearing={clear.isPending} />
          <SiteFooter className="mt-12" />
        </Suspense>
      </main>
      <UpgradeModal open={upgradeOpen} onClose={() => setUpgradeOpen(false)} />
    </div>
  );
}
