// The landing page's downloader for signed-out visitors: paste (or share) a link, see the card at
// once (lookups work signed out), and only Download asks for an account, in place. After the
// sign-up or sign-in the same download runs, then the signed-in downloader opens with that link.
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { VideoInfo } from '@shared/contracts/video';
import { videoInfoFetch } from '../../lib/api';
import { serverMessage } from '../../lib/api-error';
import { toast } from '../../hooks/use-toast';
import { usePlatforms } from '../../hooks/use-platforms';
import { keepLinkForNextPage, useIncomingLink } from '../../hooks/use-incoming-link';
import { profileOfLink } from '@shared/platform-links';
import { UrlForm } from './url-form';
import { downloadFailure, useVideoDownload } from './use-video-download';

// The card, progress and account form load when a link is fetched, keeping the landing page light.
const VideoCard = lazy(() => import('./video-card').then((m) => ({ default: m.VideoCard })));
const ProgressCard = lazy(() => import('./page-sections').then((m) => ({ default: m.ProgressCard })));
const AuthForm = lazy(() => import('../auth-form').then((m) => ({ default: m.AuthForm })));

export function PasteFirst() {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState('');
  const [info, setInfo] = useState<VideoInfo | null>(null);
  const [askAccountFor, setAskAccountFor] = useState<string | null>(null); // the chosen quality
  const { progress, start } = useVideoDownload();
  const accountRef = useRef<HTMLDivElement>(null);
  const { names, platforms } = usePlatforms();
  /** A pasted profile link: its list is for signed-in people, so the account form comes first. */
  const [profileLink, setProfileLink] = useState<string | null>(null);
  const open = (link: string) => {
    if (profileOfLink(link, platforms)) {
      setInfo(null);
      setProfileLink(link);
      keepLinkForNextPage(link);
      return;
    }
    setProfileLink(null);
    fetchInfo.mutate(link);
  };

  const fetchInfo = useMutation({
    mutationFn: (link: string) => videoInfoFetch({ url: link }),
    onSuccess: (data) => {
      setInfo(data);
      setAskAccountFor(null);
    },
    onError: (err) => {
      setInfo(null);
      toast({
        title: 'Video Not Available',
        description: serverMessage(err) ?? `This ${names} video cannot be processed. Please try a different video URL.`,
        variant: 'destructive',
      });
    },
  });

  useIncomingLink((link) => {
    setUrl(link);
    open(link);
  });

  useEffect(() => {
    if (askAccountFor) accountRef.current?.scrollIntoView({ block: 'nearest' });
  }, [askAccountFor]);

  /** Signed in now: run the download that was asked for, then hand over to the signed-in app. */
  async function continueDownload() {
    if (!info || !askAccountFor) return;
    keepLinkForNextPage(info.url);
    try {
      await start(info.url, askAccountFor, info.platform);
      toast({ title: 'Download completed', description: 'Your video was saved.' });
    } catch (err) {
      const f = downloadFailure(err);
      toast({
        title: f.limitReached ? 'Download Limit Reached' : 'Download failed',
        description: f.message ?? 'Failed to download video',
        variant: 'destructive',
      });
    }
    await queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] });
  }

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 text-left">
      <UrlForm url={url} onUrlChange={setUrl} onSubmit={open} pending={fetchInfo.isPending} />
      <Suspense fallback={null}>
        {progress ? (
          <ProgressCard progress={progress} />
        ) : (
          info && (
            <VideoCard
              info={info}
              downloading={false}
              onDownload={(quality) => {
                // Kept now, so a sign-in through an OpenID provider (a full round trip) returns to this card.
                keepLinkForNextPage(info.url);
                setAskAccountFor(quality);
              }}
            />
          )
        )}
        {profileLink && (
          <section
            aria-label="Create an account to list this profile"
            className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-violet-200 sm:p-6"
          >
            <p className="mb-3 text-sm text-slate-700">
              Listing a whole profile needs a free account. The profile's posts appear as soon as you are in.
            </p>
            <div className="max-w-sm">
              <AuthForm
                initialMode="register"
                headingLevel={2}
                onSignedIn={() => queryClient.invalidateQueries({ queryKey: ['/api/auth/user'] })}
              />
            </div>
          </section>
        )}
        {askAccountFor && !progress && (
          <section
            ref={accountRef}
            aria-label="Create an account to download"
            data-testid="download-account"
            className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-violet-200 sm:p-6"
          >
            <p className="mb-3 text-sm text-slate-700">
              Downloads need a free account (6 downloads included, no card needed). Your download starts as soon as you
              are in.
            </p>
            <div className="max-w-sm">
              <AuthForm initialMode="register" headingLevel={2} autoFocus onSignedIn={continueDownload} />
            </div>
          </section>
        )}
      </Suspense>
    </div>
  );
}
